/**
 * Import and export in real Chromium against the real headless shell with the demo Sites: the owner imports
 * a Mihon backup through the window (preview, map an unknown source, confirm), exports the library from
 * Settings, and a Reader downloads their own bookmarks.
 */
import { readFileSync } from 'node:fs'
import { expect, test, useShell } from './support/fixtures'
import type { RunningShell } from './support/shell'
import { MANGADEX_EN, tachibk } from '../src/main/testing/library-files'
import { withDb } from './support/db'

const SOURCE = '7005862379394557410'

useShell({ args: ['--demo'], adminToken: 'e2e-admin-token-0123456789' })

const aikoBookmarks = (shell: RunningShell) =>
  withDb(shell.dataFile, (db) =>
    db
      .prepare(
        "SELECT b.series_id, b.status, b.progress, s.series_url, s.title FROM bookmarks b JOIN readers r ON r.id = b.reader_id JOIN series s USING (site, series_id) WHERE r.name = 'Aiko' AND b.site = 'fixture-madara' ORDER BY b.series_id",
      )
      .all(),
  ) as Array<{ series_id: string; status: string; progress: number | null; series_url: string; title: string }>

test('the owner imports a Mihon backup through the window: preview, map the unknown source, confirm', async ({
  adminPage: page,
  shell,
}) => {
  await page.getByRole('link', { name: 'Readers' }).click()
  const before = aikoBookmarks(shell)
  expect(before.map((b) => b.series_id)).toContain('the-tower-climber')

  const backup = tachibk({
    manga: [
      { source: SOURCE, url: '/madara/manga/e2e-harbor-lights/', title: 'Harbor Lights', read: [1, 2, 3, 4] },
      { source: SOURCE, url: '/madara/manga/e2e-glass-garden/', title: 'Glass Garden', categories: [1] },
      // Already Aiko's (the demo catalogue): present, not added again.
      { source: SOURCE, url: '/madara/manga/the-tower-climber/', title: 'The Tower Climber' },
      // The demo has no MangaDex Site on mangadex.org: skipped, and said why.
      { source: MANGADEX_EN, url: '/manga/a96676e5-8ae2-425e-b549-7f15dd34a6d8', title: 'Komi' },
    ],
    categories: [{ name: 'Plan to Read', order: 1 }],
    sources: [{ name: 'Fixture Scans EN', sourceId: SOURCE }],
  })
  const panel = page.getByRole('region', { name: 'Import' })
  await panel.getByLabel('Import for').selectOption({ label: 'Aiko' })
  await panel.getByLabel('File to import').setInputFiles({ name: 'library.tachibk', mimeType: 'application/octet-stream', buffer: backup })
  await panel.getByRole('button', { name: 'Read file' }).click()

  const preview = panel.getByLabel('Import preview')
  await expect(preview).toContainText('library.tachibk — a Mihon/Tachiyomi backup')
  const source = preview.locator(`li[data-source="${SOURCE}"]`)
  await expect(source).toContainText('Fixture Scans EN — 3 manga')
  await expect(preview.locator('li[data-reason="unknown-host"]')).toContainText('1 — no Site has this host')
  await expect(preview.getByRole('button', { name: 'Import 0 bookmarks' })).toBeDisabled()

  await source.getByLabel('Site for Fixture Scans EN').selectOption({ label: 'Fixture Scans (Madara)' })
  await source.getByRole('button', { name: 'Map', exact: true }).click()
  const row = preview.locator('tr[data-site="fixture-madara"]')
  await expect(row.locator('[data-col="add"]')).toHaveText('2')
  await expect(row.locator('[data-col="present"]')).toHaveText('1')
  await expect(preview.locator('li[data-source]')).toHaveCount(0)
  await expect(preview.locator('[data-mapping]')).toContainText(`Fixture Scans EN is read as Fixture Scans (Madara) on ${shell.demoOrigin}`)
  // Nothing is written before the owner confirms.
  expect(aikoBookmarks(shell)).toEqual(before)

  await preview.getByRole('button', { name: 'Import 2 bookmarks' }).click()
  await expect(panel.getByRole('status')).toContainText('Imported: 2 bookmarks and 2 Series added')
  const after = aikoBookmarks(shell)
  expect(after.filter((b) => b.series_id.startsWith('e2e-'))).toEqual([
    {
      series_id: 'e2e-glass-garden',
      status: 'planned',
      progress: null,
      series_url: `${shell.demoOrigin}/madara/manga/e2e-glass-garden/`,
      title: 'Glass Garden',
    },
    {
      series_id: 'e2e-harbor-lights',
      status: 'reading',
      progress: 4,
      series_url: `${shell.demoOrigin}/madara/manga/e2e-harbor-lights/`,
      title: 'Harbor Lights',
    },
  ])
  // The mapping is remembered for the next import.
  expect(withDb(shell.dataFile, (db) => db.prepare('SELECT source_id, site FROM import_source_mappings').all())).toEqual([
    { source_id: SOURCE, site: 'fixture-madara' },
  ])
  await expect(page.locator('tr[data-reader="Aiko"] td').first()).toHaveText(String(before.length + 2 + countOthers(shell)))
})

/** Aiko's bookmarks on Sites other than fixture-madara (the demo's), which the table counts too. */
function countOthers(shell: RunningShell): number {
  return (
    withDb(shell.dataFile, (db) =>
      db
        .prepare(
          "SELECT COUNT(*) AS n FROM bookmarks b JOIN readers r ON r.id = b.reader_id WHERE r.name = 'Aiko' AND b.site <> 'fixture-madara'",
        )
        .get(),
    ) as { n: number }
  ).n
}

test('Settings → Export downloads the library as one document, with no token in it', async ({ adminPage: page, shell }) => {
  await page.getByRole('link', { name: 'Settings' }).click()
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export the library' }).click()
  const file = await downloading
  expect(file.suggestedFilename()).toMatch(/^manga-bookmark-library-\d{4}-\d{2}-\d{2}\.json$/)
  const doc = JSON.parse(readFileSync((await file.path())!, 'utf8'))
  expect(doc).toMatchObject({ format: 'manga-bookmark-library', version: 1 })
  expect(doc.readers.map((r: { name: string }) => r.name)).toEqual(['Aiko', 'Ben'])
  expect(JSON.stringify(doc)).not.toContain(shell.tokens.Aiko!)
})

test("a Reader downloads their own bookmarks from the Readers' page, as CSV and JSON", async ({ page, shell }) => {
  await page.goto(shell.origin)
  await page.getByLabel('Your Reader token').fill(shell.tokens.Ben!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByText('Ben', { exact: true })).toBeVisible()

  const csv = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download CSV' }).click()
  const csvFile = await csv
  expect(csvFile.suggestedFilename()).toMatch(/^manga-bookmarks-Ben-\d{4}-\d{2}-\d{2}\.csv$/)
  const lines = readFileSync((await csvFile.path())!, 'utf8')
    .trim()
    .split('\r\n')
  expect(lines[0]).toBe('site,seriesId,title,url,status,progress,progressAt,latestChapter')
  const benCount = (
    withDb(shell.dataFile, (db) =>
      db.prepare("SELECT COUNT(*) AS n FROM bookmarks b JOIN readers r ON r.id = b.reader_id WHERE r.name = 'Ben'").get(),
    ) as {
      n: number
    }
  ).n
  expect(lines).toHaveLength(benCount + 1)

  const json = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download JSON' }).click()
  const doc = JSON.parse(readFileSync((await (await json).path())!, 'utf8'))
  expect(doc.readers).toEqual([expect.objectContaining({ name: 'Ben' })])
  expect(doc.readers[0].bookmarks).toHaveLength(benCount)
})

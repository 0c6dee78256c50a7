/**
 * A real library comes across whole (issue 37), in real Chromium against the real headless shell: a Mihon
 * backup of 300 manga built from the committed Known Sites table — sources with an explicit id (Manganato's),
 * bumped versions named by their own and older ids, extensions of several languages, 40 % whole URLs on hosts
 * the Site's base URL is not (a former domain, a mirror), 20 % sources no family of this app reads — resolves
 * every readable entry with no mapping, and the preview names every other source with what becomes of it.
 * No request is sent by the import: nothing is pinned before the confirm, and no Lane pass of an added Site
 * started before the owner confirmed.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect, test, useShell } from './support/fixtures'
import { realLibraryBackup } from '../src/main/testing/known-backup'
import { tachibk } from '../src/main/testing/library-files'
import { withDb } from './support/db'

useShell({ args: ['--demo'], adminToken: 'e2e-admin-token-0123456789' })

test('a backup of 300 manga over the table: every readable entry resolves with no mapping, every other source is named', async ({
  adminPage: page,
  shell,
}) => {
  test.setTimeout(90_000)
  const library = realLibraryBackup()
  const keys = library.sites.map((s) => s.key)
  const inList = keys.map(() => '?').join(',')
  const passes = () =>
    withDb(shell.dataFile, (db) => db.prepare(`SELECT site, started_at FROM poll_passes WHERE site IN (${inList})`).all(...keys)) as Array<{
      site: string
      started_at: number
    }>

  await page.getByRole('link', { name: 'Readers' }).click()
  const panel = page.getByRole('region', { name: 'Import' })
  await panel.getByLabel('Import for').selectOption({ label: 'Aiko' })
  await panel
    .getByLabel('File to import')
    .setInputFiles({ name: 'real-library.tachibk', mimeType: 'application/octet-stream', buffer: tachibk(library.backup) })
  await panel.getByRole('button', { name: 'Read file' }).click()

  const preview = panel.getByLabel('Import preview')
  await expect(preview).toContainText('real-library.tachibk — a Mihon/Tachiyomi backup')
  await expect(preview.locator('[data-sites-to-add]')).toContainText(`Adds ${library.sites.length} Sites:`)
  // Every source named, with what becomes of it: no bare number, nothing unknown, nothing to map by hand.
  const sources = preview.locator('[data-sources] li')
  await expect(sources).toHaveCount(library.readable.size + library.unreadable.size)
  await expect(preview.locator('[data-sources] li[data-outcome="unknown"]')).toHaveCount(0)
  expect((await sources.allTextContents()).filter((t) => /^\s*source \d+/.test(t))).toEqual([])
  for (const [id, count] of library.readable) {
    await expect(preview.locator(`li[data-source-summary="${id}"]`)).toHaveAttribute('data-outcome', 'site-to-add')
    await expect(preview.locator(`li[data-source-summary="${id}"]`)).toContainText(`: ${count} manga — adds the Site`)
  }
  for (const [id, { name, count }] of library.unreadable) {
    const item = preview.locator(`li[data-source-summary="${id}"]`)
    await expect(item).toHaveAttribute('data-outcome', 'not-readable')
    await expect(item).toContainText(`${name}: ${count} manga — no family reads this site yet`)
  }
  await expect(preview.locator('li[data-source-summary="1024627298672457456"]')).toContainText(
    /^Manganato \(MangaBox\): \d+ manga — adds the Site Manganato; \d+ address(es)? moved from chapmanganato\.com to www\.natomanga\.com/,
  )
  // Skipped: only the sources no family reads; no host unknown.
  await expect(preview.locator('li[data-reason]')).toHaveCount(1)
  await expect(preview.locator('li[data-reason="not-readable"]')).toContainText('60 — a known source no family of this app reads yet')
  await expect(preview).not.toContainText('Hosts no Site has')

  // Nothing written, no Site pinned, no Lane pass of theirs: nothing can have been fetched from them.
  expect(existsSync(join(dirname(shell.dataFile), 'sites.json'))).toBe(false)
  expect(passes()).toEqual([])

  const confirmedAt = Date.now()
  await preview.getByRole('button', { name: 'Import 240 bookmarks' }).click()
  await expect(panel.getByRole('status')).toContainText('Imported: 240 bookmarks and 240 Series added')

  const written = JSON.parse(readFileSync(join(dirname(shell.dataFile), 'sites.json'), 'utf8')) as { sites: Array<{ key: string }> }
  expect(written.sites.map((s) => s.key).sort()).toEqual([...keys].sort())
  const rows = withDb(shell.dataFile, (db) =>
    db
      .prepare(
        `SELECT b.site, s.series_url FROM bookmarks b JOIN readers r ON r.id = b.reader_id JOIN series s USING (site, series_id)
         WHERE r.name = 'Aiko' AND b.site IN (${inList})`,
      )
      .all(...keys),
  ) as Array<{ site: string; series_url: string }>
  expect(rows).toHaveLength(240)
  // A whole URL on a domain the Site left is read on its base URL; one on a mirror stays on the mirror.
  const hostsOf = new Map(library.sites.map((s) => [s.key, [s.baseUrl, ...(s.mirrors ?? [])].map((o) => new URL(o).host)]))
  for (const r of rows) expect(hostsOf.get(r.site)).toContain(new URL(r.series_url).host)
  // The Lanes read the new Series at their own pace, after the confirm: none started a pass before it.
  for (const p of passes()) expect(p.started_at).toBeGreaterThanOrEqual(confirmedAt)
})

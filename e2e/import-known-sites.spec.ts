/**
 * A real Mihon library imported whole (issue 30), in real Chromium against the real headless shell: a backup
 * of 50 manga spread over Known Sites of every family the table holds resolves every entry by its source id,
 * the preview names the Sites it adds, and one confirm adds them (sites.json) and every bookmark. The import
 * sends no request to those Sites: none is pinned until the confirm, and the write itself reads nothing.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect, test, useShell } from './support/fixtures'
import { familyName } from '../src/shared/site-families'
import { knownSourcesBackup } from '../src/main/testing/known-backup'
import { tachibk } from '../src/main/testing/library-files'
import { withDb } from './support/db'

useShell({ args: ['--demo'], adminToken: 'e2e-admin-token-0123456789' })

test('a backup of 50 manga over Known Sites imports whole: every entry resolved, its 10 Sites added after one confirm', async ({
  adminPage: page,
  shell,
}) => {
  const { backup, sites } = knownSourcesBackup(50, 10)
  const keys = sites.map((s) => s.key)
  const hosts = sites.map((s) => new URL(s.baseUrl).host)
  const rowsOn = () =>
    withDb(shell.dataFile, (db) =>
      db
        .prepare(
          `SELECT b.site, b.progress, s.series_url FROM bookmarks b JOIN readers r ON r.id = b.reader_id JOIN series s USING (site, series_id)
           WHERE r.name = 'Aiko' AND b.site IN (${keys.map(() => '?').join(',')})`,
        )
        .all(...keys),
    ) as Array<{ site: string; progress: number | null; series_url: string }>

  await page.getByRole('link', { name: 'Readers' }).click()
  const panel = page.getByRole('region', { name: 'Import' })
  await panel.getByLabel('Import for').selectOption({ label: 'Aiko' })
  await panel
    .getByLabel('File to import')
    .setInputFiles({ name: 'household.tachibk', mimeType: 'application/octet-stream', buffer: tachibk(backup) })
  await panel.getByRole('button', { name: 'Read file' }).click()

  const preview = panel.getByLabel('Import preview')
  await expect(preview).toContainText('household.tachibk — a Mihon/Tachiyomi backup')
  const adding = preview.locator('[data-sites-to-add]')
  await expect(adding).toContainText('Adds 10 Sites:')
  for (const s of sites) await expect(adding).toContainText(`${s.name} (${familyName(s.family!)})`)
  // Every entry resolved: no source to map, nothing skipped.
  await expect(preview.locator('li[data-source]')).toHaveCount(0)
  await expect(preview.locator('li[data-reason]')).toHaveCount(0)
  // Nothing written, no Site pinned (so nothing can be fetched from them) before the confirm.
  expect(existsSync(join(dirname(shell.dataFile), 'sites.json'))).toBe(false)
  expect(rowsOn()).toEqual([])

  await preview.getByRole('button', { name: 'Import 50 bookmarks' }).click()
  await expect(panel.getByRole('status')).toContainText('Imported: 50 bookmarks and 50 Series added')

  const written = JSON.parse(readFileSync(join(dirname(shell.dataFile), 'sites.json'), 'utf8')) as {
    sites: Array<{ key: string; hosts: string[]; family: string }>
  }
  expect(written.sites.map((s) => s.key).sort()).toEqual([...keys].sort())
  expect(written.sites.map((s) => s.hosts[0]).sort()).toEqual([...hosts].sort())
  const rows = rowsOn()
  expect(rows).toHaveLength(50)
  for (const key of keys) expect(rows.filter((r) => r.site === key)).toHaveLength(5)
  expect(rows.every((r) => r.progress !== null && hosts.includes(new URL(r.series_url).host))).toBe(true)
})

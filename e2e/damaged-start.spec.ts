/**
 * A database damaged at its start, in real Chromium against the real headless shell
 * (docs/adr/0115-a-start-that-cannot-write.md): a truncated file and one with a damaged header each start the
 * shell — it used to exit with a bare SQLite message — and the owner's window leads with the cause and the restore;
 * Settings → Backups lists the good backup, and Restore brings the library back while the shell runs.
 */
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { BACKUP_DIR, backupDatabase } from '../src/main/store/backups'
import { openStore, STORE_FILE } from '../src/main/store/database'
import { damageStart, type StartDamage } from '../src/main/testing/damaged-library'
import { expect, test, useShell } from './support/fixtures'

/** A library with the Reader Aiko and a good backup of it, then the file damaged at its start. */
async function damagedLibrary(dataDir: string, how: StartDamage): Promise<void> {
  const store = openStore(join(dataDir, STORE_FILE), { now: Date.now() })
  store.sqlite.prepare("INSERT INTO readers (name, token_hash, created_at) VALUES ('Aiko', 'aiko-hash', 1)").run()
  const insert = store.sqlite.prepare('INSERT INTO settings (key, value) VALUES (?, ?)')
  for (let i = 0; i < 60; i++) insert.run(`filler-${i}`, JSON.stringify('x'.repeat(400)))
  await backupDatabase(store.sqlite, join(dataDir, BACKUP_DIR), Date.now() - 60_000)
  await store.close()
  damageStart(join(dataDir, STORE_FILE), how)
}

async function restoresFromTheWindow(page: Page): Promise<void> {
  const problem = page.getByTestId('storage-problem')
  await expect(problem).toContainText(STORE_FILE)
  await expect(problem).toContainText('the newest is')
  await problem.getByRole('link', { name: 'Restore a backup →' }).click()
  const backups = page.getByRole('table', { name: 'Backups' })
  await expect(backups.locator('tbody tr')).toHaveCount(1)
  const row = backups.locator('tbody tr').first()
  await expect(row).toContainText('sound')
  await row.getByRole('button', { name: 'Restore', exact: true }).click()
  await row.getByRole('button', { name: 'Restore now' }).click()
  await expect(page.getByTestId('restored')).toContainText('Restored ')
  await page.getByRole('link', { name: 'Readers' }).click()
  await expect(page.locator('tr[data-reader="Aiko"]')).toBeVisible()
  await page.getByRole('link', { name: 'Overview' }).click()
  await expect(page.getByTestId('storage-problem')).toHaveCount(0)
}

for (const how of ['truncated', 'header'] as const) {
  test.describe(`a database ${how === 'header' ? 'with a damaged header' : 'truncated'} at start`, () => {
    useShell({ adminToken: `e2e-damaged-${how}-token-0123456789`, prepare: (dir) => damagedLibrary(dir, how) })

    test("the shell starts, the owner's window says why and restores the good backup", async ({ adminPage: page, shell }) => {
      const health = await fetch(`${shell.origin}/api/v1/health`)
      expect(health.status).toBe(503)
      expect(await health.json()).toMatchObject({ ok: false, store: 'damaged' })
      await restoresFromTheWindow(page)
      expect((await fetch(`${shell.origin}/api/v1/health`)).status).toBe(200)
    })
  })
}

/**
 * Settings → Backups → Restore in real Chromium against the real headless shell (docs/adr/0089-restore-in-place.md):
 * a Reader added, a backup made, another Reader added after it; the backup listed as sound and restored while the
 * shell runs — the shell does not exit, the Readers page shows the library as it was at the backup, the later
 * Reader is in the file kept aside, and a new write is taken.
 */
import { existsSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import type { Page } from '@playwright/test'
import { expect, test, useShell } from './support/fixtures'

useShell({ adminToken: 'e2e-restore-token-0123456789' })

async function addReader(page: Page, name: string) {
  await page.getByRole('link', { name: 'Readers' }).click()
  await page.getByLabel('New Reader').fill(name)
  await page.getByRole('button', { name: 'Add Reader' }).click()
  await expect(page.locator('[data-token]')).toBeVisible()
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page.locator(`tr[data-reader="${name}"]`)).toBeVisible()
}

test('Restore puts a sound backup in place while the app runs, and keeps the file it replaced', async ({ adminPage: page }) => {
  await addReader(page, 'Aiko')
  await page.getByRole('link', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Back up now' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Backed up.' })).toBeVisible()
  await addReader(page, 'Later')

  await page.getByRole('link', { name: 'Settings' }).click()
  const backups = page.getByRole('table', { name: 'Backups' })
  await expect(backups.locator('tbody tr')).toHaveCount(1)
  const row = backups.locator('tbody tr').first()
  await expect(row).toContainText('sound')
  await row.getByRole('button', { name: 'Restore', exact: true }).click()
  await row.getByRole('button', { name: 'Restore now' }).click()
  const restored = page.getByTestId('restored')
  await expect(restored).toContainText('Restored ')
  const aside = (await restored.locator('code').textContent())!.split(', ')[0]!
  expect(aside).toMatch(/manga-bookmark\.sqlite\.before-restore-/)
  expect(existsSync(aside)).toBe(true)
  const kept = new BetterSqlite3(aside, { readonly: true })
  expect(kept.prepare('SELECT name FROM readers ORDER BY name').pluck().all()).toEqual(['Aiko', 'Later'])
  kept.close()

  // The same shell answers from the restored file, and takes writes into it.
  await page.getByRole('link', { name: 'Readers' }).click()
  await expect(page.locator('tr[data-reader="Aiko"]')).toBeVisible()
  await expect(page.locator('tr[data-reader="Later"]')).toHaveCount(0)
  await addReader(page, 'After')
  await page.getByRole('link', { name: 'Overview' }).click()
  await expect(page.getByTestId('storage-problem')).toHaveCount(0)
})

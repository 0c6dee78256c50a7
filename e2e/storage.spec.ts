/**
 * Storage in real Chromium against the real headless shell (docs/reliability.md): the owner presses "Back up
 * now" in Settings and sees the backup; the database file is deleted under the running app, and the Overview
 * says so within seconds — with no write needed to find out.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, useShell } from './support/fixtures'

useShell({ adminToken: 'e2e-storage-token-0123456789' })

test('Settings → Back up now makes a backup in the backups folder and shows it', async ({ adminPage: page, shell }) => {
  await page.getByRole('link', { name: 'Settings' }).click()
  await expect(page.getByTestId('last-backup')).toHaveText('No backup yet.')
  await page.getByRole('button', { name: 'Back up now' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Backed up.' })).toBeVisible()
  const backups = readdirSync(join(shell.dataDir, 'backups'))
  expect(backups).toHaveLength(1)
  await expect(page.getByTestId('last-backup')).toContainText(join(shell.dataDir, 'backups', backups[0]!))
})

test('the database deleted under the running app: the Overview says it cannot write to the file', async ({ adminPage: page, shell }) => {
  await expect(page.getByTestId('storage-problem')).toHaveCount(0)
  rmSync(shell.dataFile)
  expect(existsSync(shell.dataFile)).toBe(false)
  // The Overview refreshes itself; the app looks at its file every few seconds.
  await expect(page.getByTestId('storage-problem')).toContainText(
    `cannot write to ${shell.dataFile}: the file was deleted while the app ran`,
    {
      timeout: 15_000,
    },
  )
})

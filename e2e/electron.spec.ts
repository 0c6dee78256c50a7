/**
 * The Electron shell, end to end, with Playwright's Electron driver: launch, the tray exists, the window
 * opens, Check now works through IPC, and quit leaves no process. It runs wherever the Electron binary and the
 * Electron build of better-sqlite3 are installed (`npm run rebuild:electron`), and is skipped, saying why,
 * where they are not — as on the machines this project is built on, which cannot download Electron.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { _electron as electron, expect, test } from '@playwright/test'
import { electronBinaryPath } from '../scripts/electron-binary'
import { withDb } from './support/db'
import { tempData } from './support/shell'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const binary = electronBinaryPath(root)
const native = join(root, 'native/electron/better_sqlite3.node')
const missing = !binary
  ? 'the Electron binary is not installed here (it cannot be downloaded on this machine)'
  : !existsSync(native)
    ? 'the Electron build of better-sqlite3 is missing: run `npm run rebuild:electron` on a machine with network'
    : ''

if (missing) console.log(`electron.spec: skipped — ${missing}`)

test.describe('the Electron shell', () => {
  test.skip(Boolean(missing), missing)

  test('launches with a tray and a window; Check now works through IPC; quit leaves no process', async () => {
    const data = tempData()
    const app = await electron.launch({
      executablePath: binary!,
      args: [root, '--data', data.dir, '--port', '0'],
      env: { ...process.env, MB_E2E: '1' },
    })
    try {
      const window = await app.firstWindow()
      await expect(window.getByRole('heading', { name: 'Overview' })).toBeVisible()
      const tooltip = await app.evaluate(() =>
        (globalThis as unknown as { mangaBookmarkE2E: { tray: { getToolTip(): string } } }).mangaBookmarkE2E.tray.getToolTip(),
      )
      expect(tooltip).toMatch(/^Manga Bookmark — /)
      // The window is sandboxed and isolated, with no Node.
      expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined')
      // Its session grants no permission: asked (the camera) or checked (notifications, geolocation).
      expect(
        await window.evaluate(() =>
          navigator.mediaDevices.getUserMedia({ video: true }).then(
            () => 'granted',
            (error: Error) => error.name,
          ),
        ),
      ).toBe('NotAllowedError')
      expect(await window.evaluate(() => Notification.permission)).toBe('denied')
      expect(await window.evaluate(async () => (await navigator.permissions.query({ name: 'geolocation' })).state)).toBe('denied')

      const file = join(data.dir, 'manga-bookmark.sqlite')
      withDb(file, (db) => {
        db.prepare("INSERT INTO readers (name, token_hash, created_at) VALUES ('Aiko', 'h', 1)").run()
        db.prepare(
          "INSERT INTO series (site, series_id, title, series_url, latest_checked_at, created_at) VALUES ('mangadex', 'ipc', 'Through IPC', 'https://mangadex.org/title/00000000-0000-4000-8000-000000000001', ?, 1)",
        ).run(Date.now() - 60_000)
        db.prepare(
          "INSERT INTO bookmarks (reader_id, site, series_id, created_at, updated_at) SELECT id, 'mangadex', 'ipc', 1, 1 FROM readers",
        ).run()
      })
      await window.evaluate(() => (location.hash = '#/series'))
      const row = window.locator('[role="row"][data-series="mangadex/ipc"]')
      await row.getByRole('button', { name: 'Check now' }).click()
      await expect(row.locator('.pending')).toBeVisible()
      expect(
        withDb(
          file,
          (db) => (db.prepare("SELECT force_poll_at FROM series WHERE series_id = 'ipc'").get() as { force_poll_at: number }).force_poll_at,
        ),
      ).toBeGreaterThan(0)

      const pid = app.process().pid!
      await app.close()
      expect(() => process.kill(pid, 0)).toThrow()
    } finally {
      await app.close().catch(() => undefined)
      data.remove()
    }
  })
})

/**
 * "Notify me on this device" in real Chromium against the real headless shell. Headless Chromium has no push
 * service, so the page's PushManager is stubbed to hand out a subscription whose endpoint is a push service of
 * this test's on loopback (its keys made here, as a browser makes them); everything after — the PUT, the stored
 * channel, the test message signed with the install's VAPID key and encrypted (aes128gcm) — is the app's.
 */
import { createRequire } from 'node:module'
import { withDb } from './support/db'
import { expect, test, useShell } from './support/fixtures'
import { signInAdmin } from './support/pages'
import { startReceiver, subscriptionKeys, type Receiver } from '../src/main/testing/receivers'

const ece = createRequire(import.meta.url)('http_ece') as { decrypt(body: Buffer, params: object): Buffer }

let push: Receiver

useShell({
  args: ['--demo'],
  // The owner allows local-network targets (the stub push service is on loopback).
  started: (shell) => {
    withDb(shell.dataFile, (db) =>
      db
        .prepare(
          "INSERT INTO settings (key, value) VALUES ('notifyTargets', '\"local-network\"') ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        )
        .run(),
    )
  },
})

test.beforeAll(async () => {
  push = await startReceiver('/push/e2e-device')
})
test.afterAll(async () => {
  await push?.close()
})

test('a Reader turns on notifications for this device and receives an encrypted test push', async ({ page, context, shell }) => {
  const keys = subscriptionKeys()
  await context.grantPermissions(['notifications'], { origin: shell.origin })
  await page.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      let current: PushSubscription | null = null
      const make = () =>
        ({
          endpoint,
          toJSON: () => ({ endpoint, keys: { p256dh, auth } }),
          unsubscribe: async () => ((current = null), true),
        }) as unknown as PushSubscription
      PushManager.prototype.subscribe = async function () {
        current = make()
        return current
      }
      PushManager.prototype.getSubscription = async function () {
        return current
      }
    },
    { endpoint: push.url, p256dh: keys.p256dh, auth: keys.auth },
  )
  await page.goto(shell.origin)
  await page.getByLabel('Your Reader token').fill(shell.tokens.Ben!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByText('Notifications', { exact: true }).click()
  await expect(page.getByTestId('push-unavailable')).toHaveCount(0)
  await page.getByRole('button', { name: 'Notify me on this device' }).click()
  await expect(page.getByText('This device is notified.')).toBeVisible()
  await expect(page.getByTestId('reader-channel')).toContainText('Push to a device')
  const stored = withDb(shell.dataFile, (db) =>
    db.prepare("SELECT c.kind, c.target FROM notify_channels c JOIN readers r ON r.id = c.reader_id WHERE r.name = 'Ben'").all(),
  )
  expect(stored).toEqual([{ kind: 'webpush', target: push.url }])

  await page.getByRole('button', { name: 'Send a test message' }).click()
  await expect(page.getByTestId('test-results')).toContainText('Push to a device: sent')
  expect(push.requests).toHaveLength(1)
  const request = push.requests[0]!
  expect(request.headers['content-encoding']).toBe('aes128gcm')
  expect(request.headers.authorization).toMatch(/^vapid t=.+, k=/)
  const payload = JSON.parse(ece.decrypt(request.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth }).toString())
  expect(payload).toMatchObject({ title: 'Manga Bookmark test message — Ch 1', body: 'Test', tag: 'mb-series:test/test' })

  await page.getByRole('button', { name: 'Stop on this device' }).click()
  await expect(page.getByRole('button', { name: 'Notify me on this device' })).toBeVisible()
  expect(withDb(shell.dataFile, (db) => db.prepare('SELECT COUNT(*) AS n FROM notify_channels').get())).toEqual({ n: 0 })
})

test('Upcoming lists a Series the rhythm expects tomorrow, and a Series can be muted', async ({ page, shell }) => {
  const tomorrow = new Date(Date.now() + 86_400_000)
  tomorrow.setHours(15, 0, 0, 0)
  const window = { at: tomorrow.getTime(), halfWidthMs: 3_600_000, timeKnown: true }
  const rhythm = { kind: 'periodic', periodMs: 7 * 86_400_000, offsetMs: 0, spreadMs: 600_000, timeKnown: true }
  const series = withDb(shell.dataFile, (db) => {
    const row = db
      .prepare(
        "SELECT b.site, b.series_id, s.title FROM bookmarks b JOIN readers r ON r.id = b.reader_id JOIN series s USING (site, series_id) WHERE r.name = 'Ben' ORDER BY s.title LIMIT 1",
      )
      .get() as { site: string; series_id: string; title: string }
    db.prepare('UPDATE series SET rhythm = ? WHERE site = ? AND series_id = ?').run(
      JSON.stringify({ rhythm, hits: 2, window }),
      row.site,
      row.series_id,
    )
    return row
  })
  await page.goto(shell.origin)
  await page.getByLabel('Your Reader token').fill(shell.tokens.Ben!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const upcoming = page.getByTestId('upcoming')
  await expect(upcoming).toContainText('(1 this week)')
  await upcoming.locator('summary').click()
  await expect(upcoming.getByRole('region', { name: 'tomorrow' })).toContainText(`~15:00${series.title}`)

  await page.getByText('Notifications', { exact: true }).click()
  await page.getByLabel('Never tell me of').selectOption(`${series.site}/${series.series_id}`)
  await page.getByRole('button', { name: 'Mute', exact: true }).click()
  await expect(page.getByRole('list', { name: 'Muted Series' })).toContainText(series.title)
  const muted = withDb(shell.dataFile, (db) =>
    db.prepare("SELECT p.muted FROM notify_prefs p JOIN readers r ON r.id = p.reader_id WHERE r.name = 'Ben'").get(),
  ) as { muted: string }
  expect(JSON.parse(muted.muted)).toEqual([[series.site, series.series_id]])
})

test("the owner adds a webhook for the whole library in Settings, sends a test, and sees a failing Reader's channel", async ({
  page,
  shell,
}) => {
  const owner = await startReceiver('/owner-hook')
  try {
    withDb(shell.dataFile, (db) => {
      const reader = db.prepare("SELECT id FROM readers WHERE name = 'Ben'").get() as { id: number }
      db.prepare(
        "INSERT INTO notify_channels (reader_id, kind, target, secret, failures, last_error, created_at) VALUES (?, 'ntfy', 'https://ntfy.example/ben', '', 3, 'HTTP 500', 1)",
      ).run(reader.id)
    })
    const origin = await signInAdmin(page, shell)
    await page.goto(`${origin}/admin/#/settings`)
    await expect(page.getByTestId('failing-channel')).toContainText('Ben — ntfy: HTTP 500 (3 tries in a row)')
    await page.getByLabel('Kind').selectOption('webhook')
    await page.getByLabel('URL').fill(owner.url)
    await page.getByLabel('Signing secret (16+ characters)').fill('owner-secret-0123456')
    await page.getByRole('button', { name: 'Add channel' }).click()
    await expect(page.getByTestId('owner-channel')).toContainText(owner.url)
    await page.getByRole('button', { name: 'Send a test message' }).click()
    await expect(page.getByText('webhook: sent')).toBeVisible()
    expect(JSON.parse(owner.requests[0]!.body.toString())).toMatchObject({
      reader: null,
      newChapters: [{ title: 'Manga Bookmark test message' }],
    })
  } finally {
    await owner.close()
  }
})

/**
 * The whole journey of a person, as one script, in real Chromium against the real headless shell: from a first
 * start with nothing in it to a Reader's phone receiving a push for the chapter they will open next.
 *
 * The owner opens the admin URL, allows notification targets on the local network (the push service of this
 * test is on loopback), adds a Reader and lets phones in from the token screen. The Reader's phone (390 px) opens
 * the link the QR code carries (on loopback: the LAN address is only decoded, never sent to), bookmarks a Series
 * by URL, which starts caught up, and turns on "Notify me on this device". The Site publishes a chapter; the owner
 * presses Check now; the phone's push service receives one encrypted message (aes128gcm) whose link is that
 * chapter; and the page's Continue opens the very same chapter. Headless Chromium has no push service, so only
 * the page's PushManager is stubbed (as in notifications.spec.ts); everything after it is the app's.
 */
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { startFixtureSite, type FixtureSite } from '../src/main/demo/fixture-site'
import { startReceiver, subscriptionKeys, type Receiver } from '../src/main/testing/receivers'
import { withDb } from './support/db'
import { expect, test, useShell } from './support/fixtures'
import { decodeQr } from './support/pages'
import type { RunningShell } from './support/shell'

const ece = createRequire(import.meta.url)('http_ece') as { decrypt(body: Buffer, params: object): Buffer }

const SERIES = '/madara/manga/wolf/'
const PHONE = { width: 390, height: 844 }
/** A pace fast enough to watch (the demo's): a Check now is served within seconds, not after a five-minute gap. */
const WATCHABLE = { restMs: 60_000, minGapMs: 3_000, maxGapMs: 20_000, idleRequeryMs: 5_000 }

let fixture: FixtureSite
let push: Receiver

// The fixture site starts in beforeAll, before the test's shell fixture: its host goes into sites.json.
useShell({
  prepare: (dir) =>
    writeFileSync(
      join(dir, 'sites.json'),
      JSON.stringify({
        sites: [
          {
            key: 'loopback',
            name: 'Loopback Scans',
            hosts: [fixture.host],
            family: 'madara',
            idPattern: '^/madara/manga/([^/]+)',
            pace: WATCHABLE,
          },
        ],
      }),
    ),
})

test.beforeAll(async () => {
  fixture = await startFixtureSite()
  push = await startReceiver('/push/dana-phone')
})
test.afterAll(async () => {
  await push?.close()
  await fixture?.close()
})

const lanAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && i.family === 'IPv4' && !i.internal)
    .map((i) => i!.address)

const latestOf = (shell: RunningShell, seriesId: string) =>
  (
    withDb(shell.dataFile, (db) => db.prepare('SELECT latest_chapter FROM series WHERE series_id = ?').get(seriesId)) as
      { latest_chapter: number | null } | undefined
  )?.latest_chapter ?? null

/** The phone's browser has no push service here: its PushManager hands out a subscription to this test's one. */
async function stubPushManager(phone: Page, keys: { p256dh: string; auth: string }): Promise<void> {
  await phone.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      let current: PushSubscription | null = null
      PushManager.prototype.subscribe = async function () {
        current = {
          endpoint,
          toJSON: () => ({ endpoint, keys: { p256dh, auth } }),
          unsubscribe: async () => ((current = null), true),
        } as unknown as PushSubscription
        return current
      }
      PushManager.prototype.getSubscription = async function () {
        return current
      }
    },
    { endpoint: push.url, ...keys },
  )
}

test('from npm start to a push on the phone that opens the chapter the Reader reads next', async ({ page, browser, shell }) => {
  test.setTimeout(240_000)
  // The owner: the admin URL from the terminal opens the window, which says what to do first.
  await page.goto(shell.adminUrl!)
  await expect(page.locator('[data-checklist]').getByRole('heading', { name: 'Getting started' })).toBeVisible()

  // Settings: the household's push service lives at home, so the local network may be told.
  await page.getByRole('link', { name: 'Settings' }).first().click()
  await page.getByLabel(/The local network too \(a hub or ntfy server/).check()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Saved and applied.')).toBeVisible()

  // A Reader, and phones let in from the token screen: the QR code carries this machine's LAN address.
  await page.goto(`${shell.adminOrigin}/admin/#/readers`)
  await page.getByLabel('New Reader').fill('Dana')
  await page.getByRole('button', { name: 'Add Reader' }).click()
  const token = (await page.locator('[data-token]').textContent())!.trim()
  await page.getByRole('button', { name: 'Let phones on this network in' }).click()
  await expect(page.locator('[data-qr]')).toBeVisible()
  const scanned = new URL((await decodeQr(page))!)
  expect(lanAddresses()).toContain(scanned.hostname)
  // A one-time sign-in code, not the token (docs/adr/0087-sign-in-links-that-end.md).
  expect(scanned.hash).toMatch(/^#code=[A-Za-z0-9_-]{43}$/)
  expect(scanned.href).not.toContain(token)

  // Dana's phone opens what the code says (here on loopback, the same port), signed in with the code gone from the address.
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true })
  const origin = `http://127.0.0.1:${scanned.port}`
  await context.grantPermissions(['notifications'], { origin })
  const phone = await context.newPage()
  const keys = subscriptionKeys()
  await stubPushManager(phone, keys)
  await phone.goto(`${origin}/${scanned.hash}`)
  await expect(phone.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
  expect(phone.url()).not.toContain(scanned.hash.slice('#code='.length))
  await expect.poll(() => phone.evaluate(() => localStorage.getItem('mb.token'))).toBe(token)

  // A bookmark by URL: read at once, and caught up — nothing unread, nothing to continue yet.
  await phone.getByLabel('Series URL').fill(`${fixture.origin}${SERIES}`)
  await phone.getByRole('button', { name: 'Add', exact: true }).click()
  const card = phone.locator('li.card').first()
  await expect(card).toBeVisible()
  await expect.poll(() => latestOf(shell, 'wolf'), { timeout: 45_000 }).not.toBeNull()
  const caughtUp = latestOf(shell, 'wolf')!
  await expect(async () => {
    await phone.reload()
    await expect(card).toContainText(`Latest ${caughtUp}`, { timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
  await expect(card.locator('[data-continue]')).toHaveCount(0)

  // Notify me on this device.
  await phone.getByText('Notifications', { exact: true }).click()
  await phone.getByRole('button', { name: 'Notify me on this device' }).click()
  await expect(phone.getByText('This device is notified.')).toBeVisible()

  // The Site publishes the next chapter; the owner asks for a check now.
  const published = (await (
    await fetch(`${fixture.origin}/control/publish`, { method: 'POST', body: JSON.stringify({ path: SERIES }) })
  ).json()) as { latest: number }
  expect(published.latest).toBe(caughtUp + 1)
  await page.goto(`${shell.adminOrigin}/admin/#/series?q=wolf`)
  await page.locator('[role="row"][data-series="loopback/wolf"]').getByRole('button', { name: 'Check now' }).click()

  // The phone buzzes: one encrypted message, naming the Series and the chapter, linking the chapter itself.
  await expect.poll(() => push.requests.length, { timeout: 60_000 }).toBe(1)
  const request = push.requests[0]!
  expect(request.headers['content-encoding']).toBe('aes128gcm')
  const message = JSON.parse(
    ece.decrypt(request.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth }).toString(),
  ) as {
    title: string
    body: string
    url: string
  }
  // The Series and its chapter in the title, read at a glance; the body does not say them again.
  expect(message.title).toMatch(new RegExp(`^.+ — Ch ${published.latest}$`))
  expect(message.body).not.toContain(String(published.latest))
  const chapterUrl = new URL(message.url)
  expect(chapterUrl.origin).toBe(fixture.origin)
  expect(chapterUrl.pathname.startsWith(SERIES)).toBe(true)
  expect(chapterUrl.pathname).not.toBe(SERIES)

  // The page agrees: one unread, and Continue opens that same chapter.
  const cont = card.locator('[data-continue]')
  await expect(async () => {
    await phone.reload()
    await expect(cont).toHaveText(`Continue · Ch ${published.latest}`, { timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
  await expect(card.locator('.badge')).toHaveText('1 unread')
  await expect(cont).toHaveAttribute('href', message.url)
  const opened = context.waitForEvent('page')
  await cont.tap()
  const chapter = await opened
  await chapter.waitForLoadState()
  expect(chapter.url()).toBe(message.url)

  // And only once: a second check with nothing new sends nothing more.
  const checkedAt = () =>
    (
      withDb(shell.dataFile, (db) => db.prepare("SELECT latest_checked_at AS at FROM series WHERE series_id = 'wolf'").get()) as {
        at: number
      }
    ).at
  const before = checkedAt()
  await page.reload()
  await page.locator('[role="row"][data-series="loopback/wolf"]').getByRole('button', { name: 'Check now' }).click()
  await expect.poll(checkedAt, { timeout: 60_000 }).toBeGreaterThan(before)
  await expect
    .poll(() => withDb(shell.dataFile, (db) => db.prepare('SELECT COUNT(*) AS n FROM notify_outbox').get()), { timeout: 30_000 })
    .toEqual({ n: 0 })
  expect(push.requests).toHaveLength(1)
  await context.close()
})

/**
 * A phone on a plain-http address, where Web Push cannot work (issue #38), in real Chromium against the real
 * headless shell: the Readers' page is opened as `http://phone.test:PORT` (the name mapped to loopback, so the
 * origin is insecure as a LAN address is), and leads to ntfy in one step — a topic made for the Reader on the
 * owner's ntfy server, an app link and a QR code — and a test message reaches that server (a receiver on
 * loopback). Every refusal met on the way is a sentence beside its field.
 */
import { chromiumArgs } from '../src/main/fetch/browser/chromium-flags'
import { startReceiver, type Receiver } from '../src/main/testing/receivers'
import { withDb } from './support/db'
import { expect, test, useShell } from './support/fixtures'
import { decodeQr, signInAdmin } from './support/pages'

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
test.use({
  launchOptions: {
    executablePath,
    args: [...chromiumArgs(process.getuid?.() === 0), '--host-resolver-rules=MAP phone.test 127.0.0.1'],
  },
})
useShell({ args: ['--demo'] })
test.describe.configure({ mode: 'serial' })

let ntfy: Receiver
test.beforeAll(async () => {
  ntfy = await startReceiver('')
})
test.afterAll(async () => {
  await ntfy?.close()
})

/** The Readers' page as a phone on the network opens it: a plain-http name, not loopback. */
const phoneOrigin = (origin: string) => origin.replace('127.0.0.1', 'phone.test')
const setting = (dataFile: string, key: string) =>
  withDb(dataFile, (db) => db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined)?.value

test("a LAN target is refused beside the Reader's URL field, in a sentence", async ({ page, shell }) => {
  await page.goto(phoneOrigin(shell.origin))
  expect(await page.evaluate(() => window.isSecureContext)).toBe(false)
  await page.getByLabel('Your Reader token').fill(shell.tokens.Ben!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByText('Notifications', { exact: true }).click()
  const panel = page.getByTestId('notify-panel')
  await panel.getByLabel('URL', { exact: true }).fill('http://192.168.1.50/topic')
  await panel.getByRole('button', { name: 'Add', exact: true }).click()
  const refusal = page.locator('[data-problem="add"]')
  await expect(refusal).toHaveText(
    '192.168.1.50 is an address on your local network, not a public one. Only public addresses are allowed: the owner can allow the local network in Settings → Notification targets.',
  )
  // Beside the field it is about: right after the URL field, before the form's button.
  const after = await panel.getByLabel('URL', { exact: true }).evaluate(
    (input, problem) => {
      const label = input.closest('label')!
      return label.nextElementSibling === problem
    },
    await refusal.elementHandle(),
  )
  expect(after).toBe(true)
})

test('the owner chooses the ntfy server: a bad one is refused beside its field, a good one saved', async ({ page, shell }) => {
  const origin = await signInAdmin(page, shell)
  await page.goto(`${origin}/admin/#/settings`)
  await page.getByLabel('ntfy server for phones').fill('https://ntfy.sh/?topic=x')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.locator('[data-problem="ntfyServer"]')).toHaveText(
    'The ntfy server must be a web address such as https://ntfy.sh, with nothing after the name but a path.',
  )
  await expect(page.getByText('Saved and applied.')).toHaveCount(0)
  await page.getByLabel('Contact for push services').fill('not an address')
  await page.getByLabel('ntfy server for phones').fill(ntfy.url)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.locator('[data-problem="ownerContact"]')).toHaveText(
    'A contact is an e-mail address (you@example.com) or an https address.',
  )
  await page.getByLabel('Contact for push services').fill('owner@home.example')
  await page.getByLabel(/The local network too \(a hub or ntfy server/).check()
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Saved and applied.')).toBeVisible()
  expect(setting(shell.dataFile, 'ntfyServer')).toBe(JSON.stringify(ntfy.url))
})

test('a Reader on plain http is led to ntfy in one step, and a message reaches the ntfy server', async ({ page, shell }) => {
  await page.goto(phoneOrigin(shell.origin))
  await page.getByLabel('Your Reader token').fill(shell.tokens.Ben!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByText('Notifications', { exact: true }).click()
  await expect(page.getByTestId('push-unavailable')).toContainText('is plain http')
  await expect(page.getByRole('button', { name: 'Notify me on this device' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Set up ntfy for me' }).click()

  const link = page.getByTestId('ntfy-app-link')
  const host = new URL(ntfy.url).host
  await expect(link).toHaveAttribute('href', new RegExp(`^ntfy://${host.replace(/\./g, '\\.')}/mb-[a-z2-7]{26}\\?secure=false$`))
  const appLink = (await link.getAttribute('href'))!
  const topic = /\/(mb-[a-z2-7]{26})/.exec(appLink)![1]!
  // The QR code opens the same: what the phone's camera reads.
  expect(await decodeQr(page)).toBe(appLink)
  const stored = withDb(shell.dataFile, (db) =>
    db.prepare("SELECT c.kind, c.target FROM notify_channels c JOIN readers r ON r.id = c.reader_id WHERE r.name = 'Ben'").all(),
  )
  expect(stored).toEqual([{ kind: 'ntfy', target: `${ntfy.url}/${topic}` }])

  await page.getByRole('button', { name: 'Send a test message' }).click()
  await expect(page.getByTestId('test-results')).toContainText('ntfy: sent')
  expect(ntfy.requests.map((r) => r.path)).toEqual([`/${topic}`])
  // ntfy reads a title that is not ASCII as an RFC 2047 encoded word.
  const title = /^=\?UTF-8\?B\?(.+)\?=$/.exec(String(ntfy.requests[0]!.headers.title))![1]!
  expect(Buffer.from(title, 'base64').toString('utf8')).toBe('Manga Bookmark test message — Ch 1')
  expect(ntfy.requests[0]!.body.toString()).toBe('Test')
})

test('switching back to public addresses only names the channels it stops, and asks first', async ({ page, shell }) => {
  const origin = await signInAdmin(page, shell)
  await page.goto(`${origin}/admin/#/settings`)
  await page.getByLabel('Public addresses only').check()
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  const ask = page.getByTestId('targets-confirm')
  await expect(ask).toContainText('Public addresses only stops this channel')
  await expect(ask).toContainText(`Ben — ntfy ${ntfy.url}/mb-`)
  await expect(ask).toContainText("this computer's own address")
  await ask.getByRole('button', { name: 'Cancel' }).click()
  expect(setting(shell.dataFile, 'notifyTargets')).toBe('"local-network"')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await page.getByRole('button', { name: 'Switch and stop them' }).click()
  await expect(page.getByText('Saved and applied.')).toBeVisible()
  expect(setting(shell.dataFile, 'notifyTargets')).toBe('"public"')

  // The owner's own channel on the LAN: refused beside its URL field, telling the owner what to change.
  await page.getByLabel('URL', { exact: true }).fill('http://192.168.1.50/owner')
  await page.getByLabel('Signing secret (16+ characters)').or(page.getByLabel('Access token (optional)')).fill('owner-secret-0123456')
  await page.getByRole('button', { name: 'Add channel' }).click()
  await expect(page.locator('[data-problem="owner-channel"]')).toHaveText(
    '192.168.1.50 is an address on your local network, not a public one. Only public addresses are allowed now: choose "The local network too" under Notification targets above, and save.',
  )
  await expect(page.getByRole('alert').filter({ hasText: 'channels.0' })).toHaveCount(0)
})

test("a push service's refusal is said as the browser's, not as the app out of reach", async ({ page, context, shell }) => {
  await context.grantPermissions(['notifications'], { origin: shell.origin })
  await page.addInitScript(() => {
    PushManager.prototype.subscribe = async () => {
      throw new DOMException('Registration failed - permission denied', 'NotAllowedError')
    }
    PushManager.prototype.getSubscription = async () => null
  })
  await page.goto(shell.origin)
  await page.getByLabel('Your Reader token').fill(shell.tokens.Aiko!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByText('Notifications', { exact: true }).click()
  await page.getByRole('button', { name: 'Notify me on this device' }).click()
  const problem = page.locator('[data-problem="device"]')
  await expect(problem).toHaveText(
    "This browser's push service refused to subscribe this device (Registration failed - permission denied). The ntfy app below works instead.",
  )
  await expect(problem).not.toContainText('could not reach the app')
})

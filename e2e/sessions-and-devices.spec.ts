/**
 * Staying in (issue 38): the owner closes the browser and opens it again, and is still signed in — the session is a
 * persistent cookie, not a browser-session one; a spent sign-in link says how to get a new one, and `npm run
 * admin-link` gets one from the running app, no restart. Devices, not tokens: a Reader adds a second device (the
 * owner's Add a device, a one-time QR code) without ending the first, sees both, and ends it later; rotating the
 * token asks first and says what it ends. Real Chromium (a persistent profile closed and reopened), the real
 * headless shell, the real command.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, useShell } from './support/fixtures'
import { decodeQr, signInAdmin } from './support/pages'
import { chromiumArgs } from '../src/main/fetch/browser/chromium-flags'

/** The Chromium the tests run (playwright.config.ts): the system's. */
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined)

useShell({})

/** `npm run admin-link -- --data DIR`, as a person runs it: its output and exit code. */
function adminLink(dataDir: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli/admin-link-main.ts', '--data', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (out += c.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, out }))
  })
}

test('the owner stays signed in across closing the browser, and gets a new sign-in link from the running app', async ({
  playwright,
  browser,
  shell,
}) => {
  const profile = mkdtempSync(join(tmpdir(), 'mb-e2e-profile-'))
  // A browser with a profile on disk, closed and opened again: what it keeps is what a person's browser keeps.
  const launch = () =>
    playwright.chromium.launchPersistentContext(profile, {
      headless: true,
      args: chromiumArgs(process.getuid?.() === 0),
      ...(executablePath ? { executablePath } : {}),
    })
  try {
    let owner = await launch()
    let page = owner.pages()[0] ?? (await owner.newPage())
    await page.goto(shell.signInUrl!)
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
    const [cookie] = (await owner.cookies()).filter((c) => c.name === `mb_admin_${shell.adminPort}`)
    // Persistent: an expiry about 30 days ahead (a browser-session cookie has none, -1).
    expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + 29 * 24 * 3_600_000)
    await owner.close()

    // The browser opened again, on the same profile: the window, signed in, without a link.
    owner = await launch()
    page = owner.pages()[0] ?? (await owner.newPage())
    await page.goto(`${shell.adminOrigin}/admin/#/readers`)
    await page.getByLabel('New Reader').fill('Hana')
    await page.getByRole('button', { name: 'Add Reader' }).click()
    await expect(page.locator('[data-token]')).toBeVisible()
    await owner.close()
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }

  // The printed link, spent: the page says how to get a new one, and no restart.
  const other = await browser.newContext()
  const spent = await other.newPage()
  expect((await spent.goto(shell.signInUrl!))!.status()).toBe(401)
  await expect(spent.getByRole('heading', { level: 1 })).toHaveText('This sign-in link was already used or has expired')
  await expect(spent.locator('body')).toContainText('npm run admin-link')
  await expect(spent.locator('body')).not.toContainText('Restart')

  // A new link from the running app, through the command; it signs in once.
  const { code, out } = await adminLink(shell.dataDir)
  expect(code, out).toBe(0)
  const link = /sign in: (http:\/\/127\.0\.0\.1:\d+\/admin\/\?code=[A-Za-z0-9_-]{43})/.exec(out)?.[1]
  expect(link, out).toBeDefined()
  expect(new URL(link!).port).toBe(String(shell.adminPort))
  await spent.goto(link!)
  await expect(spent.getByRole('heading', { name: 'Overview' })).toBeVisible()
  await other.close()
})

test('a Reader adds a second device without ending the first, sees both, and ends it later', async ({ page, browser, shell }) => {
  const origin = await signInAdmin(page, shell)
  await page.goto(`${origin}/admin/#/readers`)
  await page.getByLabel('New Reader').fill('Gen')
  await page.getByRole('button', { name: 'Add Reader' }).click()
  const token = (await page.locator('[data-token]').textContent())!.trim()
  await page.getByRole('button', { name: 'Done' }).click()

  // The first device: signed in with the token.
  const phone = await browser.newPage({ viewport: { width: 390, height: 800 } })
  await phone.goto(`${shell.origin}/`)
  await phone.getByLabel('Your Reader token').fill(token)
  await phone.getByRole('button', { name: 'Sign in' }).click()
  await expect(phone.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()

  // Add a device: a one-time QR sign-in of its own, which says the other devices stay signed in.
  const row = page.locator('[data-reader="Gen"]')
  await row.getByRole('button', { name: 'Add a device' }).click()
  await expect(page.locator('#token-title')).toContainText('Sign-in for a new device of Gen (Device 2)')
  await expect(page.locator('[data-issued]')).toContainText('Their other devices stay signed in.')
  await page.getByRole('button', { name: 'Let phones on this network in' }).click()
  await expect(page.locator('[data-qr]')).toBeVisible()
  const decoded = (await decodeQr(page))!
  expect(decoded).toMatch(/#code=[A-Za-z0-9_-]{43}$/)
  const tablet = await browser.newPage({ viewport: { width: 800, height: 900 } })
  await tablet.goto(`${shell.origin}/${new URL(decoded).hash}`)
  await expect(tablet.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
  expect(await tablet.evaluate(() => localStorage.getItem('mb.token'))).not.toBe(token)

  // The first device is still signed in, and both devices are listed, on the Reader's page and the owner's.
  await phone.reload()
  await expect(phone.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
  const devices = phone.locator('[data-devices]')
  await expect(devices.locator('[data-device="First device"]')).toContainText('(this device)')
  await expect(devices.locator('[data-device="Device 2"]')).toContainText('last seen')
  await page.reload()
  await expect(row.locator('[data-device]')).toHaveCount(2)
  await expect(row.locator('[data-device="First device"]')).toContainText('last seen')

  // Rotating asks first and says what it ends; cancelled, nothing changes.
  await row.getByRole('button', { name: 'Rotate token' }).click()
  await expect(row.getByRole('alertdialog')).toContainText('signs out all 2 of their devices')
  await row.getByRole('button', { name: 'Cancel' }).click()

  // The Reader ends the second device from the first: the tablet is signed out, the phone stays in.
  await devices.locator('[data-device="Device 2"]').getByRole('button', { name: 'End' }).click()
  await devices.getByRole('button', { name: 'Yes, end it' }).click()
  await expect(devices.locator('[data-device]')).toHaveCount(1)
  await tablet.reload()
  await expect(tablet.getByLabel('Your Reader token')).toBeVisible()
  await phone.reload()
  await expect(phone.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
  await page.reload()
  await expect(row.locator('[data-device]')).toHaveCount(1)
  await phone.close()
  await tablet.close()
})

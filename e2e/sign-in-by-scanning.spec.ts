/**
 * A new token comes with the address the Reader opens and a QR code of the address with a one-time sign-in code
 * (issue #16; the code instead of the token: issue #29, docs/adr/0087): the QR code, read back from the pixels the
 * browser draws, is the sign-in link, and opening it signs the Reader in on the Readers' page, once. While the app
 * answers on this computer only, the code is replaced by one button that lets the local network in, at once
 * (issue #27). Real Chromium, the real headless shell; jsQR decodes as a phone's camera would. The LAN address is only decoded: the phone opens the same link on loopback.
 */
import { expect, test, useShell } from './support/fixtures'
import { decodeQr, historyAddresses, signInAdmin } from './support/pages'

useShell({ args: ['--demo'] })

test('the QR code of a new token is the address with a one-time code, and opening it signs the Reader in, once', async ({
  page,
  browser,
  shell,
}) => {
  const origin = await signInAdmin(page, shell)
  await page.goto(`${origin}/admin/#/readers`)
  await page.getByLabel('New Reader').fill('Fumi')
  await page.getByRole('button', { name: 'Add Reader' }).click()
  const token = (await page.locator('[data-token]').textContent())!.trim()
  await expect(page.locator('[data-address]')).toHaveText(`${shell.origin}/`)
  // This endpoint listens on loopback only: no code a phone could not open, but one button that changes that.
  await expect(page.locator('[data-qr]')).toHaveCount(0)
  await expect(page.locator('[data-loopback-only]')).toContainText('A phone cannot open this address yet')
  await page.getByRole('button', { name: 'Let phones on this network in' }).click()
  await expect(page.locator('[data-qr]')).toBeVisible()
  const lanUrl = (await page.locator('[data-address]').textContent())!.trim()
  expect(new URL(lanUrl).port).toBe(String(shell.port))
  expect(new URL(lanUrl).hostname).not.toMatch(/^(127\.|localhost$|0\.0\.0\.0$)/)

  // The code as drawn, read back from its pixels: the address and a one-time code, not the token.
  const decoded = (await decodeQr(page))!
  expect(decoded).toMatch(new RegExp(`^${lanUrl.replace(/[.]/g, '\\.')}#code=[A-Za-z0-9_-]{43}$`))
  expect(decoded).not.toContain(token)
  const code = new URL(decoded).hash.slice('#code='.length)

  // A phone opens what it scanned (here by loopback, the same listener): signed in as Fumi, keeping the token;
  // the code is gone from the address and from the tab's history.
  const phone = await browser.newPage({ viewport: { width: 390, height: 800 } })
  await phone.goto(`${shell.origin}/${new URL(decoded).hash}`)
  await expect(phone.getByText('Fumi', { exact: true })).toBeVisible()
  await expect(phone.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
  expect(await phone.evaluate(() => localStorage.getItem('mb.token'))).toBe(token)
  expect(await phone.evaluate(() => location.href)).toBe(`${shell.origin}/`)
  const entries = await historyAddresses(phone)
  expect(entries.length).toBeGreaterThan(1)
  for (const entry of entries) expect(entry).not.toMatch(/[?&#](code|token)=/)
  expect(entries.join(' ')).not.toContain(code)
  await phone.close()

  // The same link again, on another phone: it was used; the page says so and signs no one in.
  const other = await browser.newPage({ viewport: { width: 390, height: 800 } })
  await other.goto(`${shell.origin}/${new URL(decoded).hash}`)
  await expect(other.getByRole('alert')).toContainText('This sign-in link was already used or has expired')
  await expect(other.getByLabel('Your Reader token')).toBeFocused()
  expect(await other.evaluate(() => localStorage.getItem('mb.token'))).toBeNull()
  expect(new URL(other.url()).hash).toBe('')
  await other.close()
})

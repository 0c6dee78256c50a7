/**
 * The admin sign-in link the shell prints is a one-time code (issue #29, docs/adr/0087-sign-in-links-that-end.md):
 * opening it signs the browser in, and afterwards neither the address bar nor the tab's history holds the code
 * or the token; the same link again is refused with a page that says what happened and what to do. The token URL
 * tools use still signs in. Real Chromium, the real headless shell.
 */
import { expect, test, useShell } from './support/fixtures'
import { historyAddresses } from './support/pages'

useShell({})

test('the printed sign-in link signs in once and leaves no code in the address or the history', async ({ page, browser, shell }) => {
  const link = shell.signInUrl!
  expect(link).toMatch(/\/admin\/\?code=[A-Za-z0-9_-]{43}$/)
  const code = new URL(link).searchParams.get('code')!
  const token = new URL(shell.adminUrl!).searchParams.get('token')!
  expect(link).not.toContain(token)

  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
  const href = await page.evaluate(() => location.href)
  expect(href).toBe(`${shell.adminOrigin}/admin/#/`)
  expect(href).not.toContain(code)
  // The server's redirect replaced the entry: going back through the tab's history never shows the code.
  const entries = await historyAddresses(page)
  expect(entries.length).toBeGreaterThan(1)
  for (const entry of entries) expect(entry).not.toMatch(/[?&#](code|token)=/)

  // The same link in another browser: already used, refused with words, no session.
  const other = await browser.newContext()
  const second = await other.newPage()
  const response = await second.goto(link)
  expect(response!.status()).toBe(401)
  await expect(second.getByRole('heading', { level: 1 })).toHaveText('This sign-in link was already used or has expired')
  await expect(second.locator('body')).toContainText('npm run admin-link')
  await expect(second.locator('body')).not.toContainText('Restart the app')
  expect((await other.cookies()).length).toBe(0)

  // The token URL tools use still signs in, and also leaves the address clean.
  await second.goto(shell.adminUrl!)
  await expect(second.getByRole('heading', { name: 'Overview' })).toBeVisible()
  expect(second.url()).not.toContain(token)
  await other.close()
})

test('the terminal prints the sign-in link for a person and the token URL for tools', ({ shell }) => {
  const out = shell.output()
  expect(out).toContain(`sign in: ${shell.signInUrl}`)
  expect(out).toMatch(/admin: http:\/\/127\.0\.0\.1:\d+\/admin\/\?token=\S+/)
  expect(out).toContain('It works once, within 10 minutes')
})

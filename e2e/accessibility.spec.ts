/**
 * Every page of the owner's window and the Readers' page, at a desktop and a phone width, in the light and the
 * dark scheme, in real Chromium against the demo: axe-core finds no violation at all (docs/adr/0058), nothing
 * scrolls sideways at 360 px, each page names its tab, and no hint lives only in a tooltip.
 */
import { type Page } from '@playwright/test'
import { expect, test, useShell } from './support/fixtures'
import { axeViolations, PHONE, sidewaysScroll, signInAdmin, signInReader, WIDE } from './support/pages'

useShell({ args: ['--demo'] })

/** The owner's pages, each with what shows it is drawn and the tab title it names. */
const ADMIN_PAGES = [
  { path: '/', ready: 'Overview', title: 'Overview · Manga Bookmark' },
  { path: '/updates', ready: 'Updates', title: 'Updates · Manga Bookmark' },
  { path: '/series', ready: 'Series', title: 'Series · Manga Bookmark' },
  { path: '/series/fixture-madara/the-tower-climber', ready: 'The Tower Climber', title: 'The Tower Climber · Manga Bookmark' },
  { path: '/lanes', ready: 'Lanes', title: 'Lanes · Manga Bookmark' },
  { path: '/readers', ready: 'Readers', title: 'Readers · Manga Bookmark' },
  { path: '/settings', ready: 'Settings', title: 'Settings · Manga Bookmark' },
]

async function meetsTheBar(page: Page, phone: boolean): Promise<void> {
  expect(await axeViolations(page)).toEqual([])
  if (phone) expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
  // A hint in a tooltip only is lost to a keyboard, a phone and a screen reader.
  expect(await page.locator('[title]').count()).toBe(0)
}

for (const scheme of ['light', 'dark'] as const) {
  for (const [width, viewport] of [
    ['desktop', WIDE],
    ['phone', PHONE],
  ] as const) {
    test.describe(`${scheme}, ${width} width`, () => {
      test.use({ viewport, colorScheme: scheme })

      test("every page of the owner's window", async ({ page, shell }) => {
        const origin = await signInAdmin(page, shell)
        // Let the Lanes read the catalogue once, so the pages show checks, failures and charts.
        await expect(page.locator('[data-lane="fixture-madara"]')).toContainText('working', { timeout: 30_000 })
        // And a backup, so Settings shows its list of backups (else it appears only once the daily one is made).
        await page.goto(`${origin}/admin/#/settings`)
        await page.getByRole('button', { name: 'Back up now' }).click()
        await expect(page.getByRole('table', { name: 'Backups' })).toBeVisible()
        for (const p of ADMIN_PAGES) {
          await page.goto(`${origin}/admin/#${p.path}`)
          await expect(page.getByRole('heading', { level: 1, name: p.ready })).toBeVisible()
          await expect(page).toHaveTitle(p.title)
          await page.waitForLoadState('networkidle')
          await meetsTheBar(page, width === 'phone')
        }
      })

      test("the Readers' page, signed out, refused and signed in", async ({ page, shell }) => {
        await page.goto(shell.origin)
        await expect(page).toHaveTitle('Sign in · Manga Bookmark')
        await meetsTheBar(page, width === 'phone')
        await page.getByLabel('Your Reader token').fill('a-wrong-token')
        await page.getByRole('button', { name: 'Sign in' }).click()
        await expect(page.getByRole('alert')).toBeVisible()
        await meetsTheBar(page, width === 'phone')
        await signInReader(page, shell, shell.tokens.Aiko!)
        await expect(page.locator('li.card').first()).toBeVisible()
        await meetsTheBar(page, width === 'phone')
      })
    })
  }
}

test('a wrong admin link answers a page that says what to do, and it meets the bar too', async ({ page, shell }) => {
  const response = await page.goto(`${shell.adminOrigin}/admin/?token=not-the-right-token-at-all`)
  expect(response?.status()).toBe(401)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('That admin link is not valid')
  await expect(page.locator('body')).toContainText('manga-bookmark: admin:')
  await expect(page.locator('body')).toContainText('MB_ADMIN_TOKEN')
  await expect(page).toHaveTitle('That admin link is not valid · Manga Bookmark')
  await meetsTheBar(page, false)
})

test('the check is live: the list item posing as a row that the issue found on the Overview is a violation', async ({ page, shell }) => {
  await signInAdmin(page, shell)
  await page.evaluate(() => {
    const li = document.createElement('li')
    li.setAttribute('role', 'row')
    li.textContent = 'a Lane'
    const list = document.createElement('ul')
    list.append(li)
    document.querySelector('main')!.append(list)
  })
  expect((await axeViolations(page)).join('\n')).toMatch(/aria-required-parent \(critical\)/)
})

/**
 * The owner's window by keyboard alone (issue #16, accessibility): a visible focus ring, focus kept on — or moved
 * to — the sensible control after Check now, Pause, Resume, Remove and Add Reader, every result said in a polite
 * live region, and a confirmation that takes focus and cancels on Escape. Real Chromium, the real headless shell.
 */
import { type Page } from '@playwright/test'
import { expect, test, useShell } from './support/fixtures'
import { signInAdmin } from './support/pages'

useShell({ args: ['--demo'] })

const announced = (page: Page) => page.locator('[data-announcer]')
/** The focused element's outline, as drawn. */
const ring = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!)
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) }
  })

test('Tab shows a focus ring; the skip link leads to the page', async ({ page, shell }) => {
  await signInAdmin(page, shell)
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to the page' })).toBeFocused()
  expect(await ring(page)).toEqual({ style: 'solid', width: 3 })
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Overview' })).toBeFocused()
  expect(await ring(page)).toEqual({ style: 'solid', width: 3 })
})

test('Check now keeps the focus and says what it did', async ({ page, shell }) => {
  const origin = await signInAdmin(page, shell)
  await page.goto(`${origin}/admin/#/series?site=fixture-madara`)
  const button = page.locator('[role="row"][data-series="fixture-madara/moonlit-bakery"]').getByRole('button', { name: 'Check now' })
  await button.focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('[role="row"][data-series="fixture-madara/moonlit-bakery"] .pending')).toBeVisible()
  await expect(button).toBeFocused()
  await expect(announced(page)).toHaveText(/^Check requested for Moonlit Bakery: /)
})

test('Pause moves focus to Resume and Resume back to Pause, each said', async ({ page, shell }) => {
  const origin = await signInAdmin(page, shell)
  await page.goto(`${origin}/admin/#/lanes`)
  const lane = page.locator('tr[data-lane="fixture-webtoons"]')
  await lane.getByRole('button', { name: 'Pause' }).focus()
  await page.keyboard.press('Enter')
  await expect(lane.getByRole('button', { name: 'Resume' })).toBeFocused()
  await expect(announced(page)).toHaveText(/^Paused Fixture Toons until (\d{4}-\d\d-\d\d )?\d\d:\d\d\.$/)
  await page.keyboard.press('Enter')
  await expect(lane.getByRole('button', { name: 'Pause' })).toBeFocused()
  await expect(announced(page)).toHaveText('Resumed Fixture Toons: its Lane runs at its next pass.')
})

test('Add a Reader moves focus to the token; Remove asks with focus on Cancel, Escape cancels, Yes moves focus to the page', async ({
  page,
  shell,
}) => {
  const origin = await signInAdmin(page, shell)
  await page.goto(`${origin}/admin/#/readers`)
  await page.getByLabel('New Reader').fill('Dana')
  await page.keyboard.press('Enter')
  await expect(page.locator('[data-issued]')).toBeFocused()
  await expect(announced(page)).toHaveText('Added Dana: their token is shown once, with the address to open.')
  await page.getByRole('button', { name: 'Done' }).press('Enter')
  await expect(page.getByLabel('New Reader')).toBeFocused()

  const dana = page.locator('tr[data-reader="Dana"]')
  await dana.getByRole('button', { name: 'Remove' }).focus()
  await page.keyboard.press('Enter')
  const dialog = dana.getByRole('alertdialog', { name: 'Remove Dana and their bookmarks?' })
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(dana.getByRole('button', { name: 'Remove' })).toBeFocused()

  await page.keyboard.press('Enter')
  await page.keyboard.press('Shift+Tab')
  await expect(dialog.getByRole('button', { name: 'Yes, remove' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.locator('tr[data-reader="Dana"]')).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1, name: 'Readers' })).toBeFocused()
  await expect(announced(page)).toHaveText('Removed Dana and their bookmarks.')
})

test("Remove a Reader's bookmark on a Series' page moves focus to its Readers", async ({ page, shell }) => {
  const origin = await signInAdmin(page, shell)
  await page.goto(`${origin}/admin/#/series/fixture-themesia/star-harbor`)
  await page.getByRole('button', { name: 'Remove bookmark' }).first().press('Enter')
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 2, name: 'Readers' })).toBeFocused()
  await expect(announced(page)).toHaveText("Removed Aiko's bookmark.")
  await expect(page.getByText('No Reader holds this Series (an orphan): it is never polled.')).toBeVisible()
})

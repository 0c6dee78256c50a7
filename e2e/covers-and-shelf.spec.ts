/**
 * Covers and the household's shelf (issue 41) on a 390 px phone, real Chromium against the real headless shell and
 * the demo's fixture Sites: covers show on the cards and in Updates (a placeholder until one is kept), and a Reader
 * follows a Series from the shelf without the fixture Site's ledger showing any request for it.
 */
import { expect, test, useShell } from './support/fixtures'
import { sidewaysScroll, signInAdmin, signInReader } from './support/pages'

const PHONE_390 = { width: 390, height: 844 }
test.use({ viewport: PHONE_390, isMobile: true, hasTouch: true })
useShell({ args: ['--demo'] })

test('covers show on the cards and in Updates', async ({ page, shell }) => {
  // The demo's Lanes read each Series within a minute or two, its cover on a later turn; a loaded machine is slower.
  test.setTimeout(300_000)
  await signInReader(page, shell, shell.tokens.Ben!)
  const card = page.locator('li.card', { hasText: 'The Tower Climber' })
  await expect(card.locator('[data-cover]')).toBeVisible()
  // The Lane reads the cover URL with its check, then fetches the image on its next turn: reload until it is kept.
  await expect(async () => {
    await page.reload()
    await expect(card.locator('img[data-cover="image"]')).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 150_000 })
  const natural = await card.locator('img[data-cover="image"]').evaluate((img: HTMLImageElement) => img.naturalWidth)
  expect(natural).toBeGreaterThan(0)
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)

  // Updates: the fixture Site publishes a chapter of The Tower Climber; once its Lane reads it, the New Chapter
  // shows with the Series' cover (and every other one with its cover or the placeholder).
  await fetch(`${shell.demoOrigin}/control/publish`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/madara/manga/the-tower-climber/' }),
  })
  await expect(async () => {
    await page.reload()
    await page.getByRole('button', { name: /^Updates/ }).tap()
    await expect(page.locator('[data-update^="the-tower-climber/"] img[data-cover="image"]').first()).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 150_000 })
  const rows = page.locator('[data-update]')
  for (let i = 0; i < (await rows.count()); i++) await expect(rows.nth(i).locator('[data-cover]')).toHaveCount(1)
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
})

test('another Reader follows a Series from the shelf, and no request is sent for it', async ({ page, shell, browser }) => {
  test.setTimeout(300_000)
  const ledger = async () =>
    ((await (await fetch(`${shell.demoOrigin}/control/hits`)).json()) as Array<{ at: number; path: string }>).filter((h) =>
      h.path.startsWith('/madara/manga/solo-lantern/'),
    )
  // Aiko's Solo Lantern is checked by its Lane, and its cover kept (the demo's pace: within a minute or two).
  await expect.poll(async () => (await ledger()).some((h) => h.path.endsWith('cover.png')), { timeout: 200_000 }).toBe(true)
  // Then the Lane is paused, so any request for the Series in the ledger would be the follow's.
  const admin = await browser.newPage()
  const adminOrigin = await signInAdmin(admin, shell)
  await admin.goto(`${adminOrigin}/admin/#/lanes`)
  const lane = admin.locator('tr[data-lane="fixture-madara"]')
  await lane.getByRole('button', { name: 'Pause' }).click()
  await expect(lane.getByRole('button', { name: 'Resume' })).toBeVisible()

  await signInReader(page, shell, shell.tokens.Ben!)
  await expect(page.locator('li.card', { hasText: 'Solo Lantern' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Shelf' }).tap()
  const item = page.locator('[data-shelf="solo-lantern"]')
  await expect(item).toContainText('Solo Lantern')
  await expect(item.locator('[data-cover]')).toBeVisible()
  // Nothing of Aiko's progress is on the shelf.
  await expect(page.locator('.shelf')).not.toContainText(/read up to|Aiko/)
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)

  await expect(item.locator('img[data-cover="image"]')).toBeVisible()
  const before = (await ledger()).length
  await item.getByRole('button', { name: 'Follow Solo Lantern' }).tap()
  await expect(item).toContainText('Following')
  await page.getByRole('button', { name: 'Bookmarks' }).tap()
  await expect(page.locator('li.card', { hasText: 'Solo Lantern' })).toBeVisible()
  // Its Latest Chapter is there at once: the Series was kept and checked already.
  await expect(page.locator('li.card', { hasText: 'Solo Lantern' })).toContainText(/Latest \d+/)
  await page.waitForTimeout(2_000)
  expect((await ledger()).length).toBe(before)

  await lane.getByRole('button', { name: 'Resume' }).click()
  await admin.close()
})

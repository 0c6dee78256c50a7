/**
 * Chapters on a phone, 390 px wide (issue #25): Continue on each card opens the next unread chapter, a tap on a
 * chapter of the list reads up to it, Updates are grouped by day and each opens its chapter, Mark all read, and a
 * bookmark that started caught up can start from the beginning. Real Chromium, the real headless shell, the demo
 * Sites; a chapter published on the fixture site and checked through the owner's Check now (a database stamp).
 */
import { type Locator, type Page } from '@playwright/test'
import { expect, test, useShell } from './support/fixtures'
import type { RunningShell } from './support/shell'
import { withDb } from './support/db'
import { sidewaysScroll, signInReader } from './support/pages'

const PHONE_390 = { width: 390, height: 844 }
const TOWER = '/madara/manga/the-tower-climber/'

test.use({ viewport: PHONE_390, isMobile: true, hasTouch: true })
useShell({ args: ['--demo'] })

function row(shell: RunningShell, reader: string, seriesId: string): { progress: number | null; latest_chapter: number | null } {
  return withDb(shell.dataFile, (db) =>
    db
      .prepare(
        'SELECT b.progress, s.latest_chapter FROM bookmarks b JOIN readers r ON r.id = b.reader_id JOIN series s USING (site, series_id) WHERE r.name = ? AND b.series_id = ?',
      )
      .get(reader, seriesId),
  ) as { progress: number | null; latest_chapter: number | null }
}

/** Reloads until the card shows what `ready` waits for (the Lane's first checks take a few gaps). */
async function until(page: Page, ready: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.reload()
    await ready()
  }).toPass({ timeout: 45_000 })
}

/** Wholly inside the 390 px width. */
async function inView(locator: Locator): Promise<void> {
  await expect(locator).toBeVisible()
  const box = (await locator.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE_390.width)
}

test('Continue opens the next unread chapter; a tap on a chapter reads up to it', async ({ page, context, shell }) => {
  await signInReader(page, shell, shell.tokens.Ben!)
  const card = page.locator('li.card', { hasText: 'The Tower Climber' })
  const progress = row(shell, 'Ben', 'the-tower-climber').progress!
  const next = `${shell.demoOrigin}${TOWER}chapter-${progress + 1}/`
  const cont = card.locator('[data-continue]')
  await until(page, () => expect(cont).toHaveText(`Continue · Ch ${progress + 1}`, { timeout: 1_000 }))
  await inView(cont)
  await expect(cont).toHaveAttribute('href', next)
  await expect(card.locator('.badge')).toHaveText(/^\d+ unread$/)

  // Continue lands on the right chapter, in a tab of its own.
  const opened = context.waitForEvent('page')
  await cont.tap()
  const chapter = await opened
  await chapter.waitForLoadState()
  expect(chapter.url()).toBe(next)
  await chapter.close()

  // The list: tap chapter progress + 2 — no typing.
  await card.getByText('Chapters', { exact: true }).tap()
  const tapped = card.locator(`li[data-chapter="${progress + 2}"] button`)
  await inView(tapped)
  await tapped.tap()
  await expect(card).toContainText(`read up to chapter ${progress + 2}`)
  await expect(cont).toHaveText(`Continue · Ch ${progress + 3}`)
  await expect(tapped).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(() => row(shell, 'Ben', 'the-tower-climber').progress, { timeout: 15_000 }).toBe(progress + 2)
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
})

test('a New Chapter is in Updates under Today and opens its chapter; Mark all read clears the list', async ({ page, shell }) => {
  await signInReader(page, shell, shell.tokens.Ben!)
  // Wait for the Lane's first check, then publish a chapter and ask for a check now.
  await expect.poll(() => row(shell, 'Ben', 'the-tower-climber').latest_chapter, { timeout: 45_000 }).not.toBeNull()
  const published = (await (
    await fetch(`${shell.demoOrigin}/control/publish`, { method: 'POST', body: JSON.stringify({ path: TOWER }) })
  ).json()) as { latest: number }
  withDb(shell.dataFile, (db) =>
    db.prepare("UPDATE series SET force_poll_at = latest_checked_at + 1 WHERE series_id = 'the-tower-climber'").run(),
  )
  await expect
    .poll(() => row(shell, 'Ben', 'the-tower-climber').latest_chapter, { timeout: 45_000 })
    .toBeGreaterThanOrEqual(published.latest)

  await page.reload()
  await page.getByRole('button', { name: /^Updates/ }).tap()
  await expect(page.getByRole('heading', { name: 'Today', level: 3 })).toBeVisible()
  const item = page.locator(`[data-update="the-tower-climber/${published.latest}"] a`)
  await inView(item)
  await expect(item).toHaveText(`The Tower Climber · Ch ${published.latest}`)
  await expect(item).toHaveAttribute('href', `${shell.demoOrigin}${TOWER}chapter-${published.latest}/`)

  await page.getByRole('button', { name: 'Mark all read' }).tap()
  await expect(page.locator('[data-update]')).toHaveCount(0)
  await expect.poll(() => row(shell, 'Ben', 'the-tower-climber').progress, { timeout: 15_000 }).toBeGreaterThanOrEqual(published.latest)
  await page.getByRole('button', { name: 'Bookmarks' }).tap()
  await expect(page.locator('li.card.unread')).toHaveCount(0)
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
})

test('a bookmark made with nothing read starts caught up; one tap starts it from the beginning', async ({ page, shell }) => {
  await signInReader(page, shell, shell.tokens.Aiko!)
  const card = page.locator('li.card', { hasText: 'Star Harbor' })
  await until(page, () => expect(card).toContainText('caught up', { timeout: 1_000 }))
  await expect(card.locator('.badge')).toHaveCount(0)
  await expect(card.locator('[data-continue]')).toHaveCount(0)
  const start = card.getByRole('button', { name: 'Start from the beginning' })
  await inView(start)
  await start.tap()
  await expect.poll(() => row(shell, 'Aiko', 'star-harbor').progress, { timeout: 15_000 }).toBe(0)
  const latest = row(shell, 'Aiko', 'star-harbor').latest_chapter!
  await until(page, () => expect(card.locator('.badge')).toHaveText(`${latest} unread`, { timeout: 1_000 }))
  // The fixture page lists the newest 12: Continue is the oldest the app has (the Site does not list chapter 1).
  await expect(card.locator('[data-continue]')).toHaveText(`Continue · Ch ${latest - 11}`)
})

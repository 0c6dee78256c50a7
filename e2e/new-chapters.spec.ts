/**
 * New Chapters first (issue #16): a Site publishes, Check now finds it, and the owner finds it without hunting —
 * the Overview's card counts it and leads to the `new` filter, the Updates page lists what arrived newest first,
 * and the Series list sorts by latest change, last check or title. Real Chromium, the real headless shell.
 */
import { expect, test, useShell } from './support/fixtures'
import type { RunningShell } from './support/shell'
import { withDb } from './support/db'
import { signInAdmin } from './support/pages'

useShell({ args: ['--demo'] })

const latestOf = (shell: RunningShell, seriesId: string) =>
  (
    withDb(shell.dataFile, (db) => db.prepare('SELECT latest_chapter FROM series WHERE series_id = ?').get(seriesId)) as {
      latest_chapter: number | null
    }
  ).latest_chapter

test('a published chapter found by Check now: the Overview card, the new filter, the Updates page and the sorts', async ({
  page,
  shell,
}) => {
  const origin = await signInAdmin(page, shell)
  // The Lanes have read Night Lantern once: a chapter found now moves it forward, a New Chapter.
  await expect.poll(() => latestOf(shell, 'night-lantern'), { timeout: 30_000 }).not.toBeNull()
  const before = latestOf(shell, 'night-lantern')!
  const counted = Number(await page.locator('[data-new-chapters] .value').textContent())
  await fetch(`${shell.demoOrigin}/control/publish`, { method: 'POST', body: JSON.stringify({ path: '/madara-xhr/manga/night-lantern/' }) })
  await page.goto(`${origin}/admin/#/series?q=night`)
  await page.locator('[role="row"][data-series="fixture-madara-xhr/night-lantern"]').getByRole('button', { name: 'Check now' }).click()
  await expect.poll(() => latestOf(shell, 'night-lantern'), { timeout: 60_000 }).toBe(before + 1)

  // The Overview's card counts it and leads to the new filter, latest change first.
  await page.getByRole('link', { name: 'Overview' }).click()
  const card = page.locator('[data-new-chapters]')
  await expect(card.locator('.value')).toHaveText(String(counted + 1), { timeout: 15_000 })
  await expect(card).toContainText(/New Chapters? in the last day/)
  await card.click()
  await expect(page).toHaveURL(/#\/series\?filter=new&sort=changed$/)
  const first = page.locator('[role="row"][data-series]').first()
  await expect(first).toHaveAttribute('data-series', 'fixture-madara-xhr/night-lantern')
  await expect(first.locator('[data-latest]')).toContainText(`${before + 1}`)
  await expect(first.locator('[data-latest]')).toHaveClass(/ember/)
  await expect(page.getByRole('status')).toHaveText(`${counted + 1} Series`)

  // The Updates page: what arrived, newest first, under Today; the chapter a link to it on its Site.
  await page.getByRole('link', { name: 'Updates' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Today' })).toBeVisible()
  const update = page.locator('[data-update]').first()
  await expect(update).toHaveAttribute('data-update', 'fixture-madara-xhr/night-lantern')
  await expect(update.locator('[data-chapter-link]')).toContainText(`Chapter ${before + 1}`)
  await expect(update).toContainText(`(was ${before})`)
  await expect(update).toContainText('Night Lantern')
  await expect(update.locator('[data-chapter-link]')).toHaveAttribute(
    'href',
    `${shell.demoOrigin}/madara-xhr/manga/night-lantern/chapter-${before + 1}/`,
  )
  await update.getByRole('link', { name: 'Night Lantern' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Night Lantern')
  // Its detail is led by its chapters: the new one first, a New Chapter, with its link.
  const newest = page.locator(`tr[data-chapter="${before + 1}"]`)
  await expect(newest).toContainText('a New Chapter')
  await expect(newest.getByRole('link')).toHaveAttribute(
    'href',
    `${shell.demoOrigin}/madara-xhr/manga/night-lantern/chapter-${before + 1}/`,
  )

  // The list's sorts: latest change puts it first; last check puts the most recently checked first; title sorts by title.
  await page.goto(`${origin}/admin/#/series`)
  const sortBy = page.getByLabel('Sort by')
  await sortBy.selectOption('changed')
  await expect(page).toHaveURL(/sort=changed/)
  await expect(page.locator('[role="row"][data-series]').first()).toHaveAttribute('data-series', 'fixture-madara-xhr/night-lantern')
  await sortBy.selectOption('checked')
  await expect(page).toHaveURL(/sort=checked/)
  // Newest check first: the ages the rows give only grow down the list (never checked last).
  const ages = (await page.locator('[role="row"][data-series] [data-last-check]').allTextContents()).map((t) => {
    const m = /(\d+) (s|min|h) ago/.exec(t)
    return m ? Number(m[1]) * { s: 1, min: 60, h: 3600 }[m[2] as 's' | 'min' | 'h'] : Infinity
  })
  expect(ages.length).toBeGreaterThan(3)
  for (let i = 1; i < ages.length; i++) expect(ages[i]!).toBeGreaterThanOrEqual(ages[i - 1]! - 5)
  await sortBy.selectOption('title')
  await expect(page.locator('[role="row"][data-series]').first()).toHaveAttribute('data-series', 'fixture-challenge/cloud-atlas-chronicle')
  const titles = (await page.locator('[role="row"][data-series] .name').allTextContents()).map((t) => t.trim().toLowerCase())
  expect(titles).toEqual([...titles].sort())
})

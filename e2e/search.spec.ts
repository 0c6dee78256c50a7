/**
 * Search a Site by title and found again (issue 41; docs/adr/0145-…, docs/adr/0147-…), on a phone 390 px wide, in
 * real Chromium against the real headless shell in demo mode (its fixture site on loopback, a 3 s gap per Site):
 * a Reader searches the Madara fixture by title, sees the results, follows one with a tap, and the fixture's ledger
 * shows the Series' first check a full gap after the Site's previous request; a Series whose page starts answering
 * 404 is searched for by its title, offered to the owner, and moved when the owner accepts.
 */
import { expect, test, useShell } from './support/fixtures'
import type { RunningShell } from './support/shell'
import { withDb } from './support/db'
import { signInReader } from './support/pages'

const PHONE_390 = { width: 390, height: 844 }
const GAP_MS = 3_000

test.use({ viewport: PHONE_390, isMobile: true, hasTouch: true })
useShell({ args: ['--demo'], adminToken: 'e2e-admin-token-search-0123456789' })

interface Hit {
  at: number
  method: string
  path: string
}
async function ledger(shell: RunningShell): Promise<Hit[]> {
  return (await (await fetch(`${shell.demoOrigin}/control/hits`)).json()) as Hit[]
}
/** A request to the Madara fixture Site (its Lane's requests): its Series pages and its search. */
const onMadara = (h: Hit) => h.path.startsWith('/madara/')

test('a Reader searches a Site by title, follows a result with a tap, and its first check keeps the Lane’s gap', async ({
  page,
  shell,
}) => {
  test.setTimeout(90_000)
  await signInReader(page, shell, shell.tokens.Ben!)
  await page.getByText('Search a Site by title').tap()
  await page.getByLabel('Site to search').selectOption({ label: 'Fixture Scans (Madara)' })
  await page.getByPlaceholder('Title to search for').fill('iron tea')
  await page.getByRole('button', { name: 'Search', exact: true }).tap()
  const results = page.getByRole('list', { name: 'Search results' })
  const result = results.getByRole('listitem').filter({ hasText: 'Iron Tea House' })
  await expect(result).toContainText(/Chapter \d+/, { timeout: 20_000 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)

  await result.getByRole('button', { name: 'Follow Iron Tea House' }).tap()
  await expect(result).toContainText('Following')
  // The card is read in the background, in the Site's pace.
  await expect(page.locator('li.card[data-series="iron-tea-house"]').filter({ hasText: 'Iron Tea House' })).toBeVisible({ timeout: 30_000 })

  let hits: Hit[] = []
  await expect
    .poll(
      async () => {
        hits = await ledger(shell)
        return hits.some((h) => h.path.startsWith('/madara/manga/iron-tea-house/'))
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  const search = hits.find((h) => h.path.startsWith('/madara/?s=iron%20tea') || h.path.startsWith('/madara/?s=iron+tea'))
  expect(search, JSON.stringify(hits.filter(onMadara).slice(-5))).toBeDefined()
  const first = hits.findIndex((h) => h.path.startsWith('/madara/manga/iron-tea-house/'))
  const before = hits.slice(0, first).filter(onMadara).at(-1)!
  // The follow's first check waited for the Site's gap after the Site's previous request (the search, or a check).
  expect(hits[first]!.at - before.at).toBeGreaterThanOrEqual(GAP_MS - 50)
  expect(hits[first]!.at - search!.at).toBeGreaterThanOrEqual(GAP_MS - 50)
})

test('a Series whose page starts answering 404 is found again by its title, and the owner accepts the move', async ({
  adminPage: page,
  shell,
}) => {
  test.setTimeout(120_000)
  const key = { site: 'fixture-madara', seriesId: 'solo-lantern' }
  const moved = (await (
    await fetch(`${shell.demoOrigin}/control/vanish`, { method: 'POST', body: JSON.stringify({ path: '/madara/manga/solo-lantern/' }) })
  ).json()) as { path: string }
  expect(moved.path).toBe('/madara/manga/solo-lantern-2/')
  const row = () =>
    withDb(
      shell.dataFile,
      (db) =>
        db.prepare('SELECT gone_checks, series_url FROM series WHERE site = ? AND series_id = ?').get(key.site, key.seriesId) as {
          gone_checks: number
          series_url: string
        },
    )
  const progress = () =>
    withDb(shell.dataFile, (db) =>
      db
        .prepare('SELECT reader_id, progress FROM bookmarks WHERE site = ? AND series_id = ? ORDER BY reader_id')
        .all(key.site, key.seriesId),
    )
  const progressBefore = progress()
  // Three checks that meet the 404, each asked for as the owner's Check now asks (a write the Lane reads).
  for (let n = (row().gone_checks ?? 0) + 1; n <= 3; n++) {
    withDb(shell.dataFile, (db) =>
      db
        .prepare('UPDATE series SET force_poll_at = ?, latest_checked_at = MIN(latest_checked_at, ? - 1) WHERE site = ? AND series_id = ?')
        .run(Date.now(), Date.now(), key.site, key.seriesId),
    )
    await expect.poll(() => row().gone_checks, { timeout: 30_000 }).toBeGreaterThanOrEqual(n)
  }
  // The Lane searched the Site by the Series' title once, and found it at its new place.
  await expect
    .poll(async () => (await ledger(shell)).filter((h) => /^\/madara\/\?s=Solo(\+|%20)Lantern/.test(h.path)).length, { timeout: 30_000 })
    .toBe(1)
  expect(row().series_url).toMatch(/\/madara\/manga\/solo-lantern\/$/)

  const origin = new URL(page.url()).origin
  await page.goto(`${origin}/admin/#/series`)
  const offer = page.locator('[data-found-again]')
  await expect(offer).toContainText(`Found ‘Solo Lantern’ at ${shell.demoOrigin}/madara/manga/solo-lantern-2/ — move it?`, {
    timeout: 20_000,
  })
  await offer.getByRole('button', { name: 'Move it' }).tap()
  await expect(offer).toHaveCount(0)
  expect(row().series_url).toBe(`${shell.demoOrigin}/madara/manga/solo-lantern-2/`)
  // The same Series: its Readers' bookmarks and Progress stay; the next check reads it at its new place.
  expect(progress()).toEqual(progressBefore)
  await expect.poll(() => row().gone_checks, { timeout: 30_000 }).toBe(0)
})

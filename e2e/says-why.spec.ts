/**
 * Nothing without its reason (issue #16, "Nothing says why"), in real Chromium against the real headless shell:
 * a Check now on a refusing Site says the Site refuses until when and that the check will wait; a failed check
 * says why instead of "checked … ago"; "—" says why; a paused Lane says until when; a Series links to its Site;
 * each Lane says what its recent passes came to, with the columns that are all zero left out and a chart legend of
 * what it draws; the "cannot reach the app" banner clears itself and says how old the page is.
 */
import type { Page } from '@playwright/test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, useShell } from './support/fixtures'
import { withDb } from './support/db'
import { signInAdmin, signInReader } from './support/pages'
import type { RunningShell } from './support/shell'

const HOUR = 3_600_000
/** "until …" as the window words it: HH:MM today, with the date when it falls on another day (e.g. past midnight). */
const hhmm = (at: number) => {
  const d = new Date(at)
  const two = (n: number) => String(n).padStart(2, '0')
  const time = `${two(d.getHours())}:${two(d.getMinutes())}`
  if (d.toDateString() === new Date().toDateString()) return time
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${time}`
}

/** Signs the owner in and pauses a Site's Lane from the Lanes page; answers the admin origin and the pause's end. */
async function pauseLane(page: Page, shell: RunningShell, site: string): Promise<{ origin: string; until: number }> {
  const origin = await signInAdmin(page, shell)
  await page.goto(`${origin}/admin/#/lanes`)
  const lane = page.locator(`tr[data-lane="${site}"]`)
  await lane.getByRole('button', { name: 'Pause' }).click()
  await expect(lane.getByRole('button', { name: 'Resume' })).toBeVisible()
  const row = withDb(shell.dataFile, (db) => db.prepare('SELECT paused_until FROM poll_lanes WHERE site = ?').get(site)) as {
    paused_until: number
  }
  return { origin, until: row.paused_until }
}

test.describe('with the demo Sites', () => {
  useShell({ args: ['--demo'] })

  test('Check now on a refusing Site: the marker, and beside it that the Site refuses until when and the check will wait', async ({
    page,
    shell,
  }) => {
    const origin = await signInAdmin(page, shell)
    const refuseUntil = () =>
      (
        withDb(shell.dataFile, (db) => db.prepare("SELECT refuse_until FROM poll_lanes WHERE site = 'fixture-refusing'").get()) as
          { refuse_until: number } | undefined
      )?.refuse_until ?? 0
    await expect.poll(refuseUntil, { timeout: 30_000 }).toBeGreaterThan(Date.now())
    await page.goto(`${origin}/admin/#/series?site=fixture-refusing`)
    const row = page.locator('[role="row"][data-series="fixture-refusing/grumpy-knight"]')
    // Its last check says what happened, not "checked … ago"; its unknown Latest Chapter says why.
    await expect(row.locator('[data-last-check]')).toHaveText(/^last check \d+ (s|min) ago: the Site refused \(an anti-bot challenge\)/)
    await expect(row.locator('[data-latest]')).toContainText('the check failed')
    await row.getByRole('button', { name: 'Check now' }).click()
    await expect(row.locator('.pending')).toHaveText(/^check requested \d+ s ago$/)
    await expect(row.locator('[data-waiting]')).toHaveText(`Site refusing until ${hhmm(refuseUntil())} — your check will wait`)
    // The detail page says the same, in full, and links to the Series on its Site.
    await row.getByRole('link', { name: 'Grumpy Knight' }).click()
    await expect(page.locator('[data-detail-waiting]')).toHaveText(`Site refusing until ${hhmm(refuseUntil())} — your check will wait`)
    const url = withDb(shell.dataFile, (db) =>
      db.prepare("SELECT series_url FROM series WHERE site = 'fixture-refusing' AND series_id = 'grumpy-knight'").get(),
    ) as { series_url: string }
    await expect(page.getByRole('link', { name: new RegExp(url.series_url.replace(/[.?]/g, '\\$&')) })).toHaveAttribute(
      'href',
      url.series_url,
    )
  })

  test('a paused Lane: its Series say until when, and a Check now that it will wait', async ({ page, shell }) => {
    const { origin, until } = await pauseLane(page, shell, 'fixture-themesia')
    await page.goto(`${origin}/admin/#/series?site=fixture-themesia`)
    const row = page.locator('[role="row"][data-series="fixture-themesia/iron-bloom"]')
    await expect(row.locator('[data-waiting]')).toHaveText(`Lane paused until ${hhmm(until)} — checks wait`)
    await row.getByRole('button', { name: 'Check now' }).click()
    await expect(row.locator('[data-waiting]')).toHaveText(`Lane paused until ${hhmm(until)} — your check will wait`)
    await page.goto(`${origin}/admin/#/lanes`)
    await page.locator('tr[data-lane="fixture-themesia"]').getByRole('button', { name: 'Resume' }).click()
    await page.goto(`${origin}/admin/#/series?site=fixture-themesia`)
    await expect(row.locator('[data-waiting]')).not.toContainText('paused')
  })

  test("a Reader's card says when its Series is checked next, and that its paused Site is not checked until when", async ({
    page,
    shell,
  }) => {
    const { until } = await pauseLane(page, shell, 'fixture-themesia')
    // A demo Reader who holds a Series of the paused Site, and one of another Site.
    const holder = withDb(shell.dataFile, (db) =>
      db
        .prepare(
          "SELECT r.name, s.title FROM bookmarks b JOIN readers r ON r.id = b.reader_id JOIN series s USING (site, series_id) WHERE b.site = 'fixture-themesia' AND s.title <> '' ORDER BY r.name LIMIT 1",
        )
        .get(),
    ) as { name: string; title: string }
    await signInReader(page, shell, shell.tokens[holder.name]!)
    const card = page.locator('li.card', { hasText: holder.title }).first()
    await expect(card.locator('[data-next-check]')).toHaveText(`not checked: Site paused until ${hhmm(until)}`)
    await expect(card.locator('[data-next-check]')).toHaveClass(/attention/)
    const other = page
      .locator('li.card')
      .filter({ hasNot: page.getByText('not checked: Site paused') })
      .first()
    await expect(other.locator('[data-next-check]')).toHaveText(
      /^(next check in (about \d+ (min|h)|under a minute) — .+|checked at its Site’s next turn)$/,
    )
  })

  test('each Lane says what its recent passes came to, naming the latest cause', async ({ page, shell }) => {
    const origin = await signInAdmin(page, shell)
    await page.goto(`${origin}/admin/#/lanes`)
    await expect(page.locator('tr[data-lane="fixture-refusing"] [data-history]')).toHaveText(
      /^Last (pass|\d+ passes): .*refused.* — latest: .* on “Grumpy Knight” \d+ (s|min) ago\.$/,
      { timeout: 30_000 },
    )
    await expect(page.locator('tr[data-lane="fixture-madara"] [data-history]')).toHaveText(/^Last (pass|\d+ passes): \d+ ok/)
  })

  test('the "cannot reach the app" banner says how old the page is, and clears itself once calls answer again', async ({ page, shell }) => {
    const origin = await signInAdmin(page, shell)
    await page.goto(`${origin}/admin/#/lanes`)
    await expect(page.locator('tr[data-lane="fixture-madara"]')).toBeVisible()
    await page.route('**/admin/rpc/**', (route) => route.abort('connectionrefused'))
    const banner = page.locator('[data-unreachable]')
    await expect(banner).toContainText('Cannot reach the app', { timeout: 15_000 })
    await expect(banner).toContainText(/What you see is from \d+ s ago\./)
    await page.unroute('**/admin/rpc/**')
    await expect(banner).toHaveCount(0, { timeout: 15_000 })
  })
})

test.describe('on a quiet store, with pass rows written by the test', () => {
  useShell({
    // The built-in Lanes re-read hourly here, so the pass rows a test inserts stay the newest.
    prepare: (dir) =>
      writeFileSync(
        join(dir, 'sites.json'),
        JSON.stringify({ sites: ['mangadex', 'webtoons'].map((key) => ({ key, pace: { idleRequeryMs: HOUR } })) }),
      ),
    started: (shell) =>
      expect
        .poll(() => withDb(shell.dataFile, (db) => db.prepare("SELECT COUNT(*) AS n FROM poll_passes WHERE site = 'webtoons'").get()))
        .toEqual({ n: 1 }),
  })

  test('failure columns that are zero for every Lane are left out, and the chart names only what it draws', async ({ page, shell }) => {
    withDb(shell.dataFile, (db) => {
      const insert = db.prepare(
        'INSERT INTO poll_passes (site, started_at, ended_at, skip, due, gap, clamped, checked, refused, unreachable, no_chapter, unfetchable, errors) VALUES (?, ?, ?, ?, 2, 30000, 0, 2, 0, 0, 0, 0, ?)',
      )
      const at = Date.now()
      insert.run('mangadex', at - 3_000, at - 2_900, '', 0)
      insert.run('mangadex', at - 2_000, at - 1_900, 'paused', 0)
      insert.run('mangadex', at - 1_000, at - 900, '', 1)
      insert.run('webtoons', at - 1_000, at - 900, '', 0)
    })
    const origin = await signInAdmin(page, shell)
    await page.goto(`${origin}/admin/#/lanes`)
    const headers = page.locator('table.lanes thead th')
    await expect(headers).toContainText(['Site', 'State and recent passes', 'Due', 'Gap', 'Checked', 'Success', 'Errors', 'Pause'])
    await expect(page.locator('[data-hidden-columns]')).toHaveText(
      'No Lane’s last pass had any refused, unreachable, no chapter, unfetchable: those columns are left out.',
    )
    await expect(page.locator('tr[data-lane="mangadex"] [data-history]')).toHaveText(
      'Last 4 passes: 1 ok, 1 with errors, 2 skipped (1 nothing to check, 1 paused).',
    )
    await expect(page.getByRole('img', { name: /^MangaDex: outcome counts of the last 4 passes/ })).toHaveAttribute(
      'aria-label',
      'MangaDex: outcome counts of the last 4 passes (checked, chapter found, errors); 2 skipped',
    )
  })
})

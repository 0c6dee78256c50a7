/**
 * The owner's window in real Chromium against the real headless shell: Pause survives a restart, Check now
 * is pending while paused and served after Resume, the stall rule renders from pass rows, and 10,000 Series
 * stay smooth.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { seedManySeries, withDb } from './support/db'
import { expect, test, useShell } from './support/fixtures'
import { startShell, tempData, type RunningShell } from './support/shell'

const ADMIN_TOKEN = 'e2e-admin-token-0123456789'
const HOUR = 3_600_000

async function signIn(page: Page, shell: RunningShell) {
  await page.goto(`${shell.adminOrigin}/admin/?token=${ADMIN_TOKEN}`)
  // The token is gone from the address: only the hash route remains.
  await expect(page).toHaveURL(`${shell.adminOrigin}/admin/#/`)
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
}

test.describe('with the demo Sites', () => {
  // Not on the shell fixture: the first test stops and starts this shell itself, on the same ports (a restart under test).
  let shell: RunningShell
  let data: { dir: string; remove(): void }
  const start = async () =>
    (shell = await startShell({
      dataDir: data.dir,
      port: shellPort,
      adminPort,
      args: ['--demo', '--admin-token', ADMIN_TOKEN],
      env: { CHROMIUM_PATH: '/nonexistent' },
    }))
  let shellPort = 0
  let adminPort = 0

  test.beforeAll(async () => {
    data = tempData()
    await start()
    shellPort = shell.port
    adminPort = shell.adminPort!
  })
  test.afterAll(async () => {
    await shell?.stop()
    data?.remove()
  })

  test('Pause 1h, a restart keeps it; Check now stays pending while paused; Resume serves it', async ({ page }) => {
    test.setTimeout(120_000)
    await signIn(page, shell)
    await page.getByRole('link', { name: 'Lanes', exact: true }).click()
    const lane = page.locator('tr[data-lane="fixture-madara"]')
    await expect(lane.locator('th')).toContainText('Fixture Scans (Madara)')
    await lane.getByLabel('Pause Fixture Scans (Madara) for').selectOption('1h')
    const pressedAt = Date.now()
    await lane.getByRole('button', { name: 'Pause' }).click()
    await expect(lane.locator('.state')).toContainText('paused until')
    const pausedUntil = withDb(
      shell.dataFile,
      (db) =>
        (db.prepare("SELECT paused_until FROM poll_lanes WHERE site = 'fixture-madara'").get() as { paused_until: number }).paused_until,
    )
    expect(Math.abs(pausedUntil - (pressedAt + HOUR))).toBeLessThan(10_000)

    // A restart: the pause is a row, not a memory; and the session outlives it (docs/adr/0076), so the window
    // open before it still works.
    await shell.stop()
    await start()
    await page.reload()
    await expect(page.locator('tr[data-lane="fixture-madara"] .state')).toContainText('paused until')
    await expect(page.getByText('Not signed in. Open the admin URL the app printed when it started.')).toHaveCount(0)
    await page.goto(`${shell.adminOrigin}/admin/#/lanes`)
    await expect(page.locator('tr[data-lane="fixture-madara"] .state')).toContainText('paused until')

    // Check now while paused: pending, and still pending after a reload.
    await page.goto(`${shell.adminOrigin}/admin/#/series?site=fixture-madara`)
    const row = page.locator('[role="row"][data-series="fixture-madara/the-tower-climber"]')
    await row.getByRole('button', { name: 'Check now' }).click()
    await expect(row.locator('.pending')).toHaveText(/check requested \d+ s ago/)
    await page.reload()
    await expect(row.locator('.pending')).toHaveText(/check requested \d+ s ago/)
    await page.waitForTimeout(6_000)
    await expect(row.locator('.pending')).toBeVisible()

    // Resume: the Lane serves it (within idleRequeryMs and a gap) and the marker clears.
    await page.goto(`${shell.adminOrigin}/admin/#/lanes`)
    await page.locator('tr[data-lane="fixture-madara"]').getByRole('button', { name: 'Resume' }).click()
    // The pause has ended at once; the last pass row still says why it skipped ("skipped: paused by the owner")
    // until the next pass ends, which takes up to idleRequeryMs and a whole pass of gaps.
    await expect(page.locator('tr[data-lane="fixture-madara"] .state')).not.toContainText('paused until')
    await expect(page.locator('tr[data-lane="fixture-madara"] .state .words')).toHaveText(/^(resuming|working)/)
    expect(
      withDb(shell.dataFile, (db) => db.prepare("SELECT paused_until, refuse_until FROM poll_lanes WHERE site = 'fixture-madara'").get()),
    ).toEqual({
      paused_until: 0,
      refuse_until: 0,
    })
    await page.goto(`${shell.adminOrigin}/admin/#/series?site=fixture-madara`)
    await expect(row.locator('.pending')).toHaveCount(0, { timeout: 60_000 })
  })

  test('the Readers page: add a Reader, the token shown once, and remove (confirm-gated)', async ({ page }) => {
    await signIn(page, shell)
    await page.getByRole('link', { name: 'Readers' }).click()
    await page.getByLabel('New Reader').fill('Cai')
    await page.getByRole('button', { name: 'Add Reader' }).click()
    const token = await page.locator('[data-token]').textContent()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const me = await fetch(`${shell.origin}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })
    expect((await me.json()).name).toBe('Cai')
    await page.getByRole('button', { name: 'Done' }).click()
    await expect(page.locator('[data-token]')).toHaveCount(0)
    const cai = page.locator('tr[data-reader="Cai"]')
    await cai.getByRole('button', { name: 'Remove' }).click()
    await expect(cai.getByRole('alertdialog')).toContainText('Remove Cai and their bookmarks?')
    await cai.getByRole('button', { name: 'Yes, remove' }).click()
    await expect(page.locator('tr[data-reader="Cai"]')).toHaveCount(0)
  })
})

test.describe('on a quiet store', () => {
  useShell({
    adminToken: ADMIN_TOKEN,
    // MangaDex's Lane re-reads hourly here, so the pass rows a test inserts stay the newest.
    prepare: (dir) =>
      writeFileSync(
        join(dir, 'sites.json'),
        JSON.stringify({
          sites: [
            { key: 'mangadex', pace: { idleRequeryMs: HOUR } },
            { key: 'webtoons', pace: { idleRequeryMs: HOUR } },
          ],
        }),
      ),
  })

  test('the stall rule is rendered from inserted pass rows', async ({ page, shell }) => {
    await expect
      .poll(() => withDb(shell.dataFile, (db) => db.prepare("SELECT COUNT(*) AS n FROM poll_passes WHERE site = 'webtoons'").get()))
      .toEqual({ n: 1 })
    withDb(shell.dataFile, (db) => {
      const insert = db.prepare(
        'INSERT INTO poll_passes (site, started_at, ended_at, skip, due, gap, clamped, checked, refused, unreachable, no_chapter, unfetchable, errors) VALUES (?, ?, ?, ?, ?, 300000, 1, ?, 0, 0, 0, 0, 0)',
      )
      insert.run('mangadex', Date.now() - 2_000, Date.now() - 1_000, '', 3, 0)
      insert.run('webtoons', Date.now() - 2_000, Date.now() - 1_000, 'due-query', 3, 0)
    })
    await signIn(page, shell)
    await expect(page.locator('[data-lane="mangadex"]')).toContainText('stalled: 3 due, none checked')
    await expect(page.locator('[data-lane="webtoons"]')).toContainText('not checking: could not read which Series are due')
    await page.getByRole('link', { name: 'Lanes', exact: true }).click()
    await expect(page.locator('tr[data-lane="mangadex"]')).toHaveAttribute('data-state', 'stalled')
    await expect(page.locator('tr[data-lane="webtoons"]')).toHaveAttribute('data-state', 'declined')
  })

  test('the Series page with 10,000 rows stays responsive', async ({ page, shell }) => {
    seedManySeries(shell.dataFile, 'mangadex', 10_000)
    await signIn(page, shell)
    await page.getByRole('link', { name: 'Series', exact: true }).click()
    await expect(page.getByRole('status')).toHaveText('10000 Series')
    await expect(page.locator('[role="row"][data-series="mangadex/bulk-00000"]')).toBeVisible()
    // Virtualised: only the rows in view exist.
    expect(await page.locator('[role="row"][data-series]').count()).toBeLessThan(80)
    // Scroll to the end: the last row arrives, and it is a working row.
    await page.locator('.scroller').evaluate((el) => el.scrollTo(0, el.scrollHeight))
    const last = page.locator('[role="row"][data-series="mangadex/bulk-09999"]')
    await expect(last).toBeVisible()
    expect(await page.locator('[role="row"][data-series]').count()).toBeLessThan(80)
    const held = page.locator('[role="row"][data-series="mangadex/bulk-09998"]')
    await held.getByRole('button', { name: 'Check now' }).click()
    await expect(held.locator('.pending')).toBeVisible()
    // An orphan (every other bulk Series has no Reader) offers no Check now.
    await expect(last.getByRole('button', { name: 'Check now' })).toHaveCount(0)
    // Search narrows it at once.
    await page.getByPlaceholder('Search title, id or URL').fill('Bulk Series 04242')
    await expect(page.getByRole('status')).toHaveText('1 Series')
  })

  test('the Series page counts once per filter and reads the page after one it holds by key', async ({ page, shell }) => {
    const asked: Array<{ offset: number; count: boolean; after?: string; filter?: string }> = []
    page.on('request', (request) => {
      if (request.url().endsWith('/admin/rpc/listSeries')) asked.push(request.postDataJSON())
    })
    // The 10,000 Series of the test before, when it ran.
    const seeded = withDb(shell.dataFile, (db) => db.prepare("SELECT 1 FROM series WHERE series_id = 'bulk-00000'").get())
    if (!seeded) seedManySeries(shell.dataFile, 'mangadex', 10_000)
    await signIn(page, shell)
    await page.getByRole('link', { name: 'Series', exact: true }).click()
    await expect(page.locator('[role="row"][data-series="mangadex/bulk-00000"]')).toBeVisible()
    // Down the list a page at a time: each next page continues from the one before it.
    // Rows are measured as drawn: scroll by the first row's own height, whatever the theme makes it.
    const rowHeight = await page
      .locator('[role="row"][data-series="mangadex/bulk-00000"]')
      .evaluate((el) => el.getBoundingClientRect().height)
    for (const [index, row] of [
      [210, 'bulk-00210'],
      [420, 'bulk-00420'],
    ] as const) {
      await page.locator('.scroller').evaluate((el, top) => el.scrollTo(0, top), index * rowHeight)
      await expect(page.locator(`[role="row"][data-series="mangadex/${row}"]`)).toBeVisible()
    }
    const pages = asked.filter((a) => a.offset > 0)
    expect(pages.length).toBeGreaterThan(0)
    expect(pages.every((a) => a.count === false && typeof a.after === 'string')).toBe(true)
    // The first page of a list counts it; a filter starts a new list, counted once.
    expect(asked.filter((a) => a.count)).toHaveLength(1)
    await page.getByLabel('Show').selectOption('orphan')
    await expect(page.getByRole('status')).toHaveText('5000 Series')
    expect(asked.filter((a) => a.count).map((a) => a.filter ?? '')).toEqual(['', 'orphan'])
  })
})

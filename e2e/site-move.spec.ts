/**
 * A Site that moved, and a Series whose page is gone, in real Chromium against the real headless shell
 * (docs/adr/0112-a-permanent-redirect-is-a-proposal.md, docs/adr/0113-a-series-whose-page-is-gone.md): the
 * fixture site answers a Series with a permanent redirect to another loopback host; the Lane does not follow it,
 * the owner is told on the Overview and the Lanes page, accepts the move, and the next check reads the Series
 * on the new host. A Series whose page answered "gone" three checks in a row says so on its page.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFixtureSite, type FixtureSite } from '../src/main/demo/fixture-site'
import { withDb } from './support/db'
import { expect, test, useShell } from './support/fixtures'

let fixture: FixtureSite

test.beforeAll(async () => {
  fixture = await startFixtureSite()
})
test.afterAll(async () => {
  await fixture?.close()
})

const movedHost = () => `localhost:${new URL(fixture.origin).port}`

useShell({
  adminToken: 'e2e-admin-token-site-move-0123456',
  prepare: (dir) =>
    writeFileSync(
      join(dir, 'sites.json'),
      JSON.stringify({
        sites: [
          {
            key: 'drifting',
            name: 'Drifting Scans',
            hosts: [fixture.host],
            family: 'madara',
            idPattern: '^/(?:moved|madara|gone)/manga/([^/]+)',
            // Requests a second apart at most, so the check after the move is not held for the default gap.
            pace: { idleRequeryMs: 500, minGapMs: 500, maxGapMs: 1000 },
          },
        ],
      }),
    ),
  started: (shell) =>
    withDb(shell.dataFile, (db) => {
      db.prepare("INSERT INTO readers (name, token_hash, created_at) VALUES ('Aiko', 'h', 1)").run()
      const series = db.prepare('INSERT INTO series (site, series_id, title, series_url, created_at) VALUES (?, ?, ?, ?, 1)')
      series.run('drifting', 'tide', 'Tide', `${fixture.origin}/moved/manga/tide/`)
      db.prepare(
        "INSERT INTO bookmarks (reader_id, site, series_id, created_at, updated_at) SELECT id, 'drifting', 'tide', 1, 1 FROM readers",
      ).run()
    }),
})

test('a permanent redirect to another host reaches the owner as a move; accepted, the next check reads the new host', async ({
  adminPage: page,
  shell,
}) => {
  // The Lane checks the Series, meets the 301 and does not follow it.
  await expect
    .poll(() => withDb(shell.dataFile, (db) => db.prepare("SELECT to_origin FROM site_moves WHERE site = 'drifting'").get()), {
      timeout: 20_000,
    })
    .toEqual({ to_origin: `http://${movedHost()}` })
  expect(fixture.hits.filter((h) => h.host === movedHost())).toEqual([])

  await page.reload()
  await expect(page.locator('li[data-lane="drifting"] [data-site-move]')).toContainText(
    `Drifting Scans seems to have moved: its pages answer with a permanent redirect to ${movedHost()}`,
  )
  await page.getByRole('link', { name: 'Answer on the Lanes page →' }).click()
  const move = page.locator('tr[data-lane="drifting"] [data-site-move]')
  await expect(move).toContainText('which the Lane does not follow')
  await move.getByRole('button', { name: `Move to ${movedHost()}` }).click()
  // Said to a screen reader through the page's live region.
  await expect(page.getByText(`Moved Drifting Scans to ${movedHost()}: its next check reads it there.`)).toBeAttached()
  await expect(move).toHaveCount(0)

  const written = JSON.parse(readFileSync(join(shell.dataDir, 'sites.json'), 'utf8')) as { sites: Array<{ key: string; hosts: string[] }> }
  expect(written.sites[0]).toMatchObject({ key: 'drifting', hosts: [movedHost(), fixture.host] })

  // Check now: the redirect is on the pin now, and the Series is read on the new host.
  await page.goto(`${shell.adminOrigin}/admin/#/series/drifting/tide`)
  const before = withDb(shell.dataFile, (db) => db.prepare("SELECT last_outcome_at AS at FROM series WHERE series_id = 'tide'").get()) as {
    at: number
  }
  await page.getByRole('button', { name: 'Check now' }).first().click()
  await expect
    .poll(() => withDb(shell.dataFile, (db) => db.prepare("SELECT last_outcome_at AS at FROM series WHERE series_id = 'tide'").get()), {
      timeout: 20_000,
    })
    .not.toEqual(before)
  await expect
    .poll(
      () => withDb(shell.dataFile, (db) => db.prepare("SELECT last_outcome, last_error, title FROM series WHERE series_id = 'tide'").get()),
      {
        timeout: 20_000,
      },
    )
    .toEqual({ last_outcome: 'chapter', last_error: '', title: 'Tide' })
  expect(fixture.hits.filter((h) => h.host === movedHost()).map((h) => h.path)).toContain('/madara/manga/tide/')
})

test("a Series whose page answered 'gone' three checks in a row says so on its page, with what the owner can do", async ({
  adminPage: page,
  shell,
}) => {
  withDb(shell.dataFile, (db) => {
    db.prepare(
      "INSERT INTO series (site, series_id, title, series_url, latest_checked_at, last_outcome, last_error, last_outcome_at, gone_checks, gone_since, gone_status, created_at) VALUES ('drifting', 'reef', 'Reef', ?, ?, 'error', 'HTTP 410', ?, 3, ?, 410, 1)",
    ).run(`${fixture.origin}/gone/manga/reef/?status=410`, Date.now(), Date.now(), Date.now() - 2 * 86_400_000)
  })
  await page.goto(`${shell.adminOrigin}/admin/#/series/drifting/reef`)
  await expect(page.locator('[data-detail-gone]')).toHaveText(
    'The Site answers “gone” (HTTP 410) for this page: 3 checks in a row, for 2 d — open the Site to find the Series, then change its URL here, or remove it.',
  )
  await expect(page.locator('[data-gone]').first()).toContainText('The Site answers “gone” (HTTP 410)')
})

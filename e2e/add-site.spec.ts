/**
 * Lanes → Add a Site in real Chromium against the real headless shell: a fixture site on a loopback host the app
 * has never seen is read, previewed, confirmed into sites.json, runs its Lane without a restart, and its Series
 * is bookmarked; a page the app cannot read says why and writes nothing.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { startFixtureSite, type FixtureSite } from '../src/main/demo/fixture-site'
import { withDb } from './support/db'
import { expect, test, useShell } from './support/fixtures'
import type { RunningShell } from './support/shell'

useShell({ args: ['--demo'], adminToken: 'e2e-admin-token-add-a-site-0123' })

/** A second fixture server: its host (127.0.0.1:<another port>) is on no Site's pin. */
let unknown: FixtureSite

test.beforeAll(async () => {
  unknown = await startFixtureSite()
})
test.afterAll(async () => {
  await unknown?.close()
})

/** From the signed-in window to the Lanes page, where a Site is added. */
async function lanesPage(page: Page) {
  await page.getByRole('link', { name: 'Lanes', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Add a Site' })).toBeVisible()
}

/** The demo keeps its own data directory, `<data>/demo`. */
const sitesFile = (shell: RunningShell) => join(shell.dataDir, 'demo', 'sites.json')

test('a page the app cannot read says why, and writes nothing', async ({ adminPage: page, shell }) => {
  await lanesPage(page)
  await page.getByLabel('Series URL').fill(`${unknown.origin}/no-chapters/manga/empty-shelf/`)
  await page.getByRole('button', { name: 'Read it' }).click()
  await expect(page.getByRole('alert')).toContainText(/no chapter/i)
  expect(existsSync(sitesFile(shell))).toBe(false)
})

test('the owner pastes one Series URL of an unknown site: preview, confirm, its Lane runs, and the Series is bookmarked', async ({
  adminPage: page,
  shell,
}) => {
  await lanesPage(page)
  const url = `${unknown.origin}/madara/manga/harbor-of-glass/`
  await page.getByLabel('Series URL').fill(url)
  await page.getByRole('button', { name: 'Read it' }).click()

  const proposal = page.getByLabel('The proposed Site')
  await expect(proposal).toContainText('Madara')
  await expect(proposal).toContainText('Harbor Of Glass')
  const chapters = proposal.getByRole('list', { name: 'Chapters read, highest first' }).getByRole('listitem')
  await expect(chapters.first()).toContainText(String(unknown.series('/madara/manga/harbor-of-glass/').latest))
  await proposal.getByLabel('Name').fill('Harbor Scans')
  await proposal.getByRole('button', { name: 'Add this Site' }).click()

  await expect(page.getByRole('status')).toContainText('Added Harbor Scans')
  await expect(page.getByRole('row', { name: /Harbor Scans/ })).toBeVisible()
  const written = JSON.parse(readFileSync(sitesFile(shell), 'utf8')) as { sites: Array<{ name: string; hosts: string[]; family: string }> }
  expect(written.sites).toEqual([expect.objectContaining({ name: 'Harbor Scans', hosts: [unknown.host], family: 'madara' })])

  await page.getByLabel('Reader').selectOption({ label: 'Aiko' })
  await page.getByRole('button', { name: 'Bookmark' }).click()
  await expect(page.getByRole('status')).toContainText('Bookmarked for Aiko')
  // The new Site's Series is read (in the background, in its Site's pace), and its Lane writes pass rows.
  await expect
    .poll(
      () =>
        withDb(shell.dataFile, (db) =>
          db.prepare("SELECT title FROM series WHERE series_id = 'harbor-of-glass' AND latest_checked_at > 0").get(),
        ) as { title: string } | undefined,
      { timeout: 20_000 },
    )
    .toEqual({ title: 'Harbor Of Glass' })
  await expect
    .poll(
      () =>
        (
          withDb(shell.dataFile, (db) =>
            db.prepare('SELECT COUNT(*) AS n FROM poll_passes p JOIN poll_lanes l USING (site) WHERE l.site NOT LIKE ?').get('fixture-%'),
          ) as {
            n: number
          }
        ).n,
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0)
})

test('a MangaThemesia page on another unknown host is recognised as MangaThemesia and added too', async ({ adminPage: page, shell }) => {
  const another = await startFixtureSite()
  try {
    await lanesPage(page)
    await page.getByLabel('Series URL').fill(`${another.origin}/themesia/manga/iron-bloom/`)
    await page.getByRole('button', { name: 'Read it' }).click()
    const proposal = page.getByLabel('The proposed Site')
    await expect(proposal).toContainText('MangaThemesia')
    await expect(proposal).toContainText('Iron Bloom')
    await proposal.getByRole('button', { name: 'Add this Site' }).click()
    await expect(page.getByRole('status')).toContainText('Added')
    const written = JSON.parse(readFileSync(sitesFile(shell), 'utf8')) as { sites: Array<{ hosts: string[]; family: string }> }
    expect(written.sites).toContainEqual(expect.objectContaining({ hosts: [another.host], family: 'mangathemesia' }))
  } finally {
    await another.close()
  }
})

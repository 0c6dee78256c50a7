/** The Readers' web page in real Chromium against the real headless shell with the demo Sites. */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { withDb } from './support/db'
import { startShell, tempData, type RunningShell } from './support/shell'

/** A Reader's Progress on a Series, beside its Latest Chapter, read from the shell's database. */
function progressOf(reader: string, seriesId: string): { progress: number; latest_chapter: number } {
  return withDb(shell.dataFile, (db) =>
    db
      .prepare(
        'SELECT b.progress, s.latest_chapter FROM bookmarks b JOIN readers r ON r.id = b.reader_id JOIN series s USING (site, series_id) WHERE r.name = ? AND b.series_id = ?',
      )
      .get(reader, seriesId),
  ) as { progress: number; latest_chapter: number }
}

/** Reloads until the Lane has read the card's Latest Chapter, so it can be marked read. */
async function waitUntilReadable(page: Page, card: Locator): Promise<void> {
  await expect(async () => {
    await page.reload()
    await expect(card.getByRole('button', { name: 'Mark read' })).toBeEnabled({ timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
}

let shell: RunningShell
let data: { dir: string; remove(): void }

test.beforeAll(async () => {
  data = tempData()
  shell = await startShell({ dataDir: data.dir, args: ['--demo'], env: { CHROMIUM_PATH: '/nonexistent' } })
})
test.afterAll(async () => {
  await shell?.stop()
  data?.remove()
})

test('a Reader signs in, sees a bookmark, marks it read and adds one by URL', async ({ page }) => {
  const token = shell.tokens.Ben!
  expect(token).toBeTruthy()
  await page.goto(shell.origin)
  await page.getByLabel('Your Reader token').fill(token)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByText('Ben', { exact: true })).toBeVisible()

  const card = page.locator('li.card', { hasText: 'The Tower Climber' })
  await expect(card).toBeVisible()
  await waitUntilReadable(page, card)
  await card.getByRole('button', { name: 'Mark read' }).click()
  await expect(card.getByRole('button', { name: 'Mark read' })).toBeDisabled()
  await expect(page.getByRole('status')).toHaveCount(0)

  const tower = progressOf('Ben', 'the-tower-climber')
  expect(tower.progress).toBe(tower.latest_chapter)

  // Add by URL: the Series is read at once (Acquisition) and listed.
  await page.getByLabel('Series URL').fill(`${shell.demoOrigin}/themesia/manga/brand-new-saga/`)
  await page.getByRole('button', { name: 'Add' }).click()
  await expect(page.locator('li.card', { hasText: 'Brand New Saga' })).toBeVisible()

  // A URL off every Site's pin is refused with a clear message.
  await page.getByLabel('Series URL').fill('https://evil.example/manga/x/')
  await page.getByRole('button', { name: 'Add' }).click()
  await expect(page.getByRole('alert')).toContainText("not a Series URL on any known Site's host pin")

  // The token stays in this browser: a reload keeps the Reader signed in.
  await page.reload()
  await expect(page.getByText('Ben', { exact: true })).toBeVisible()
})

test('a write made offline waits in the outbox and is sent when the page is back online', async ({ page, context }) => {
  await page.goto(shell.origin)
  await page.getByLabel('Your Reader token').fill(shell.tokens.Aiko!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const card = page.locator('li.card', { hasText: 'Moonlit Bakery' })
  await waitUntilReadable(page, card)

  await context.setOffline(true)
  await card.getByRole('button', { name: 'Mark read' }).click()
  await expect(page.getByRole('status')).toContainText('1 change waiting to sync')
  await context.setOffline(false)
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  await expect(page.getByRole('status')).toHaveCount(0)

  const bakery = progressOf('Aiko', 'moonlit-bakery')
  expect(bakery.progress).toBe(bakery.latest_chapter)
})

test('the page is served with a CSP that forbids framing', async ({ request }) => {
  const response = await request.get(shell.origin)
  expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(response.headers()['x-frame-options']).toBe('DENY')
})

test('after the first sync the page asks only for what changed: a removal and a change made elsewhere reach it', async ({ page }) => {
  const asked: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === '/api/v1/bookmarks' && request.method() === 'GET') asked.push(url.search)
  })
  await page.goto(shell.origin)
  await page.getByLabel('Your Reader token').fill(shell.tokens.Aiko!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const swordsmith = page.locator('li.card', { hasText: 'Quiet Swordsmith' })
  const harbor = page.locator('li.card', { hasText: 'Star Harbor' })
  await expect(swordsmith).toBeVisible()
  await expect(harbor).toBeVisible()
  expect(asked).toEqual([''])

  // Elsewhere (another device of Aiko's): one bookmark removed, one put on hold.
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${shell.origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${shell.tokens.Aiko!}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
  expect((await api('DELETE', '/api/v1/bookmarks/fixture-themesia/star-harbor')).status).toBe(204)
  expect((await api('PATCH', '/api/v1/bookmarks/fixture-madara/quiet-swordsmith', { status: 'waiting' })).status).toBe(200)

  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  await expect(harbor).toHaveCount(0)
  await expect(swordsmith).toContainText('waiting')
  expect(asked.slice(1).every((search) => /^\?since=\d+$/.test(search))).toBe(true)
  // The rest of the list is still there, not replaced by the few rows of a changes-only answer.
  await expect(page.locator('li.card', { hasText: 'Moonlit Bakery' })).toBeVisible()
})

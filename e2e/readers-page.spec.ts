/** The Readers' web page in real Chromium against the real headless shell with the demo Sites. */
import { type Locator, type Page } from '@playwright/test'
import { expect, test, useShell } from './support/fixtures'
import type { RunningShell } from './support/shell'
import { withDb } from './support/db'

/** A Reader's Progress on a Series, beside its Latest Chapter, read from the shell's database. */
function progressOf(shell: RunningShell, reader: string, seriesId: string): { progress: number | null; latest_chapter: number } {
  return withDb(shell.dataFile, (db) =>
    db
      .prepare(
        'SELECT b.progress, s.latest_chapter FROM bookmarks b JOIN readers r ON r.id = b.reader_id JOIN series s USING (site, series_id) WHERE r.name = ? AND b.series_id = ?',
      )
      .get(reader, seriesId),
  ) as { progress: number | null; latest_chapter: number }
}

/** Reloads until the Lane has read the card's Latest Chapter, so it can be marked read. */
async function waitUntilReadable(page: Page, card: Locator): Promise<void> {
  await expect(async () => {
    await page.reload()
    await expect(card.getByRole('button', { name: 'Mark read' })).toBeEnabled({ timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
}

async function signIn(shell: RunningShell, page: Page, token: string): Promise<void> {
  await page.goto(shell.origin)
  await page.getByLabel('Your Reader token').fill(token)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
}

useShell({ args: ['--demo'] })

test('a Reader signs in, sees a bookmark, marks it read and adds one by URL', async ({ page, shell }) => {
  const token = shell.tokens.Ben!
  expect(token).toBeTruthy()
  await signIn(shell, page, token)
  await expect(page.getByText('Ben', { exact: true })).toBeVisible()
  await expect(page).toHaveTitle("Ben's bookmarks · Manga Bookmark")
  // Signing in moves focus to the list.
  await expect(page.getByRole('heading', { name: /Your bookmarks/ })).toBeFocused()

  const card = page.locator('li.card', { hasText: 'The Tower Climber' })
  await expect(card).toBeVisible()
  await waitUntilReadable(page, card)
  // Say why (issue 43): the card says when the app last checked the Series.
  await expect(card.locator('[data-checked]')).toHaveText(/^· checked \d+ (s|min) ago$/)
  const latest = Number(/Latest (\d+)/.exec((await card.textContent()) ?? '')?.[1])
  await card.getByRole('button', { name: 'Mark read' }).click()
  await expect(card.getByRole('button', { name: 'Mark read' })).toBeDisabled()
  await expect(page.getByRole('status')).toHaveCount(0)

  // Sent once its few seconds of Undo have passed: Progress is the Latest Chapter the card showed.
  await expect.poll(() => progressOf(shell, 'Ben', 'the-tower-climber').progress, { timeout: 15_000 }).toBe(latest)

  // Add by URL: listed at once, and filled in when the Acquisition has read it (in its Lane's turn, up to a gap).
  await page.getByLabel('Series URL').fill(`${shell.demoOrigin}/themesia/manga/brand-new-saga/`)
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.locator('li.card', { hasText: 'brand-new-saga' })).toContainText('Being read by the app…')
  await expect(page.locator('li.card', { hasText: 'Brand New Saga' })).toBeVisible({ timeout: 30_000 })

  // A URL off every Site's pin is refused with a clear message.
  await page.getByLabel('Series URL').fill('https://evil.example/manga/x/')
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByRole('alert')).toContainText('The app does not follow this site')
  await expect(page.getByRole('alert')).not.toContainText('host pin')

  // The token stays in this browser: a reload keeps the Reader signed in.
  await page.reload()
  await expect(page.getByText('Ben', { exact: true })).toBeVisible()
})

test('a wrong token says so on the sign-in form, and focus stays in the token field', async ({ page, shell }) => {
  await page.goto(shell.origin)
  await expect(page).toHaveTitle('Sign in · Manga Bookmark')
  await page.getByLabel('Your Reader token').fill('not-a-token-anyone-was-given')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toContainText('That token is not known here')
  await expect(page.getByLabel('Your Reader token')).toBeFocused()
  await expect(page.getByLabel('Your Reader token')).toHaveAttribute('aria-invalid', 'true')
})

test('the sign-in link signs in from the address and drops the token from it', async ({ page, shell }) => {
  await page.goto(`${shell.origin}/#token=${encodeURIComponent(shell.tokens.Aiko!)}`)
  await expect(page.getByText('Aiko', { exact: true })).toBeVisible()
  expect(new URL(page.url()).hash).toBe('')
  expect(await page.evaluate(() => localStorage.getItem('mb.token'))).toBe(shell.tokens.Aiko)
})

test('a sign-in link opened in a tab that already shows the page signs in too, and drops the token from the address', async ({
  page,
  shell,
}) => {
  await page.goto(shell.origin)
  await expect(page.getByLabel('Your Reader token')).toBeVisible()
  // Only the fragment changes: no load, as when a scanned link opens in the tab the phone had open.
  await page.evaluate((token) => (location.hash = `#token=${encodeURIComponent(token)}`), shell.tokens.Aiko!)
  await expect(page.getByText('Aiko', { exact: true })).toBeVisible()
  await expect(page.getByLabel('Your Reader token')).toHaveCount(0)
  expect(new URL(page.url()).hash).toBe('')
})

test('Mark read offers Undo for a few seconds; Undo takes it back before anything is written', async ({ page, shell }) => {
  await signIn(shell, page, shell.tokens.Aiko!)
  const card = page.locator('li.card', { hasText: 'Quiet Swordsmith' })
  await waitUntilReadable(page, card)
  const before = progressOf(shell, 'Aiko', 'quiet-swordsmith').progress
  const position = async () => (await page.locator('li.card').allTextContents()).findIndex((t) => t.includes('Quiet Swordsmith'))
  const at = await position()

  await card.getByRole('button', { name: 'Mark read' }).click()
  // The card stays where it was (no re-sort under the pointer); Undo has the focus.
  expect(await position()).toBe(at)
  await expect(card.getByRole('button', { name: 'Undo' })).toBeFocused()
  await expect(card).toContainText(/read up to chapter \d+/)
  await page.keyboard.press('Enter')
  await expect(card.getByRole('button', { name: 'Undo' })).toHaveCount(0)
  await expect(card.getByRole('button', { name: 'Mark read' })).toBeEnabled()
  await expect(card.getByRole('button', { name: 'Mark read' })).toBeFocused()
  await page.waitForTimeout(7_000)
  expect(progressOf(shell, 'Aiko', 'quiet-swordsmith').progress).toBe(before)
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('mb.outbox') ?? '[]').length)).toBe(0)
})

test('read up to a chapter of the Reader’s choosing; search and sort the list', async ({ page, shell }) => {
  await signIn(shell, page, shell.tokens.Aiko!)
  const card = page.locator('li.card', { hasText: 'Tidal Hearts' })
  await waitUntilReadable(page, card)
  const latest = Number(/Latest (\d+)/.exec((await card.textContent()) ?? '')?.[1])
  await card.getByText('Chapters', { exact: true }).click()
  await card.locator(`li[data-chapter="${latest - 2}"] button`).click()
  await expect(card).toContainText(`read up to chapter ${latest - 2}`)
  await expect(card.locator('.badge')).toHaveText('2 unread')
  await expect.poll(() => progressOf(shell, 'Aiko', '5150').progress, { timeout: 15_000 }).toBe(latest - 2)

  await page.getByPlaceholder('Search your bookmarks').fill('tidal')
  await expect(page.locator('li.card')).toHaveCount(1)
  await expect(page.getByRole('heading', { name: /Your bookmarks/ })).toContainText('(1 found)')
  await page.getByPlaceholder('Search your bookmarks').fill('')
  await page.getByLabel('Sort by').selectOption('title')
  const titles = (await page.locator('li.card .title').allTextContents()).map((t) => t.trim())
  expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)))
})

test('a write made offline waits in the outbox and is sent when the page is back online', async ({ page, context, shell }) => {
  await signIn(shell, page, shell.tokens.Aiko!)
  const card = page.locator('li.card', { hasText: 'Moonlit Bakery' })
  await waitUntilReadable(page, card)

  await context.setOffline(true)
  await card.getByRole('button', { name: 'Mark read' }).click()
  await expect(page.getByRole('status')).toContainText('1 change waiting to sync')
  await context.setOffline(false)
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  await expect(page.getByRole('status')).toHaveCount(0)

  const bakery = progressOf(shell, 'Aiko', 'moonlit-bakery')
  expect(bakery.progress).toBe(bakery.latest_chapter)
})

test('the page opens offline after a reload: the service worker serves it, the list is the one last synced', async ({
  page,
  context,
  shell,
}) => {
  await signIn(shell, page, shell.tokens.Ben!)
  await expect(page.locator('li.card').first()).toBeVisible()
  const shown = await page.locator('li.card').count()
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  // The worker controls the page from the next load on.
  await page.reload()
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true)

  await context.setOffline(true)
  await page.reload()
  await expect(page.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
  await expect(page.locator('li.card')).toHaveCount(shown)
  await expect(page.locator('[data-offline]')).toContainText('Offline: this is your list as synced')
  await context.setOffline(false)
})

test('a change made offline is drawn over the list after an offline reload, and sent once back online', async ({
  page,
  context,
  shell,
}) => {
  await signIn(shell, page, shell.tokens.Aiko!)
  const card = page.locator('li.card', { hasText: 'Paper Dragon' })
  await waitUntilReadable(page, card)
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.reload()
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true)
  await expect(card.locator('.badge')).toBeVisible()
  const latest = Number(/Latest (\d+)/.exec((await card.textContent()) ?? '')?.[1])

  await context.setOffline(true)
  await card.getByRole('button', { name: 'Mark read' }).click()
  await page.reload()
  // The list as last synced, with the Mark read still waiting drawn over it: no "new" badge comes back.
  await expect(page.locator('[data-offline]')).toBeVisible()
  await expect(page.getByRole('status')).toContainText('1 change waiting to sync')
  await expect(card).toContainText(`read up to chapter ${latest}`)
  await expect(card.locator('.badge')).toHaveCount(0)

  await context.setOffline(false)
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  await expect.poll(() => progressOf(shell, 'Aiko', 'paper-dragon').progress, { timeout: 20_000 }).toBe(latest)
})

test('the page is installable on a phone’s home screen: a manifest, icons and a worker that Chromium accepts', async ({ page, shell }) => {
  await page.goto(shell.origin)
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  const manifest = await (await page.request.get(`${shell.origin}/manifest.webmanifest`)).json()
  expect(manifest).toMatchObject({ start_url: '/', display: 'standalone' })
  for (const icon of manifest.icons as Array<{ src: string }>) {
    const response = await page.request.get(`${shell.origin}${icon.src}`)
    expect(response.headers()['content-type']).toBe('image/png')
  }
  // Chromium's own verdict. Playwright's contexts are incognito, which alone keeps a page from being installed.
  const cdp = await page.context().newCDPSession(page)
  const errors = async () =>
    ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> }).installabilityErrors
      .map((e) => e.errorId)
      .filter((id) => id !== 'in-incognito')
  await expect.poll(errors).toEqual([])
})

test('the page is served with a CSP that forbids framing', async ({ request, shell }) => {
  const response = await request.get(shell.origin)
  expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(response.headers()['x-frame-options']).toBe('DENY')
})

test('after the first sync the page asks only for what changed: a removal and a change made elsewhere reach it', async ({
  page,
  shell,
}) => {
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

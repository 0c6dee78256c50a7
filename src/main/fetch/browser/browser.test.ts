/**
 * The browser fetcher on real Chromium (Debian's /usr/bin/chromium) against the fixture site. The Lanes
 * keep a fake clock; the browser works in real time.
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs'
import { SitePacer } from '../../lanes/pacer'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { systemClock } from '../../clock'
import { fixtureSites } from '../../demo/fixture-sites'
import { startFixtureSite, type FixtureSite } from '../../demo/fixture-site'
import { startHeadlessShell } from '../../headless/shell'
import { runPass, type PassResult } from '../../lanes/pass'
import { silentLog } from '../../log'
import type { Site } from '../../sites/site'
import { addBookmark } from '../../store/bookmarks'
import { laneRow } from '../../store/lanes'
import { addSeries, forceSeriesPoll, requireSeries } from '../../store/series'
import { FakeClock } from '../../testing/clock'
import { browserMainProcess, processesMentioning } from '../../testing/processes'
import { openTestStore, seedReader, tempDir, type TestStore } from '../../testing/store'
import { BrowserHealth } from '../browser-health'
import type { BrowserFetcher } from '../fetcher'
import { createHttpFetcher } from '../http-fetcher'
import { createBrowserFetcher } from './browser-fetcher'
import { playwrightLauncher, resolveChromium } from './playwright-launcher'

const CHROMIUM = resolveChromium(undefined)
const HOUR = 3_600_000

if (!CHROMIUM) throw new Error('These tests need Chromium: apt-get install -y chromium (CI installs it), or set CHROMIUM_PATH')

let store: TestStore
let clock: FakeClock
let fixture: FixtureSite
let sites: Map<string, Site>
let profile: string
let browser: BrowserFetcher & { launches: number }
let health: BrowserHealth
let alice: number
const http = createHttpFetcher({ timeoutMs: 5_000 })

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  fixture = await startFixtureSite({ now: () => clock.now() })
  sites = new Map(fixtureSites(fixture.host, { maxPassMs: 24 * HOUR }).map((s) => [s.key, s]))
  profile = join(store.dir, 'browser-profile')
  browser = createBrowserFetcher({
    launcher: playwrightLauncher({ executablePath: CHROMIUM, userDataDir: profile }),
    clock: systemClock,
    log: silentLog,
    challengeTimeoutMs: 2_500,
  })
  health = new BrowserHealth(clock)
  alice = await seedReader(store.db, 'alice')
})
afterEach(async () => {
  await browser.close()
  await fixture.close()
  await store.dispose()
})

const site = (key: string) => sites.get(key)!

async function bookmark(siteKey: string, path: string, over: { checkedAt?: number } = {}) {
  const url = `${fixture.origin}${path}`
  const seriesId = site(siteKey).seriesIdOf(new URL(url))!
  await addSeries(store.db, { site: siteKey, seriesId, seriesUrl: url, now: 1 })
  if (over.checkedAt)
    await store.db.updateTable('series').set({ latest_checked_at: over.checkedAt }).where('series_id', '=', seriesId).execute()
  await addBookmark(store.db, { site: siteKey, seriesId, readerId: alice, now: 1 })
  return { site: siteKey, seriesId }
}

async function onePass(s: Site, fetchers: { browser?: BrowserFetcher } = { browser }): Promise<PassResult> {
  let result: PassResult | undefined
  const running = runPass(
    { db: store.db, site: s, fetchers: { http, ...fetchers }, health, pacer: new SitePacer(clock), clock, log: silentLog },
    new AbortController().signal,
  ).then((r) => (result = r))
  await clock.runUntil(() => result !== undefined, { realMs: 30_000 })
  await running
  return result!
}

describe('browser Sites on real Chromium', () => {
  it('pass the JS challenge; a second Series on the host does not meet it again', async () => {
    const one = await bookmark('fixture-challenge', '/js-challenge/manga/one/')
    const two = await bookmark('fixture-challenge', '/js-challenge/manga/two/')
    const result = await onePass(site('fixture-challenge'))
    expect(result.row).toMatchObject({ skip: '', due: 2, checked: 2, refused: 0, errors: 0, no_chapter: 0 })
    expect((await requireSeries(store.db, one)).latest_chapter).toBe(fixture.series('/js-challenge/manga/one/').latest)
    expect((await requireSeries(store.db, two)).latest_chapter).toBe(fixture.series('/js-challenge/manga/two/').latest)
    const pages = fixture.hits.filter((h) => h.path.startsWith('/js-challenge/')).map((h) => h.path)
    // The first Series meets the challenge and reloads once it is solved; the second goes straight through.
    expect(pages).toEqual(['/js-challenge/manga/one/', '/js-challenge/manga/one/', '/js-challenge/manga/two/'])
  })

  it('the same challenge on a plain-HTTP Site is refused', async () => {
    sites.set('fixture-challenge', { ...site('fixture-challenge'), fetcher: 'http' })
    await bookmark('fixture-challenge', '/js-challenge/manga/one/')
    expect((await onePass(site('fixture-challenge'))).row).toMatchObject({ checked: 1, refused: 1 })
  })

  it('the cookie partition keeps the pass across a browser restart', async () => {
    await bookmark('fixture-challenge', '/js-challenge/manga/one/')
    await onePass(site('fixture-challenge'))
    await browser.close()
    const again = createBrowserFetcher({
      launcher: playwrightLauncher({ executablePath: CHROMIUM, userDataDir: profile }),
      clock: systemClock,
      log: silentLog,
    })
    try {
      const before = fixture.hits.length
      const result = await again.fetch({ url: `${fixture.origin}/js-challenge/manga/three/`, method: 'GET' }, site('fixture-challenge'))
      expect(result.kind).toBe('page')
      const pages = fixture.hits.slice(before).filter((h) => h.path.startsWith('/js-challenge/'))
      expect(pages.map((h) => h.path)).toEqual(['/js-challenge/manga/three/'])
    } finally {
      await again.close()
    }
  })

  it('a challenge that never clears is refused within the timeout and the Lane backs off durably', async () => {
    sites.set('fixture-refusing', { ...site('fixture-refusing'), fetcher: 'browser' })
    await bookmark('fixture-refusing', '/never-clears/manga/grumpy/')
    const started = Date.now()
    const result = await onePass(site('fixture-refusing'))
    expect(Date.now() - started).toBeLessThan(2_500 + 10_000)
    expect(result.row).toMatchObject({ skip: '', checked: 1, refused: 1 })
    expect((await laneRow(store.db, 'fixture-refusing')).refuse_until).toBe(clock.now() + 900_000)
    expect((await onePass(site('fixture-refusing'))).row?.skip).toBe('refusing')
  })

  it('a navigation off the pinned host is blocked before it is requested', async () => {
    const trouble = { ...site('fixture-trouble'), fetcher: 'browser' as const }
    const result = await browser.fetch({ url: `${fixture.origin}/redirect-off/manga/away/`, method: 'GET' }, trouble)
    expect(result).toMatchObject({ kind: 'error', reason: expect.stringMatching(/off the host pin/) })
    expect(fixture.hits.map((h) => h.host)).toEqual([fixture.host])
  })

  it('loads nothing off the pin: no script, image, frame or XHR of another host', async () => {
    const leaky = { ...site('fixture-trouble'), fetcher: 'browser' as const }
    const result = await browser.fetch({ url: `${fixture.origin}/leaky/manga/leaks/`, method: 'GET' }, leaky)
    expect(result.kind).toBe('page')
    await new Promise((r) => setTimeout(r, 300))
    expect(new Set(fixture.hits.map((h) => h.host))).toEqual(new Set([fixture.host]))
  })

  it('a page that never yields is given up at the deadline as an error, and the next fetch works', async () => {
    const quick = createBrowserFetcher({
      launcher: playwrightLauncher({ executablePath: CHROMIUM, userDataDir: profile }),
      clock: systemClock,
      log: silentLog,
      navigationTimeoutMs: 2_000,
      challengeTimeoutMs: 500,
      deadlineMarginMs: 500,
    })
    const trouble = { ...site('fixture-trouble'), fetcher: 'browser' as const }
    try {
      const started = Date.now()
      const stuck = await quick.fetch({ url: `${fixture.origin}/busy/manga/spin/`, method: 'GET' }, trouble)
      expect(stuck).toMatchObject({ kind: 'error' })
      expect(Date.now() - started).toBeLessThan(10_000)
      const next = await quick.fetch({ url: `${fixture.origin}/madara/manga/after/`, method: 'GET' }, site('fixture-madara'))
      expect(next.kind).toBe('page')
    } finally {
      await quick.close()
    }
  })

  it('a document over the body cap is an error', async () => {
    const capped = createBrowserFetcher({
      launcher: playwrightLauncher({ executablePath: CHROMIUM, userDataDir: profile }),
      clock: systemClock,
      log: silentLog,
      maxBodyBytes: 256 * 1024,
    })
    try {
      const result = await capped.fetch(
        { url: `${fixture.origin}/huge/manga/big/`, method: 'GET' },
        { ...site('fixture-trouble'), fetcher: 'browser' },
      )
      expect(result).toMatchObject({ kind: 'error', reason: expect.stringMatching(/body larger than/) })
    } finally {
      await capped.close()
    }
  })

  it("dates a page and an XHR list by the Site's own clock (its Date header), as HTTP does", async () => {
    const xhr = { ...site('fixture-madara-xhr'), fetcher: 'browser' as const }
    const page = await browser.fetch({ url: `${fixture.origin}/madara-xhr/manga/lantern-one/`, method: 'GET' }, xhr)
    const list = await browser.fetch(
      { url: `${fixture.origin}/madara-xhr/manga/lantern-one/ajax/chapters/`, method: 'POST', body: '' },
      xhr,
    )
    for (const result of [page, list]) {
      expect(result.kind).toBe('page')
      // The fixture server runs on the real clock, to the second.
      const date = result.kind === 'page' ? result.page.date : undefined
      expect(Math.abs(date! - Date.now())).toBeLessThan(60_000)
    }
  })

  it('two browser Lanes at once: each check keeps the tab (a Madara XHR list is read from its own page)', async () => {
    await bookmark('fixture-madara-xhr', '/madara-xhr/manga/lantern-one/')
    await bookmark('fixture-madara-xhr', '/madara-xhr/manga/lantern-two/')
    await bookmark('fixture-madara', '/madara/manga/plain-one/')
    await bookmark('fixture-madara', '/madara/manga/plain-two/')
    const xhr = { ...site('fixture-madara-xhr'), fetcher: 'browser' as const }
    const plain = { ...site('fixture-madara'), fetcher: 'browser' as const }
    const [a, b] = await Promise.all([onePass(xhr), onePass(plain)])
    expect(a.row).toMatchObject({ checked: 2, errors: 0, no_chapter: 0 })
    expect(b.row).toMatchObject({ checked: 2, errors: 0, no_chapter: 0 })
    expect((await requireSeries(store.db, { site: 'fixture-madara-xhr', seriesId: 'lantern-two' })).latest_chapter).toBe(
      fixture.series('/madara-xhr/manga/lantern-two/').latest,
    )
  })

  it('killing the browser mid-pass: unreachable, an empty-skip row, sidecar-down on a sibling, and a browser again later', async () => {
    await bookmark('fixture-challenge', '/js-challenge/manga/slow/?delay=4000')
    await bookmark('fixture-madara', '/madara/manga/sibling/')
    sites.set('fixture-madara', { ...site('fixture-madara'), fetcher: 'browser' })
    let result: PassResult | undefined
    const running = runPass(
      {
        db: store.db,
        site: site('fixture-challenge'),
        fetchers: { http, browser },
        health,
        pacer: new SitePacer(clock),
        clock,
        log: silentLog,
      },
      new AbortController().signal,
    ).then((r) => (result = r))
    await clock.runUntil(() => fixture.hits.some((h) => h.path.includes('/slow/')), { realMs: 30_000 })
    const main = browserMainProcess(profile)
    expect(main).toBeDefined()
    process.kill(main!.pid, 'SIGKILL')
    await clock.runUntil(() => result !== undefined, { realMs: 30_000 })
    await running
    expect(result!.row).toMatchObject({ skip: '', due: 1, checked: 0, unreachable: 1 })
    expect(health.isDown()).toBe(true)
    expect((await onePass(site('fixture-madara'))).row?.skip).toBe('sidecar-down')
    // After the window a later pass starts the browser again and reads the Site.
    await clock.advance(health.windowMs)
    const again = await onePass(site('fixture-madara'))
    expect(again.row).toMatchObject({ skip: '', checked: 1, errors: 0 })
    expect(browser.launches).toBe(2)
  })

  it('asleep: under both thresholds nothing is launched; a forced Series launches it', async () => {
    const key = await bookmark('fixture-challenge', '/js-challenge/manga/dozing/', { checkedAt: clock.now() - 2 * HOUR })
    expect((await onePass(site('fixture-challenge'))).row?.skip).toBe('asleep')
    expect(browser.launches).toBe(0)
    expect(processesMentioning(profile)).toEqual([])
    await forceSeriesPoll(store.db, key, clock.now())
    expect((await onePass(site('fixture-challenge'))).row).toMatchObject({ skip: '', checked: 1 })
    expect(browser.launches).toBe(1)
  })

  it('sleeps after its idle period: the browser closes and its processes end', async () => {
    const idleClock = new FakeClock()
    const dozy = createBrowserFetcher({
      launcher: playwrightLauncher({ executablePath: CHROMIUM, userDataDir: profile }),
      clock: idleClock,
      log: silentLog,
      idleMs: 120_000,
    })
    try {
      expect((await dozy.fetch({ url: `${fixture.origin}/madara/manga/nap/`, method: 'GET' }, site('fixture-madara'))).kind).toBe('page')
      expect(dozy.isAwake()).toBe(true)
      expect(processesMentioning(profile).length).toBeGreaterThan(0)
      await idleClock.advance(119_000)
      expect(dozy.isAwake()).toBe(true)
      await idleClock.advance(1_000)
      await waitFor(() => !dozy.isAwake() && processesMentioning(profile).length === 0)
    } finally {
      await dozy.close()
    }
  })
})

describe('stopping the browser fetcher', () => {
  it('during a check: close() ends it at once, the caller gets "aborted", and no browser process is left', async () => {
    const trouble = { ...site('fixture-trouble'), fetcher: 'browser' as const }
    const check = browser.fetch({ url: `${fixture.origin}/hang/manga/forever/`, method: 'GET' }, trouble)
    await waitFor(() => fixture.hits.some((h) => h.path.startsWith('/hang/')), 30_000)
    const started = Date.now()
    await browser.close()
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(await check).toEqual({ kind: 'error', reason: 'aborted' })
    expect(processesMentioning(profile)).toEqual([])
    expect(await browser.fetch({ url: `${fixture.origin}/madara/manga/late/`, method: 'GET' }, trouble)).toMatchObject({
      kind: 'unreachable',
    })
  })

  it('during a launch: close() returns at once, and the browser is closed as soon as it is up', async () => {
    // A Chromium that takes a second and a half to start, and says when it begins.
    const slow = join(store.dir, 'slow-chromium')
    const launching = join(store.dir, 'launching')
    writeFileSync(
      slow,
      `#!/bin/sh\ncase " $* " in *" --version "*) exec ${CHROMIUM} --version;; esac\ntouch ${launching}\nsleep 1.5\nexec ${CHROMIUM} "$@"\n`,
    )
    chmodSync(slow, 0o755)
    const starting = createBrowserFetcher({
      launcher: playwrightLauncher({ executablePath: slow, userDataDir: profile }),
      clock: systemClock,
      log: silentLog,
    })
    const check = starting.fetch(
      { url: `${fixture.origin}/madara/manga/never/`, method: 'GET' },
      { ...site('fixture-madara'), fetcher: 'browser' },
    )
    await waitFor(() => existsSync(launching), 10_000)
    const started = Date.now()
    await starting.close()
    expect(Date.now() - started).toBeLessThan(500)
    expect(await check).toEqual({ kind: 'error', reason: 'aborted' })
    // Once up, it is closed: its processes come and go, and it never read the page.
    await waitFor(() => processesMentioning(profile).length > 0, 10_000)
    await waitFor(() => processesMentioning(profile).length === 0, 10_000)
    expect(fixture.hits).toEqual([])
  })
})

describe('the headless shell with --chromium', () => {
  it('reads a browser Site behind the JS challenge and leaves no Chromium process after it stops', async () => {
    const d = tempDir()
    try {
      // The real clock: the Series is due at once, so the first pass fetches it with no gap to wait.
      const shell = await startHeadlessShell({
        dataDir: d.dir,
        port: 0,
        log: silentLog,
        chromium: CHROMIUM,
        sites: [site('fixture-challenge')],
        lanes: false,
      })
      const url = `${fixture.origin}/js-challenge/manga/shell/`
      await addSeries(shell.core.store.db, { site: 'fixture-challenge', seriesId: 'shell', seriesUrl: url, now: 1 })
      const reader = await seedReader(shell.core.store.db, 'shell-reader')
      await addBookmark(shell.core.store.db, { site: 'fixture-challenge', seriesId: 'shell', readerId: reader, now: 1 })
      await shell.core.startLanes()
      await waitFor(() => fixture.hits.filter((h) => h.path === '/js-challenge/manga/shell/').length >= 2, 30_000)
      await waitFor(
        async () => (await requireSeries(shell.core.store.db, { site: 'fixture-challenge', seriesId: 'shell' })).latest_chapter !== null,
      )
      const shellProfile = join(d.dir, 'browser-profile')
      expect(processesMentioning(shellProfile).length).toBeGreaterThan(0)
      await shell.stop()
      expect(processesMentioning(shellProfile)).toEqual([])
    } finally {
      d.remove()
    }
  })
})

/** Polls a real-world condition (a process ending, a page loading) every 50 ms. */
async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now()
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 50))
  }
}

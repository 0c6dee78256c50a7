/**
 * A Lane pass at its edges (docs/design.md#the-lane-pass): which Series the due query hands it, when a pass
 * stops taking Series, which Lanes the browser's state concerns, and how long a Lane sleeps after each pass.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BrowserHealth } from '../fetch/browser-health'
import type { Fetchers } from '../fetch/fetcher'
import { silentLog } from '../log'
import type { Site } from '../sites/site'
import { pauseLane, recordRefusal } from '../store/lanes'
import { FakeClock } from '../testing/clock'
import { FakeBrowser, FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type SeedSeries, type TestStore } from '../testing/store'
import { SitePacer } from './pacer'
import { runPass, type PassDeps } from './pass'

const MIN = 60_000
const HOUR = 60 * MIN

let store: TestStore
let clock: FakeClock
let http: FakeFetcher
let health: BrowserHealth
let alice: number
let bob: number

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  http = new FakeFetcher('http', clock)
  health = new BrowserHealth(clock)
  alice = await seedReader(store.db, 'alice')
  bob = await seedReader(store.db, 'bob')
})
afterEach(() => store.dispose())

const now = () => clock.now()
const roomy = { pace: { maxPassMs: 24 * HOUR } }
const seed = (s: Omit<SeedSeries, 'readers'> & { readers?: number[] }) => seedSeries(store.db, { readers: [alice], ...s })

/** Runs one pass, moving the fake clock through its gap waits; `checked` lists the Series it checked, in order. */
async function pass(site: Site, fetchers: Partial<Fetchers> = {}, pacer = new SitePacer(clock)) {
  const checked: string[] = []
  const deps: PassDeps = {
    db: store.db,
    site,
    fetchers: { http, ...fetchers },
    health,
    pacer,
    clock,
    log: silentLog,
    onCheck: (series) => checked.push(series.series_id),
  }
  let result: Awaited<ReturnType<typeof runPass>> | undefined
  const running = runPass(deps, new AbortController().signal).then((r) => (result = r))
  await clock.runUntil(() => result !== undefined)
  await running
  return { ...result!, checked }
}

describe('the Series a pass is given', () => {
  it('a Series sighted by its one Reader is left for a rest, until its last check is a ceiling old', async () => {
    await seed({ id: 'deferred', checkedAt: now() - 23 * HOUR, sightedAt: now() - 10 * MIN })
    await seed({ id: 'past-ceiling', checkedAt: now() - 25 * HOUR, sightedAt: now() - 10 * MIN })
    const result = await pass(testSite('a', roomy))
    expect(result.checked).toEqual(['past-ceiling'])
    expect(result.row).toMatchObject({ due: 1 })
  })

  it('a Series checked within the rest is not checked again; one checked a rest ago is', async () => {
    await seed({ id: 'recent', checkedAt: now() - 59 * MIN })
    await seed({ id: 'rested', checkedAt: now() - HOUR })
    const result = await pass(testSite('a', roomy))
    expect(result.checked).toEqual(['rested'])
  })

  it('takes a forced Series before the others, and the others after it', async () => {
    await seed({ id: 'old', checkedAt: now() - 5 * HOUR })
    await seed({ id: 'two-readers', checkedAt: now() - 2 * HOUR, readers: [alice, bob] })
    await seed({ id: 'forced', checkedAt: now() - MIN, forcedAt: now() })
    const result = await pass(testSite('a', roomy))
    expect(result.checked).toEqual(['forced', 'two-readers', 'old'])
    expect(result.row).toMatchObject({ due: 3, checked: 3 })
  })
})

describe('when a pass stops taking Series (maxPassMs)', () => {
  it('a Series that would start exactly at maxPassMs is left to the next pass', async () => {
    for (let i = 0; i < 6; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    // rest 6 min / 6 eligible → a 1 min gap: checks at 0, 1, 2 min; the fourth would start at 3 min = maxPassMs.
    const site = testSite('a', { pace: { restMs: 6 * MIN, minGapMs: 1_000, maxPassMs: 3 * MIN } })
    const result = await pass(site)
    expect(result.checked).toEqual(['s0', 's1', 's2'])
    expect(result.sleepMs).toBe(0)
  })

  it('the first Series is taken even when its gap is longer than maxPassMs', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    await seed({ id: 'y', checkedAt: 2 })
    const pacer = new SitePacer(clock)
    // The previous request a moment ago: this pass waits a 5 min gap, longer than its 1 min maxPassMs.
    pacer.seed('a', now())
    const result = await pass(testSite('a', { pace: { maxPassMs: MIN } }), {}, pacer)
    expect(result.checked).toEqual(['x'])
    expect(http.calls.map((c) => c.at - result.row!.started_at)).toEqual([5 * MIN])
  })
})

describe('the browser concerns browser Lanes only', () => {
  it('an HTTP Lane works while the browser is down', async () => {
    await seed({ id: 'x' })
    health.markDown()
    const browser = new FakeBrowser(clock)
    const result = await pass(testSite('a'), { browser })
    expect(result.row).toMatchObject({ skip: '', checked: 1 })
    expect(http.calls).toHaveLength(1)
    expect(browser.calls).toEqual([])
  })

  it('an HTTP Lane works under the wake thresholds while the browser sleeps', async () => {
    await seed({ id: 'x', checkedAt: now() - 2 * HOUR })
    const browser = new FakeBrowser(clock)
    const result = await pass(testSite('a'), { browser })
    expect(result.row).toMatchObject({ skip: '', checked: 1 })
    expect(browser.launches).toBe(0)
  })

  it('a forced Series among unforced ones, under both thresholds, wakes the browser for all of them', async () => {
    await seed({ id: 'a1', checkedAt: now() - 2 * HOUR })
    await seed({ id: 'a2', checkedAt: now() - 2 * HOUR })
    await seed({ id: 'forced', checkedAt: now() - MIN, forcedAt: now() })
    const browser = new FakeBrowser(clock)
    const result = await pass(testSite('a', { fetcher: 'browser', ...roomy }), { browser })
    expect(result.row).toMatchObject({ skip: '', due: 3, checked: 3 })
    expect(browser.launches).toBe(1)
  })

  it('a sleeping browser wakes once the oldest due Series has waited exactly wakeOldestMs, not a moment before', async () => {
    await seed({ id: 'x', checkedAt: now() - 3 * HOUR + 1 })
    const browser = new FakeBrowser(clock)
    const site = testSite('a', { fetcher: 'browser' })
    expect((await pass(site, { browser })).row?.skip).toBe('asleep')
    await clock.advance(1)
    expect((await pass(site, { browser })).row).toMatchObject({ skip: '', checked: 1 })
  })
})

describe('the sleep after a pass', () => {
  it('after a pass that made a request: straight on, ready for what comes due next', async () => {
    await seed({ id: 'x' })
    expect((await pass(testSite())).sleepMs).toBe(0)
  })

  it('after a pass whose checks made no request: the idle re-query, as after nothing due', async () => {
    await seed({ id: 'x', url: 'https://elsewhere.example/manga/x' })
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: '', checked: 1, unfetchable: 1 })
    expect(result.sleepMs).toBe(30_000)
  })

  it('after a pass with nothing due: the idle re-query', async () => {
    await seed({ id: 'x', checkedAt: now() })
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: '', due: 0, checked: 0 })
    expect(result.sleepMs).toBe(30_000)
  })

  it('after sidecar-down: what is left of the browser-down window, at most the idle re-query', async () => {
    await seed({ id: 'x' })
    const browser = new FakeBrowser(clock)
    const site = testSite('a', { fetcher: 'browser', pace: { idleRequeryMs: 10 * MIN } })
    health.markDown()
    const left = health.downForMs()
    expect(left).toBeLessThan(10 * MIN)
    expect((await pass(site, { browser })).sleepMs).toBe(left)
    expect((await pass(testSite('a', { fetcher: 'browser' }), { browser })).sleepMs).toBe(Math.min(left, 30_000))
  })

  it('after a refusal: until the refusal ends, and the Lane works again the moment it does', async () => {
    await seed({ id: 'x' })
    await recordRefusal(store.db, 'a', now() + 10 * MIN, 15 * MIN)
    const refused = await pass(testSite())
    expect(refused.row?.skip).toBe('refusing')
    expect(refused.sleepMs).toBe(10 * MIN)
    await clock.advance(10 * MIN)
    expect((await pass(testSite())).row).toMatchObject({ skip: '', checked: 1 })
  })

  it('a pause that ends exactly now no longer holds the Lane', async () => {
    await seed({ id: 'x' })
    await pauseLane(store.db, 'a', now(), now() - MIN)
    expect((await pass(testSite())).row).toMatchObject({ skip: '', checked: 1 })
  })
})

/**
 * An adaptive Lane plans each check ahead on the wall clock; a wall clock set back moves the plans made before the
 * step with it (docs/adr/0014-freshness-per-request.md), and only those: a check planned after the step, in the
 * same pass, keeps its plan. Real SQLite file, fake clock and fetcher.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { chapterPage, FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { passOnClock } from '../testing/pass'
import { SitePacer } from './pacer'
import { WallWatch } from './pass'

const HOUR = 3_600_000
let store: TestStore
let clock: FakeClock
let http: FakeFetcher
let watch: WallWatch

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock(Date.UTC(2026, 10, 3, 12))
  http = new FakeFetcher('http', clock, () => chapterPage(1))
  watch = new WallWatch()
  const alice = await seedReader(store.db, 'alice')
  await seedSeries(store.db, { id: 'x', checkedAt: 1, readers: [alice] })
  await seedSeries(store.db, { id: 'y', checkedAt: 2, readers: [alice] })
})
afterEach(() => store.dispose())

async function pass(cadence: 'adaptive' | 'fixed') {
  const site = testSite('a', { pace: { cadence, maxPassMs: 24 * HOUR } })
  return passOnClock({ db: store.db, site, clock, fetchers: { http }, wallWatch: watch })
}

const series = (id: string) => requireSeries(store.db, { site: 'a', seriesId: id })

describe('a wall clock set back during a pass of an adaptive Lane', () => {
  it('moves the plan made before the step, and not the one made after it, then or at the next pass', async () => {
    // The first check's answer comes back after the wall clock was set back three hours.
    http.respond = () => {
      if (http.calls.length === 1) clock.stepWall(-3 * HOUR)
      return chapterPage(1)
    }
    const result = await pass('adaptive')
    expect(result.row).toMatchObject({ checked: 2 })
    const [x, y] = [await series('x'), await series('y')]
    // x was stamped and planned on the clock before the step: both came back by the step.
    expect(x.next_check_at - x.latest_checked_at).toBe(HOUR)
    expect(x.next_check_at).toBe(http.calls[0]!.at + HOUR - 3 * HOUR)
    // y was checked after the step: its plan is an hour after its check, on the new clock.
    expect(y.latest_checked_at).toBe(http.calls[1]!.at)
    expect(y.next_check_at).toBe(y.latest_checked_at + HOUR)
    // The next pass sees no new step: nothing moves again.
    await clock.advance(60_000)
    await pass('adaptive')
    expect((await series('y')).next_check_at).toBe(y.next_check_at)
    expect((await series('x')).next_check_at).toBe(x.next_check_at)
  })

  it('a fixed Lane plans nothing, and the step only brings back the stamps ahead of the clock, as before', async () => {
    http.respond = () => {
      if (http.calls.length === 1) clock.stepWall(-3 * HOUR)
      return chapterPage(1)
    }
    await pass('fixed')
    const [x, y] = [await series('x'), await series('y')]
    expect([x.next_check_at, y.next_check_at]).toEqual([0, 0])
    expect(x.latest_checked_at).toBe(http.calls[0]!.at)
  })
})

describe('a wall clock set back while a pass of an adaptive Lane waits for its turn', () => {
  it('reads more due Series on the clock after the step: a Series inside its rest is not checked early', async () => {
    const MIN = 60_000
    const now = clock.now()
    const [bo, cy] = [await seedReader(store.db, 'bo'), await seedReader(store.db, 'cy')]
    const plan = (id: string, checkedAt: number, at: number) =>
      store.db.updateTable('series').set({ latest_checked_at: checkedAt, next_check_at: at }).where('series_id', '=', id).execute()
    // Three due (one Reader each) and one checked ten minutes ago, resting until twenty minutes from now (two
    // Readers: a pass takes it first once it is due).
    await seedSeries(store.db, { id: 'z', checkedAt: 3, readers: [bo] })
    await seedSeries(store.db, { id: 'resting', checkedAt: 4, readers: [bo, cy] })
    for (const id of ['x', 'y', 'z']) await plan(id, now - 2 * HOUR, now - MIN)
    await plan('resting', now - 10 * MIN, now + 20 * MIN)
    // A request went out just now: the pass waits a gap (5 min) for its first turn; a minute in, the wall clock is
    // set back three hours. The stamps and plans are moved back by the step, so the Series the pass read are no
    // longer the ones it read, and it reads more.
    const pacer = new SitePacer(clock)
    pacer.seed('a', now)
    void clock.sleep(MIN).then(() => clock.stepWall(-3 * HOUR))
    const site = testSite('a', { pace: { cadence: 'adaptive' } })
    await passOnClock({ db: store.db, site, clock, fetchers: { http }, wallWatch: watch, pacer })
    // One check in the pass's time (a gap of 5 min, maxPassMs 5 min): the first Series due on the new clock.
    expect(http.calls.map((c) => c.url.split('/').at(-1))).toEqual(['x'])
    // Its plan came back by the step, and stands.
    expect((await series('resting')).next_check_at).toBe(now + 20 * MIN - 3 * HOUR)
  })
})

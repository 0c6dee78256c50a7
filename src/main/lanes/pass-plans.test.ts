/**
 * A pass and an adaptive Site's plans (docs/adr/0014-freshness-per-request.md): a planned check decides when a
 * Series is due on an adaptive Site only, and a wall clock set back between two passes moves the plans with it
 * on an adaptive Site only (docs/adr/0011-time-and-the-wall-clock.md). A real SQLite file and a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site'
import { requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { passOnClock } from '../testing/pass'
import { WALL_STEP_MS, WallWatch, type PassResult } from './pass'

const MIN = 60_000
const HOUR = 60 * MIN

let store: TestStore
let clock: FakeClock
let http: FakeFetcher
let alice: number
let wallWatch: WallWatch

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  http = new FakeFetcher('http', clock)
  alice = await seedReader(store.db, 'alice')
  wallWatch = new WallWatch()
})
afterEach(() => store.dispose())

/** A one-hour rest; a day of maxPassMs, so no pass is cut short. */
const site = (cadence: 'fixed' | 'adaptive'): Site => testSite('a', { pace: { cadence, maxPassMs: 24 * HOUR } })

/** A Series checked at `checkedAt`, its next check planned at `plannedAt` (0: none). */
async function seed(id: string, checkedAt: number, plannedAt: number): Promise<void> {
  await seedSeries(store.db, { id, checkedAt, readers: [alice] })
  await store.db.updateTable('series').set({ next_check_at: plannedAt }).where('series_id', '=', id).execute()
}
const series = (id: string) => requireSeries(store.db, { site: 'a', seriesId: id })

/** One pass of the Lane, with the Lane's wall watch, moving the fake clock through its waits. */
async function pass(s: Site): Promise<PassResult & { requested: string[] }> {
  const before = http.calls.length
  const result = await passOnClock({ db: store.db, site: s, clock, fetchers: { http }, wallWatch })
  return { ...result, requested: http.calls.slice(before).map((c) => c.url.split('/').at(-1)!) }
}

describe('which Series a plan makes due', () => {
  it('on an adaptive Site, the plan: one planned now is due within its rest, one planned later is not, long after it', async () => {
    await seed('planned-now', clock.now() - 10 * MIN, clock.now())
    await seed('planned-later', clock.now() - 5 * HOUR, clock.now() + MIN)
    const result = await pass(site('adaptive'))
    expect(result.requested).toEqual(['planned-now'])
    expect(result.row).toMatchObject({ due: 1, checked: 1 })
  })

  it('on a fixed Site, the rest alone: a plan left from when it was adaptive changes nothing', async () => {
    await seed('planned-now', clock.now() - 10 * MIN, clock.now())
    await seed('planned-later', clock.now() - 5 * HOUR, clock.now() + MIN)
    const result = await pass(site('fixed'))
    expect(result.requested).toEqual(['planned-later'])
    expect(result.row).toMatchObject({ due: 1, checked: 1 })
  })
})

describe('a wall clock set back between two passes', () => {
  it('an adaptive Site: a planned check still ahead moves back by the whole step, so it comes when it was meant to', async () => {
    const t0 = clock.now()
    await seed('w', t0 - 10 * MIN, t0 + 5 * HOUR)
    expect((await pass(site('adaptive'))).requested).toEqual([])
    clock.stepWall(-3 * HOUR)
    expect((await pass(site('adaptive'))).requested).toEqual([])
    // Not by the 2 h 50 min its stamp was ahead: by the 3 h the Lane saw the clock go back.
    expect(await series('w')).toMatchObject({ next_check_at: t0 + 2 * HOUR, latest_checked_at: t0 - 3 * HOUR - 10 * MIN })
  })

  it('a fixed Site: the newest stamp comes back to now, not by the whole step, and its Series waits its rest', async () => {
    const t0 = clock.now()
    await seed('x', t0 - 30 * MIN, 0)
    expect((await pass(site('fixed'))).requested).toEqual([])
    await clock.advance(HOUR)
    clock.stepWall(-3 * HOUR)
    // x was checked 1 h 30 min ago by the monotonic clock, but the wall clock says 1 h 30 min from now.
    const result = await pass(site('fixed'))
    expect(result.requested).toEqual([])
    expect(await series('x')).toMatchObject({ latest_checked_at: clock.now(), next_check_at: 0 })
  })
})

describe('the wall watch', () => {
  it('a wall clock set back by exactly a minute is a correction, not a step; a millisecond more is a step', () => {
    const watch = new WallWatch()
    expect(watch.steppedBack(10 * HOUR, 10 * HOUR)).toBe(0)
    expect(watch.steppedBack(11 * HOUR - WALL_STEP_MS, 11 * HOUR)).toBe(0)
    expect(watch.steppedBack(12 * HOUR - 2 * WALL_STEP_MS - 1, 12 * HOUR)).toBe(WALL_STEP_MS + 1)
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { dueSeries, overShareReaders } from './due'

const HOUR = 3_600_000
const NOW = 1_000 * HOUR
// A rest that holds 10 checks.
const fixed = { restCutoff: NOW - HOUR, ceilingCutoff: NOW - 24 * HOUR, restCapacity: 10 }
const adaptive = { ...fixed, plannedBy: NOW }

let store: TestStore
let ada: number
let bo: number
let flood: number
beforeEach(async () => {
  store = openTestStore()
  ada = await seedReader(store.db, 'ada')
  bo = await seedReader(store.db, 'bo')
  flood = await seedReader(store.db, 'flood')
})
afterEach(() => store.dispose())

/** Ada and Bo hold two Series each, checked 2 h ago; `count` new Series of the flooding Reader were never checked. */
async function household(count: number): Promise<void> {
  const held = [
    ['a1', ada],
    ['a2', ada],
    ['b1', bo],
    ['b2', bo],
  ] as const
  for (const [i, [id, reader]] of held.entries()) await seedSeries(store.db, { id, readers: [reader], checkedAt: NOW - 2 * HOUR + i })
  for (let i = 0; i < count; i++) await seedSeries(store.db, { id: `f${String(i).padStart(3, '0')}`, readers: [flood] })
}

describe('a fair share of the Lane (docs/adr/0081-one-reader-bounded.md)', () => {
  it.each([
    ['fixed', fixed],
    ['adaptive', adaptive],
  ])('%s: a Reader holding more than their share is served after every Series another Reader holds', async (_cadence, cutoffs) => {
    await household(30)
    // A Series the flooding Reader shares with Ada is Ada's as much.
    await seedSeries(store.db, { id: 'shared', readers: [flood, ada], checkedAt: NOW - 3 * HOUR })
    expect(await overShareReaders(store.db, 'a', 10)).toEqual([flood])
    const order = (await dueSeries(store.db, 'a', cutoffs)).map((s) => s.series_id)
    expect(order.slice(0, 5)).toEqual(['shared', 'a1', 'a2', 'b1', 'b2'])
    expect(order).toHaveLength(35)
    // With a limit, the first rows of the same order.
    expect((await dueSeries(store.db, 'a', cutoffs, 3)).map((s) => s.series_id)).toEqual(['shared', 'a1', 'a2'])
    expect((await dueSeries(store.db, 'a', cutoffs, 7)).map((s) => s.series_id)).toEqual(order.slice(0, 7))
  })

  it('while every eligible Series fits in a rest, nobody is over their share: the usual order (never checked first)', async () => {
    await household(6)
    expect(await overShareReaders(store.db, 'a', 10)).toEqual([])
    const order = (await dueSeries(store.db, 'a', fixed)).map((s) => s.series_id)
    expect(order.slice(0, 6)).toEqual(['f000', 'f001', 'f002', 'f003', 'f004', 'f005'])
  })

  it('the share is the rest over the Readers holding any Series of the Site', async () => {
    await household(5)
    // 9 eligible, a rest of 8: a share of 8 / 3 Readers; the flood's 5 are over it, Ada's and Bo's 2 are not.
    expect(await overShareReaders(store.db, 'a', 8)).toEqual([flood])
    expect(await overShareReaders(store.db, 'a', 9)).toEqual([])
    // Every Reader over it: nobody is served first.
    expect(await overShareReaders(store.db, 'a', 5)).toEqual([])
  })

  it('a forced Series comes first all the same', async () => {
    await household(30)
    await seedSeries(store.db, { id: 'pressed', readers: [flood], checkedAt: NOW - 60_000, forcedAt: NOW - 1 })
    expect((await dueSeries(store.db, 'a', fixed, 2)).map((s) => s.series_id)).toEqual(['pressed', 'a1'])
  })
})

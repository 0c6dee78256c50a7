/**
 * The due query of an adaptive Site (docs/adr/0014-freshness-per-request.md): the plan replaces the rest cutoff,
 * and nothing else. Each case flips with one clause.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type SeedSeries, type TestStore } from '../testing/store'
import { dueFigures, dueSeries } from './due'

const HOUR = 3_600_000
const NOW = 1_000 * HOUR
const cutoffs = { restCutoff: NOW - HOUR, ceilingCutoff: NOW - 24 * HOUR }
const planned = { ...cutoffs, plannedBy: NOW }

let store: TestStore
let alice: number
let bob: number

beforeEach(async () => {
  store = openTestStore()
  alice = await seedReader(store.db, 'alice')
  bob = await seedReader(store.db, 'bob')
})
afterEach(() => store.dispose())

const cases: Array<[name: string, series: Omit<SeedSeries, 'id'> & { plan?: number; two?: boolean; none?: boolean }, isDue: boolean]> = [
  ['planned for later, checked long ago: not due (it rests past the rest)', { checkedAt: NOW - 5 * HOUR, plan: NOW + HOUR }, false],
  ['planned for now, checked a moment ago: due (sooner than the rest)', { checkedAt: NOW - 30 * 60_000, plan: NOW }, true],
  ['no plan, checked within the rest: not due (the fixed rest)', { checkedAt: NOW - 30 * 60_000 }, false],
  ['no plan, checked past the rest: due (the fixed rest)', { checkedAt: NOW - 2 * HOUR }, true],
  ['never checked: due', {}, true],
  [
    'planned for later but forced: due (force overrides the plan)',
    { checkedAt: NOW - 10 * 60_000, plan: NOW + 5 * HOUR, forcedAt: NOW - 1 },
    true,
  ],
  ['planned for now, Finished: not due', { checkedAt: NOW - 5 * HOUR, plan: NOW - 1, finishedAt: NOW - 10 * HOUR }, false],
  ['planned for now, no Reader (an orphan): not due', { checkedAt: NOW - 5 * HOUR, plan: NOW - 1, none: true }, false],
  ['planned for now, no URL: not due', { checkedAt: NOW - 5 * HOUR, plan: NOW - 1, url: '' }, false],
  [
    'planned for now, one Reader sighted it within the rest: deferred',
    { checkedAt: NOW - 2 * HOUR, plan: NOW - 1, sightedAt: NOW - 60_000 },
    false,
  ],
  [
    'planned for now, two Readers, sighted within the rest: due',
    { checkedAt: NOW - 2 * HOUR, plan: NOW - 1, sightedAt: NOW - 60_000, two: true },
    true,
  ],
]

describe("an adaptive Site's due query", () => {
  it.each(cases)('%s', async (_name, { plan, two, none, ...series }, isDue) => {
    await seedSeries(store.db, { id: 'x', readers: none ? [] : two ? [alice, bob] : [alice], ...series })
    if (plan !== undefined) await store.db.updateTable('series').set({ next_check_at: plan }).execute()
    const rows = (await dueSeries(store.db, 'a', planned)).map((s) => s.series_id)
    expect(rows).toEqual(isDue ? ['x'] : [])
    const figures = await dueFigures(store.db, 'a', planned)
    expect(figures.due).toBe(isDue ? 1 : 0)
    // Walking the order (a large due set) gives the same answer.
    expect((await dueSeries(store.db, 'a', planned, 1, { due: 100, forced: figures.forced })).map((s) => s.series_id)).toEqual(
      isDue ? ['x'] : [],
    )
  })

  it('a fixed Site ignores a plan left from when it was adaptive', async () => {
    await seedSeries(store.db, { id: 'x', readers: [alice], checkedAt: NOW - 30 * 60_000 })
    await store.db
      .updateTable('series')
      .set({ next_check_at: NOW - 1 })
      .execute()
    expect(await dueSeries(store.db, 'a', cutoffs)).toEqual([])
    expect((await dueSeries(store.db, 'a', planned)).map((s) => s.series_id)).toEqual(['x'])
  })
})

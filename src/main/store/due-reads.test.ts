/**
 * What the due query reads, not only what it returns (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md):
 * a read that can find nothing more is not made, and many due Series for a short limit walk the order's index
 * instead of sorting the whole due range. The Lanes' pace and the simulation's store faults count these reads.
 */
import type { KyselyPlugin } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { dueSeries } from './due'

const HOUR = 3_600_000
const NOW = 1_000 * HOUR
const cutoffs = { restCutoff: NOW - HOUR, ceilingCutoff: NOW - 24 * HOUR }

let store: TestStore
let reads: string[]
beforeEach(async () => {
  store = openTestStore()
  reads = []
  const alice = await seedReader(store.db, 'alice')
  await seedSeries(store.db, { id: 'forced-1', forcedAt: NOW, readers: [alice] })
  await seedSeries(store.db, { id: 'forced-2', forcedAt: NOW, readers: [alice] })
  for (const id of ['due-1', 'due-2', 'due-3']) await seedSeries(store.db, { id, readers: [alice] })
})
afterEach(() => store.dispose())

/** The store's db, recording each query it sends (its SQL as a tree, enough to name the index it reads). */
function recorded() {
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      reads.push(JSON.stringify(node))
      return node
    },
    transformResult: async ({ result }) => result,
  }
  return store.db.withPlugin(plugin)
}

const ids = (rows: Array<{ series_id: string }>) => rows.map((s) => s.series_id)

describe('a read that can find nothing more is not made', () => {
  it('the limit taken by forced Series: one read', async () => {
    expect(ids(await dueSeries(recorded(), 'a', cutoffs, 2))).toEqual(['forced-1', 'forced-2'])
    expect(reads).toHaveLength(1)
  })

  it('every due Series forced, as the figures say: one read, whatever the limit', async () => {
    expect(ids(await dueSeries(recorded(), 'a', cutoffs, 10, { due: 2, forced: 2 }))).toEqual(['forced-1', 'forced-2'])
    expect(reads).toHaveLength(1)
  })

  it('more due than forced: the rest is read too', async () => {
    expect(await dueSeries(recorded(), 'a', cutoffs, 10, { due: 5, forced: 2 })).toHaveLength(5)
    expect(reads).toHaveLength(2)
  })
})

describe('the walk of the order for many due Series, the sorted range for few', () => {
  const walked = () => reads.at(-1)!.includes('series_due_order')

  it.each([
    ['more than 8 unforced due per row wanted: the walk', { due: 2 + 8 * 3 + 1, forced: 2 }, true],
    ['exactly 8 per row wanted: the sorted range', { due: 2 + 8 * 3, forced: 2 }, false],
    ['few due: the sorted range', { due: 5, forced: 2 }, false],
  ])('%s', async (_name, figures, walk) => {
    expect(await dueSeries(recorded(), 'a', cutoffs, 5, figures)).toHaveLength(5)
    expect(walked()).toBe(walk)
  })

  it('without figures: the sorted range', async () => {
    expect(await dueSeries(recorded(), 'a', cutoffs, 5)).toHaveLength(5)
    expect(walked()).toBe(false)
  })
})

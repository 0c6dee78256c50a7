/**
 * The due query at its edges: the cutoffs' own instants, a pass that can take nothing, a Site the store has
 * never seen, and the newest check stamp a Lane's pace starts from.
 */
import { describe, expect, it } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import type { Db } from './database'
import { dueFigures, dueSeries, eligibleCount, lastCheckedAt } from './due'

const HOUR = 3_600_000
const NOW = 1_000 * HOUR
const cutoffs = { restCutoff: NOW - HOUR, ceilingCutoff: NOW - 24 * HOUR }
let alice: number
it.beforeEach(async ({ store }) => {
  alice = await seedReader(store.db, 'alice')
})

const ids = async (db: Db, limit?: number) => (await dueSeries(db, 'a', cutoffs, limit)).map((s) => s.series_id)

describe('the due query at its edges', () => {
  it('a Series checked exactly a rest ago is due; sighted exactly a rest ago, it is not deferred', async ({ store }) => {
    await seedSeries(store.db, { id: 'rested', checkedAt: NOW - HOUR, readers: [alice] })
    await seedSeries(store.db, { id: 'sighted-at-the-cutoff', checkedAt: NOW - 2 * HOUR, sightedAt: NOW - HOUR, readers: [alice] })
    await seedSeries(store.db, { id: 'at-the-ceiling', checkedAt: NOW - 24 * HOUR, sightedAt: NOW - 1, readers: [alice] })
    expect((await ids(store.db)).sort()).toEqual(['at-the-ceiling', 'rested', 'sighted-at-the-cutoff'])
  })

  it('a pass that can take none is given none, forced or not', async ({ store }) => {
    await seedSeries(store.db, { id: 'forced', forcedAt: NOW, readers: [alice] })
    await seedSeries(store.db, { id: 'due', readers: [alice] })
    expect(await ids(store.db, 0)).toEqual([])
    expect(await ids(store.db, 1)).toEqual(['forced'])
    expect(await ids(store.db, 2)).toEqual(['forced', 'due'])
  })

  it('a Site the store has never seen: nothing due, nothing eligible, never checked', async ({ store }) => {
    expect(await dueFigures(store.db, 'nowhere', cutoffs)).toEqual({ due: 0, forced: 0, oldestCheckedAt: 0 })
    expect(await eligibleCount(store.db, 'nowhere')).toBe(0)
    expect(await lastCheckedAt(store.db, 'nowhere')).toBe(0)
  })

  it("the newest check stamp is the Site's own", async ({ store }) => {
    await seedSeries(store.db, { id: 'x', checkedAt: 500, readers: [alice] })
    await seedSeries(store.db, { id: 'y', checkedAt: 700 })
    await seedSeries(store.db, { id: 'z', site: 'b', checkedAt: 900 })
    expect(await lastCheckedAt(store.db, 'a')).toBe(700)
  })
})

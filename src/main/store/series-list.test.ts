import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { listSeries, overviewCounts } from './series-list'

let store: TestStore
let alice: number

beforeEach(async () => {
  store = openTestStore()
  alice = await seedReader(store.db, 'alice')
})
afterEach(() => store.dispose())

describe('Series list', () => {
  beforeEach(async () => {
    await seedSeries(store.db, { id: 'unchecked', title: 'Alpha', readers: [alice] })
    await seedSeries(store.db, { id: 'stale', title: 'Beta', checkedAt: 10, readers: [alice] })
    await seedSeries(store.db, { id: 'fresh', title: 'Gamma', checkedAt: 900, readers: [alice] })
    await seedSeries(store.db, { id: 'pending', title: 'Delta', checkedAt: 900, forcedAt: 950, readers: [alice] })
    await seedSeries(store.db, { id: 'finished', title: 'Epsilon', checkedAt: 900, finishedAt: 5, readers: [alice] })
    await seedSeries(store.db, { id: 'orphan', title: 'Zeta 100%', checkedAt: 900 })
    await seedSeries(store.db, { id: 'no-url', title: 'Eta', url: '', readers: [alice] })
    await seedSeries(store.db, { id: 'b-one', site: 'b', title: 'Theta', checkedAt: 900, readers: [alice] })
  })

  const ids = async (q: Partial<Parameters<typeof listSeries>[1]>) =>
    (await listSeries(store.db, { staleBefore: 100, ...q })).rows.map((r) => r.series_id).sort()

  it.each([
    ['unchecked', ['no-url', 'unchecked']],
    ['stale', ['stale']],
    ['pending', ['pending']],
    ['finished', ['finished']],
    ['orphan', ['orphan']],
    ['no-url', ['no-url']],
  ] as const)('filter %s', async (filter, expected) => {
    expect(await ids({ filter })).toEqual([...expected])
  })

  it('filters by Site and searches title and id, treating % literally', async () => {
    expect(await ids({ site: 'b' })).toEqual(['b-one'])
    expect(await ids({ search: 'zeta 100%' })).toEqual(['orphan'])
    expect(await ids({ search: '%' })).toEqual(['orphan'])
    expect(await ids({ search: 'fres' })).toEqual(['fresh'])
  })

  it('pages in title order and reports the total', async () => {
    const first = await listSeries(store.db, { staleBefore: 100, limit: 3, offset: 0 })
    const second = await listSeries(store.db, { staleBefore: 100, limit: 3, offset: 3 })
    expect(first.total).toBe(8)
    expect(first.rows.map((r) => r.title)).toEqual(['Alpha', 'Beta', 'Delta'])
    expect(second.rows.map((r) => r.title)).toEqual(['Epsilon', 'Eta', 'Gamma'])
  })

  it("stale follows each Site's own ceiling", async () => {
    // Site b's ceiling is shorter: its Series checked at 900 is stale at a cut-off of 950.
    const bySite = { staleBefore: { fallback: 100, bySite: { b: 950 } } }
    expect(await ids({ filter: 'stale', ...bySite })).toEqual(['b-one', 'stale'])
    expect((await overviewCounts(store.db, bySite.staleBefore)).stale).toBe(2)
  })

  it('overview counts agree with the filters', async () => {
    expect(await overviewCounts(store.db, 100)).toEqual({
      series: 8,
      unchecked: 2,
      stale: 1,
      pending: 1,
      orphans: 1,
      noUrl: 1,
      finished: 1,
    })
  })

  it('each row carries its Reader count and pending flag', async () => {
    const { rows } = await listSeries(store.db, { staleBefore: 100, filter: 'pending' })
    expect(rows[0]).toMatchObject({ reader_count: 1, pending: true })
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { SERIES_SORTS } from '../../shared/domain'
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

  it('pending counts only presses the Lanes can serve: not an orphan nor a Series without a URL (issue 24)', async () => {
    await seedSeries(store.db, { id: 'pending-orphan', title: 'Iota', checkedAt: 900, forcedAt: 950 })
    await seedSeries(store.db, { id: 'pending-no-url', title: 'Kappa', url: '', checkedAt: 900, forcedAt: 950, readers: [alice] })
    expect((await overviewCounts(store.db, 100)).pending).toBe(1)
    expect(await ids({ filter: 'pending' })).toEqual(['pending'])
  })

  it('each row carries its Reader count and pending flag', async () => {
    const { rows } = await listSeries(store.db, { staleBefore: 100, filter: 'pending' })
    expect(rows[0]).toMatchObject({ reader_count: 1, pending: true })
  })

  it('counts only when asked: a window paging on gets its rows and where to continue', async () => {
    const page = await listSeries(store.db, { staleBefore: 100, limit: 3, count: false })
    expect(page.total).toBeUndefined()
    expect(page.rows).toHaveLength(3)
    expect(page.next).toEqual(expect.any(String))
    const last = await listSeries(store.db, { staleBefore: 100, limit: 3, offset: 6, count: false })
    expect(last.rows).toHaveLength(2)
    expect(last.next).toBeUndefined()
  })

  it('refuses an after that is not the next of a page in that order, and changes nothing', async () => {
    const page = await listSeries(store.db, { staleBefore: 100, limit: 3 })
    await expect(listSeries(store.db, { staleBefore: 100, after: 'bm90LWEtY3Vyc29y' })).rejects.toThrow(/"after" is not the next page/)
    await expect(listSeries(store.db, { staleBefore: 100, after: page.next!, sort: 'changed' })).rejects.toThrow(/sorted by changed/)
  })
})

describe('Series list paging by key', () => {
  beforeEach(async () => {
    // Titles that tie (and differ only in case), stamps that tie: the order's own tie-breaks must hold.
    for (let i = 0; i < 23; i++) {
      await seedSeries(store.db, {
        id: `s${String(i).padStart(2, '0')}`,
        site: i % 2 ? 'a' : 'b',
        title: i % 3 ? `Title ${i % 4}` : `title ${i % 4}`,
        checkedAt: (i % 5) * 100,
        readers: i % 7 ? [alice] : [],
      })
    }
    store.sqlite.prepare('UPDATE series SET latest_changed_at = (rowid % 4) * 10').run()
  })

  const keys = (rows: Array<{ site: string; series_id: string }>) => rows.map((r) => `${r.site}/${r.series_id}`)

  it.each(SERIES_SORTS.flatMap((sort) => ([undefined, 'orphan', 'stale'] as const).map((filter) => [sort, filter] as const)))(
    'sorted by %s, filter %s: following next page by page reads what offsets read, each row once',
    async (sort, filter) => {
      const query = { staleBefore: 250, sort, ...(filter ? { filter } : {}) } as const
      const all = await listSeries(store.db, { ...query, limit: 100 })
      const pages: string[] = []
      let after: string | undefined
      for (let n = 0; n < 20; n++) {
        const page = await listSeries(store.db, { ...query, limit: 4, count: false, ...(after ? { after } : {}) })
        pages.push(...keys(page.rows))
        const byOffset = await listSeries(store.db, { ...query, limit: 4, offset: n * 4, count: false })
        expect(keys(page.rows)).toEqual(keys(byOffset.rows))
        after = page.next
        if (!after) break
      }
      expect(pages).toEqual(keys(all.rows))
      expect(new Set(pages).size).toBe(all.total)
    },
  )

  it('the latest change and the last check list newest first', async () => {
    const changed = await listSeries(store.db, { staleBefore: 0, sort: 'changed', limit: 100 })
    const stamps = changed.rows.map((r) => r.latest_changed_at)
    expect(stamps).toEqual([...stamps].sort((x, y) => y - x))
    const checked = await listSeries(store.db, { staleBefore: 0, sort: 'checked', limit: 100 })
    const checks = checked.rows.map((r) => r.latest_checked_at)
    expect(checks).toEqual([...checks].sort((x, y) => y - x))
  })
})

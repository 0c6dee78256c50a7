/**
 * The owner's list at its edges: stale read with a search or per Site, the totals each filter, Site and search
 * give, searches with spaces around them, and continuations that are not one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { listSeries, type SeriesQuery } from './series-list'

let store: TestStore
let alice: number

beforeEach(async () => {
  store = openTestStore()
  alice = await seedReader(store.db, 'alice')
})
afterEach(() => store.dispose())

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const list = (q: Partial<SeriesQuery>) => listSeries(store.db, { staleBefore: 100, ...q })
const ids = async (q: Partial<SeriesQuery>) => (await list(q)).rows.map((r) => r.series_id).sort()

describe('with a few Series on two Sites', () => {
  beforeEach(async () => {
    await seedSeries(store.db, { id: 'a-stale', title: 'Fresh Air', checkedAt: 10, readers: [alice] })
    await seedSeries(store.db, { id: 'a-fresh', title: 'Fresh Start', checkedAt: 900, readers: [alice] })
    await seedSeries(store.db, { id: 'a-never', title: 'Never', readers: [alice] })
    await seedSeries(store.db, { id: 'b-stale', site: 'b', title: 'Fresh Bread', checkedAt: 50, readers: [alice] })
    await seedSeries(store.db, { id: 'b-late', site: 'b', title: 'Late', checkedAt: 500, readers: [alice] })
  })

  it('stale with a search keeps the search and each Site its own cut-off', async () => {
    expect(await ids({ filter: 'stale', search: 'fresh' })).toEqual(['a-stale', 'b-stale'])
    expect((await list({ filter: 'stale', search: 'fresh' })).total).toBe(2)
    const bySite = { fallback: 100, bySite: { b: 600 } }
    expect(await ids({ filter: 'stale', search: 'e', staleBefore: bySite })).toEqual(['a-stale', 'b-late', 'b-stale'])
    expect(await ids({ filter: 'stale', search: 'e', staleBefore: { fallback: 20, bySite: {} } })).toEqual(['a-stale'])
  })

  it("stale on one Site counts that Site's only", async () => {
    const page = await list({ filter: 'stale', site: 'b' })
    expect(page.rows.map((r) => r.series_id)).toEqual(['b-stale'])
    expect(page.total).toBe(1)
  })

  it('stale asked not to count gives no total at all', async () => {
    const page = await list({ filter: 'stale', count: false })
    expect(page.rows).toHaveLength(2)
    expect('total' in page).toBe(false)
    expect('total' in (await list({ count: false }))).toBe(false)
  })

  it('the total is what the Site, or the search, matched', async () => {
    expect((await list({ site: 'b' })).total).toBe(2)
    expect((await list({ search: 'fresh' })).total).toBe(3)
    expect((await list({})).total).toBe(5)
  })

  it('a search is trimmed, and one of spaces only is no search', async () => {
    expect(await ids({ search: '  Start ' })).toEqual(['a-fresh'])
    expect(await ids({ search: '   ' })).toHaveLength(5)
  })

  it.each([
    ['not a list', { sort: 'title' }],
    ['a list too short', ['title', 'Fresh', 'a']],
    ['a key of the wrong type', ['title', true, 'a', 'a-fresh']],
    ['a Site of the wrong type', ['title', 'Fresh', 1, 'a-fresh']],
    ['an id of the wrong type', ['title', 'Fresh', 'a', 2]],
  ])('refuses a continuation that is %s', async (_name, value) => {
    await expect(list({ after: cursor(value) })).rejects.toThrow('store: "after" is not the next page of a Series list sorted by title')
  })

  it('continues from a continuation it made, with a number for a key', async () => {
    const page = await list({ sort: 'checked', limit: 2, count: false })
    expect(page.rows.map((r) => r.series_id)).toEqual(['a-fresh', 'b-late'])
    expect((await list({ sort: 'checked', limit: 2, after: page.next!, count: false })).rows.map((r) => r.series_id)).toEqual([
      'b-stale',
      'a-stale',
    ])
  })
})

it('stale on a library with no Series is an empty page', async () => {
  expect(await list({ filter: 'stale' })).toEqual({ total: 0, rows: [] })
})

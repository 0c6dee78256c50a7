/**
 * A Reader's list in title order without a temporary sort (docs/adr/0207-big-reads-by-the-title-index.md): a
 * Reader holding a large share of the Series is read in the `series_by_title` index's order, a small list by the
 * Reader's key and sorted. Both plans give the same rows in the same order — titles that differ only by case,
 * accents, empty titles, one title on several Sites — and the same bytes as the answer made whole; the index's
 * plan has no temporary B-tree, whether or not the planner has statistics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { byTitleIndex, BY_TITLE_SHARE, readerBookmarkQuery, readerBookmarkRows } from '../store/big-read-rows'
import { addBookmark } from '../store/bookmarks'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { bigReadBytes } from './big-read-jobs'
import { presentAll } from './present'

const TITLES = ['b', 'B', 'a', 'A', 'á', 'Á', '', ' a', 'a ', 'Z', 'z', '10', '9', 'ß', 'SS', 'É', 'e', 'Ω', '\u0000']
const SITES = ['site-b', 'site-a', 'Site-c']
const SERIES = 240
let store: TestStore
let whole = 0
let few = 0

beforeAll(async () => {
  store = openTestStore()
  const { db } = store
  whole = await seedReader(db, 'whole')
  few = await seedReader(db, 'few')
  await seedReader(db, 'none')
  for (let i = 0; i < SERIES; i++) {
    const site = SITES[i % SITES.length]!
    // The same title on several Sites and ids out of title order: the ties are ordered by Site, then id.
    const id = `s${(i * 37) % SERIES}`
    await seedSeries(db, { site, id, title: TITLES[i % TITLES.length]!, latest: i % 5 === 0 ? null : i % 30 })
    await addBookmark(db, { site, seriesId: id, readerId: whole, now: 10 + i })
    // Fewer than 1 in BY_TITLE_SHARE: the sorted plan.
    if (i % (BY_TITLE_SHARE * 2) === 0) await addBookmark(db, { site, seriesId: id, readerId: few, now: 10 + i })
  }
}, 60_000)
afterAll(async () => {
  await store?.dispose()
})

const stepped = (readerId: number, byTitle: boolean) => {
  const query = readerBookmarkQuery(store.db, readerId, byTitle)
  return store.sqlite.prepare(query.sql).all(...query.parameters)
}

describe("a Reader's list in title order", () => {
  it('is read by the title index from 1 in BY_TITLE_SHARE of the Series, else sorted; nothing held is never by the index', async () => {
    expect(await byTitleIndex(store.db, whole)).toBe(true)
    expect(await byTitleIndex(store.db, few)).toBe(false)
    expect(await byTitleIndex(store.db, 999)).toBe(false)
  })

  it('gives the same rows in the same order by either plan, for every Reader', async () => {
    for (const readerId of [whole, few, 999]) {
      const sorted = stepped(readerId, false)
      expect(stepped(readerId, true)).toEqual(sorted)
    }
    expect(stepped(whole, false)).toHaveLength(SERIES)
    expect(stepped(few, false)).toHaveLength(SERIES / (BY_TITLE_SHARE * 2))
  })

  it('is the answer made whole, byte for byte, stepped on the bare connection or read through Kysely', async () => {
    for (const readerId of [whole, few]) {
      const expected = JSON.stringify({ bookmarks: await presentAll(store.db, readerId), now: 5 })
      const job = { kind: 'full-sync' as const, readerId, now: 5, full: false }
      expect((await bigReadBytes(store.db, job)).toString('utf8')).toBe(expected)
      const rows = [...((await readerBookmarkRows({ db: store.db, sqlite: store.sqlite }, readerId)) as Iterable<unknown>)]
      const viaKysely = [...((await readerBookmarkRows({ db: store.db }, readerId)) as Iterable<unknown>)]
      expect(viaKysely).toEqual(rows)
    }
  })

  it('by the index, has no temporary sort, with or without statistics', async () => {
    const plan = () => {
      const query = readerBookmarkQuery(store.db, whole, true)
      const rows = store.sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.parameters) as Array<{ detail: string }>
      return rows.map((r) => r.detail).join('\n')
    }
    const check = (text: string) => {
      expect(text).not.toMatch(/TEMP B-TREE/)
      expect(text).toMatch(/SCAN s USING (COVERING )?INDEX series_by_title/)
      expect(text).toMatch(/SEARCH b USING PRIMARY KEY|SEARCH b USING INDEX sqlite_autoindex_bookmarks_1/)
    }
    check(plan())
    store.sqlite.exec('ANALYZE')
    check(plan())
    // The sorted plan does sort: what the index saves.
    const query = readerBookmarkQuery(store.db, few, false)
    const sorted = store.sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.parameters) as Array<{ detail: string }>
    expect(sorted.map((r) => r.detail).join('\n')).toMatch(/USE TEMP B-TREE FOR ORDER BY/)
  })
})

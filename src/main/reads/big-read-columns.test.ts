/**
 * A Reader's list read for a big read with its Series as columns (docs/adr/0207-big-read-title-order-stays-a-sort.md):
 * each row is the ReaderBookmark readerBookmarks makes from SERIES_JSON — the same keys in the same order, the
 * same values (null Latest Chapters, fractional ones, rhythms, gone runs) — in the same order (titles that differ
 * only by case or accents, empty titles, one title on several Sites), stepped on the bare connection or read
 * through Kysely; the full sync's bytes are the answer made whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readerBookmarkRows, type ReaderBookmarkFacts } from '../store/big-read-rows'
import { addBookmark, readerBookmarks } from '../store/bookmarks'
import { readerChapterFacts, chapterKey } from '../store/chapters'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { bigReadBytes } from './big-read-jobs'
import { presentAll } from './present'

const TITLES = ['b', 'B', 'a', 'A', 'á', 'Á', '', ' a', 'a ', 'Z', 'z', '10', '9', 'ß', 'SS', 'É', 'e', 'Ω', '"q"\\']
const SITES = ['site-b', 'site-a', 'Site-c']
const SERIES = 120
const WEEK = 7 * 86_400_000
const RHYTHM = JSON.stringify({
  rhythm: { kind: 'periodic', periodMs: WEEK, offsetMs: 3_600_000, spreadMs: 600_000, timeKnown: true },
  hits: 2,
  window: 0,
})
let store: TestStore
const readers: number[] = []

beforeAll(async () => {
  store = openTestStore()
  const { db } = store
  for (const name of ['all', 'some']) readers.push(await seedReader(db, name))
  for (let i = 0; i < SERIES; i++) {
    const site = SITES[i % SITES.length]!
    // The same title on several Sites, ids out of title order: ties go by Site, then id.
    const id = `s${(i * 37) % SERIES}`
    await seedSeries(db, { site, id, title: TITLES[i % TITLES.length]!, latest: i % 5 === 0 ? null : (i % 30) + (i % 4 === 0 ? 0.5 : 0) })
    await db
      .updateTable('series')
      .set({
        rhythm: i % 6 === 0 ? RHYTHM : '',
        latest_checked_at: 1_000 + i,
        gone_checks: i % 7 === 0 ? 4 : 0,
        gone_status: i % 7 === 0 ? 404 : 0,
      })
      .where('site', '=', site)
      .where('series_id', '=', id)
      .execute()
    if (i % 2 === 0)
      await db
        .insertInto('chapters')
        .values([1, 2, 3].map((n) => ({ site, series_id: id, number: n, label: `Ch ${n}`, url: `u${n}`, first_seen_at: 5 })))
        .execute()
    for (const [r, readerId] of readers.entries())
      if (i % (r + 1) === 0) await addBookmark(db, { site, seriesId: id, readerId, now: 10 + i })
  }
}, 60_000)
afterAll(async () => {
  await store?.dispose()
})

const all = async (rows: Iterable<ReaderBookmarkFacts> | AsyncIterable<ReaderBookmarkFacts>) => {
  const list: ReaderBookmarkFacts[] = []
  for await (const row of rows) list.push(row)
  return list
}

describe("a Reader's list for a big read", () => {
  it('is, row for row and key for key, what readerBookmarks and readerChapterFacts answer', async () => {
    for (const readerId of [...readers, 999]) {
      const expected = await readerBookmarks(store.db, readerId)
      const facts = await readerChapterFacts(store.db, readerId)
      const stepped = await all(await readerBookmarkRows({ db: store.db, sqlite: store.sqlite }, readerId))
      // toStrictEqual does not compare key order: JSON text does.
      expect(JSON.stringify(stepped.map((r) => r.bookmark))).toBe(JSON.stringify(expected))
      expect(stepped.map((r) => r.facts)).toStrictEqual(expected.map((b) => facts.get(chapterKey(b.site, b.series_id))))
      expect(await all(await readerBookmarkRows({ db: store.db }, readerId))).toStrictEqual(stepped)
    }
  })

  it("makes the full sync's bytes the answer made whole", async () => {
    for (const readerId of readers) {
      const expected = JSON.stringify({ bookmarks: await presentAll(store.db, readerId), now: 5 })
      const job = { kind: 'full-sync' as const, readerId, now: 5, full: false }
      expect((await bigReadBytes(store.db, job)).toString('utf8')).toBe(expected)
    }
  })
})

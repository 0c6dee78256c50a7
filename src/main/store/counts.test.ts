import { describe, expect, it } from '../testing/fixtures'
import { seedReader, type TestStore } from '../testing/store'
import { addBookmark, removeBookmark } from './bookmarks'
import { eligibleCount } from './due'
import { addReader, removeReader } from './readers'
import { addSeries, finishSeries, pruneOrphanSeries, setSeriesUrl, unfinishSeries } from './series'

/**
 * `series.reader_count` and `series_counts` are kept by triggers (migration 0007), whoever writes: every
 * store function, a cascade, and a tool writing SQL of its own. After any sequence of writes they equal what
 * counting the tables says.
 */

/** What the triggers keep, counted from the tables themselves. */
function recount(store: TestStore) {
  const readers = store.sqlite
    .prepare(
      `SELECT s.site, s.series_id, s.reader_count AS kept,
         (SELECT COUNT(*) FROM bookmarks b WHERE b.site = s.site AND b.series_id = s.series_id) AS counted
       FROM series s WHERE kept <> counted`,
    )
    .all()
  const sites = store.sqlite
    .prepare(
      `SELECT site, COUNT(*) AS series,
         SUM(series_url <> '' AND finished_at = 0
             AND EXISTS (SELECT 1 FROM bookmarks b WHERE b.site = s.site AND b.series_id = s.series_id)) AS eligible
       FROM series s GROUP BY site ORDER BY site`,
    )
    .all()
  const kept = store.sqlite.prepare('SELECT site, series, eligible FROM series_counts WHERE series > 0 ORDER BY site').all()
  return { wrongReaderCounts: readers, sites, kept }
}

/** mulberry32: the same sequence of writes on every run. */
function prng(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('the counts kept by triggers', () => {
  it('equal a recount after 400 random writes through the store, cascades and plain SQL', async ({ store }) => {
    const random = prng(42)
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!
    const readers = [await seedReader(store.db), await seedReader(store.db), await seedReader(store.db)]
    const keys = Array.from({ length: 40 }, (_, i) => ({ site: `site${i % 3}`, seriesId: `s${i}` }))
    let now = 1_000
    for (let step = 0; step < 400; step++) {
      now += 1_000
      const key = pick(keys)
      const exists = store.sqlite.prepare('SELECT 1 FROM series WHERE site = ? AND series_id = ?').get(key.site, key.seriesId)
      const action = Math.floor(random() * 10)
      try {
        if (!exists || action === 0) {
          await addSeries(store.db, { ...key, seriesUrl: random() < 0.1 ? '' : `https://x/${key.seriesId}`, now })
        } else if (action <= 3) {
          await addBookmark(store.db, { ...key, readerId: pick(readers), now })
        } else if (action === 4) {
          await removeBookmark(store.db, pick(readers), key, now)
        } else if (action === 5) {
          await (random() < 0.5 ? finishSeries : unfinishSeries)(store.db, key, now)
        } else if (action === 6) {
          await setSeriesUrl(store.db, key, random() < 0.3 ? '' : `https://x/${key.seriesId}/new`, now)
        } else if (action === 7) {
          // A tool of the owner's, writing SQL of its own.
          store.sqlite
            .prepare('INSERT OR IGNORE INTO bookmarks (reader_id, site, series_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
            .run(pick(readers), key.site, key.seriesId, now, now)
        } else if (action === 8 && step % 50 === 0) {
          // A Reader removed: their bookmarks go by cascade; a new one takes their place.
          const gone = readers.splice(Math.floor(random() * readers.length), 1)[0]!
          await removeReader(store.db, gone)
          readers.push((await addReader(store.db, { name: `r${step}`, tokenHash: `h${step}`, now })).id)
        } else if (action === 9) {
          await pruneOrphanSeries(store.db, now - 5_000)
        }
      } catch (error) {
        // A bookmark that was not there to remove is refused and changes nothing.
        if (!/no bookmark/.test(String(error))) throw error
      }
    }
    const { wrongReaderCounts, sites, kept } = recount(store)
    expect(wrongReaderCounts).toEqual([])
    expect(kept).toEqual(sites)
    for (const s of sites as Array<{ site: string; eligible: number }>) expect(await eligibleCount(store.db, s.site)).toBe(s.eligible)
  })

  it('a deleted Series takes its bookmarks with it, and its Site counts one fewer', async ({ store }) => {
    const alice = await seedReader(store.db)
    await addSeries(store.db, { site: 'a', seriesId: 'x', seriesUrl: 'https://x/1', now: 1 })
    await addBookmark(store.db, { site: 'a', seriesId: 'x', readerId: alice, now: 1 })
    expect(await eligibleCount(store.db, 'a')).toBe(1)
    store.sqlite.prepare("DELETE FROM series WHERE site = 'a' AND series_id = 'x'").run()
    expect(store.sqlite.prepare("SELECT series, eligible FROM series_counts WHERE site = 'a'").get()).toEqual({ series: 0, eligible: 0 })
  })
})

/**
 * Keeping the store bounded and its plans current (docs/adr/0053-retention-and-statistics.md), on a real file:
 * the edge of the Sightings' retention, and the hourly statistics of a table that grew.
 */
import { sql } from 'kysely'
import { describe, expect, it } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import { optimizeStore, pruneJudgedSightings } from './maintenance'
import { judgeSightings, recordSighting } from './sightings'

describe('the retention of judged Sightings', () => {
  it('keeps one judged exactly at the edge, deletes one judged before it, and says how many went', async ({ store }) => {
    const alice = await seedReader(store.db, 'alice')
    const key = { site: 'a', seriesId: 'x' }
    await seedSeries(store.db, { id: 'x', readers: [alice], latest: 1 })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 2, sightedAt: 10, now: 10 })
    await judgeSightings(store.db, key, 2, 499)
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 3, sightedAt: 20, now: 20 })
    await judgeSightings(store.db, key, 3, 500)
    expect(await pruneJudgedSightings(store.db, 499)).toBe(0)
    expect(await pruneJudgedSightings(store.db, 500)).toBe(1)
    expect(store.sqlite.prepare('SELECT chapter FROM sightings').all()).toEqual([{ chapter: 3 }])
  })
})

describe("the planner's statistics", () => {
  it('are brought up to date for a table that grew since it was last looked at', async ({ store }) => {
    const stats = () =>
      store.sqlite
        .prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'series' AND idx IS NULL OR tbl = 'series' AND stat LIKE '2000 %'")
        .all()
    expect(stats()).toEqual([])
    await sql`INSERT INTO series (site, series_id, title, series_url, created_at)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
      SELECT 'a', 's' || i, 't' || i, 'u' || i, 1 FROM n`.execute(store.db)
    await store.db.selectFrom('series').selectAll().where('site', '=', 'a').where('title', '=', 'x').execute()
    await optimizeStore(store.db)
    expect(stats().length).toBeGreaterThan(0)
  })
})

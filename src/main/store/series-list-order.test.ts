/**
 * The owner's list in the orders and with the filter the window offers beyond title: by latest change and by
 * last check, newest first, and `new` — a New Chapter within the window the core gives. A real SQLite file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listSeries } from './series-list'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'

let store: TestStore
const NOW = 1_800_000_000_000
const DAY = 86_400_000

beforeEach(async () => {
  store = openTestStore()
  const reader = await seedReader(store.db)
  const series = [
    { id: 'alpha', title: 'Alpha', checkedAt: NOW - 50_000, changedAt: NOW - 2 * DAY },
    { id: 'beta', title: 'Beta', checkedAt: NOW - 10_000, changedAt: NOW - 3_600_000 },
    { id: 'gamma', title: 'Gamma', checkedAt: NOW - 30_000, changedAt: NOW - 60_000 },
    { id: 'delta', title: 'Delta', checkedAt: 0, changedAt: 0 },
  ]
  for (const s of series) {
    await seedSeries(store.db, { id: s.id, title: s.title, checkedAt: s.checkedAt, readers: [reader], latest: 3 })
    await store.db.updateTable('series').set({ latest_changed_at: s.changedAt }).where('series_id', '=', s.id).execute()
  }
})
afterEach(() => store.dispose())

const ids = async (query: Partial<Parameters<typeof listSeries>[1]>) =>
  (await listSeries(store.db, { staleBefore: NOW - DAY, ...query })).rows.map((r) => r.series_id)

describe("the owner's list", () => {
  it('sorts by title, by latest change and by last check, newest first; a Series that never moved or was never checked comes last', async () => {
    expect(await ids({})).toEqual(['alpha', 'beta', 'delta', 'gamma'])
    expect(await ids({ sort: 'changed' })).toEqual(['gamma', 'beta', 'alpha', 'delta'])
    expect(await ids({ sort: 'checked' })).toEqual(['beta', 'gamma', 'alpha', 'delta'])
  })

  it('`new` keeps the Series whose Latest Chapter moved forward since the time given, with its total', async () => {
    const page = await listSeries(store.db, { staleBefore: NOW - DAY, filter: 'new', newSince: NOW - DAY, sort: 'changed' })
    expect(page.rows.map((r) => r.series_id)).toEqual(['gamma', 'beta'])
    expect(page.total).toBe(2)
  })

  it('`new` counts only what a search also matches, and nothing when the caller pages on without a count', async () => {
    const searched = await listSeries(store.db, { staleBefore: NOW - DAY, filter: 'new', newSince: NOW - DAY, search: 'gam' })
    expect(searched.rows.map((r) => r.series_id)).toEqual(['gamma'])
    expect(searched.total).toBe(1)
    const uncounted = await listSeries(store.db, { staleBefore: NOW - DAY, filter: 'new', newSince: NOW - DAY, count: false })
    expect(uncounted.rows.map((r) => r.series_id)).toEqual(['beta', 'gamma'])
    expect(uncounted.total).toBeUndefined()
  })

  it('`new` with thousands of New Chapters: by title, page after page, the same rows and total as counting them all', async () => {
    // Past 5,000 matches the title index is walked instead of sorting the matches: the rows must not change.
    await store.sqlite.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9000)
      INSERT INTO series (site, series_id, title, created_at, latest_changed_at, latest_checked_at)
      SELECT 'bulk', printf('b%05d', i), printf('Bulk %05d', 9001 - i), ${NOW}, CASE WHEN i % 3 = 0 THEN 0 ELSE ${NOW - 1000} END, ${NOW} FROM n`)
    const expected = (
      store.sqlite
        .prepare(
          `SELECT series_id FROM series WHERE latest_changed_at >= ${NOW - DAY} AND latest_changed_at > 0 ORDER BY title COLLATE NOCASE, site, series_id`,
        )
        .all() as Array<{ series_id: string }>
    ).map((r) => r.series_id)
    expect(expected.length).toBeGreaterThan(5_000)
    const first = await listSeries(store.db, { staleBefore: NOW - DAY, filter: 'new', newSince: NOW - DAY, limit: 100 })
    expect(first.total).toBe(expected.length)
    const second = await listSeries(store.db, {
      staleBefore: NOW - DAY,
      filter: 'new',
      newSince: NOW - DAY,
      limit: 100,
      after: first.next!,
    })
    expect([...first.rows, ...second.rows].map((r) => r.series_id)).toEqual(expected.slice(0, 200))
  })
})

describe('the orders and `new` read an index, never sort the table', () => {
  /** The plan of the page query listSeries makes, taken from the statement it prepares. */
  async function pagePlan(query: Partial<Parameters<typeof listSeries>[1]>): Promise<string> {
    const plans: string[] = []
    const prepare = store.sqlite.prepare.bind(store.sqlite)
    store.sqlite.prepare = ((source: string) => {
      const statement = prepare(source)
      const all = statement.all.bind(statement)
      statement.all = (...params: unknown[]) => {
        if (/ORDER BY/i.test(source)) {
          plans.push((prepare(`EXPLAIN QUERY PLAN ${source}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join('\n'))
        }
        return all(...params)
      }
      return statement
    }) as typeof store.sqlite.prepare
    try {
      await listSeries(store.db, { staleBefore: NOW - DAY, ...query })
    } finally {
      store.sqlite.prepare = prepare
    }
    return plans.join('\n')
  }

  it.each([
    ['latest change', { sort: 'changed' as const }, 'series_changed'],
    ['last check', { sort: 'checked' as const }, 'series_checked'],
    ['new, by latest change', { filter: 'new' as const, newSince: NOW - DAY, sort: 'changed' as const }, 'series_changed'],
  ])('%s', async (_name, query, index) => {
    const plan = await pagePlan(query)
    expect(plan).toContain(`INDEX ${index}`)
    expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
  })
})

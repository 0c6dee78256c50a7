import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'

/**
 * The due query and the latest-pass read must seek indexes, never scan `series`, `bookmarks` or
 * `poll_passes`. The SQL is taken from the store's own functions by running them against a spy.
 */
let store: TestStore
beforeEach(async () => {
  store = openTestStore()
  const r = await seedReader(store.db)
  // Ten Sites of thirty Series: a household's shape, so ANALYZE gives the planner realistic statistics.
  for (let i = 0; i < 300; i++) await seedSeries(store.db, { id: `s${i}`, site: `site${i % 10}`, readers: [r] })
  store.sqlite.exec('ANALYZE')
})
afterEach(() => store.dispose())

/** Runs `fn` with the store's connection and returns the plan of every statement it prepared. */
async function plansOf(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: Array<{ sql: string; params: unknown[] }> = []
  const prepare = store.sqlite.prepare.bind(store.sqlite)
  store.sqlite.prepare = ((source: string) => {
    const statement = prepare(source)
    const all = statement.all.bind(statement)
    statement.all = (...params: unknown[]) => {
      seen.push({ sql: source, params })
      return all(...params)
    }
    return statement
  }) as typeof store.sqlite.prepare
  try {
    await fn()
  } finally {
    store.sqlite.prepare = prepare
  }
  return seen.map(({ sql: source, params }) =>
    (store.sqlite.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join('\n'),
  )
}

const aliases: Record<string, string> = { s: 'series', b: 'bookmarks', p: 'poll_passes', l: 'poll_lanes' }
const GUARDED = ['series', 'bookmarks', 'poll_passes']

/** The tables a plan reads by a full scan (SCAN without an index). */
function scanned(plan: string): string[] {
  return plan
    .split('\n')
    .filter((line) => /^SCAN \w+$/.test(line.trim()) || /^SCAN \w+ USING (?!.*INDEX)/.test(line.trim()))
    .map((line) => line.trim().split(' ')[1]!)
    .map((name) => aliases[name] ?? name)
}

describe('query plans', () => {
  it('the due query searches series and bookmarks by index', async () => {
    const { dueSeries } = await import('./due')
    const [plan] = await plansOf(() => dueSeries(store.db, 'site3', { restCutoff: 0, ceilingCutoff: 0 }))
    expect(plan).toMatch(/SEARCH s USING INDEX sqlite_autoindex_series_1 \(site=\?\)/)
    expect(plan).toMatch(/SEARCH b USING COVERING INDEX bookmarks_series \(site=\? AND series_id=\?\)/)
    expect(scanned(plan!).filter((t) => GUARDED.includes(t))).toEqual([])
  })

  it('the eligible count searches by index', async () => {
    const { eligibleCount } = await import('./due')
    const [plan] = await plansOf(() => eligibleCount(store.db, 'site3'))
    expect(plan).toMatch(/SEARCH s USING INDEX/)
    expect(scanned(plan!).filter((t) => GUARDED.includes(t))).toEqual([])
  })

  it('latestPassPerSite seeks poll_passes by (site, id)', async () => {
    const { insertPass, latestPassPerSite } = await import('./passes')
    for (let i = 0; i < 20; i++) {
      await insertPass(store.db, {
        site: i % 2 ? 'a' : 'b',
        started_at: i,
        ended_at: i,
        skip: '',
        due: 1,
        gap: 1,
        clamped: 0,
        checked: 1,
        refused: 0,
        unreachable: 0,
        no_chapter: 0,
        unfetchable: 0,
        errors: 0,
      })
    }
    store.sqlite.exec('ANALYZE')
    const plans = await plansOf(() => latestPassPerSite(store.db))
    const plan = plans.join('\n')
    expect(plan).toMatch(/SEARCH poll_passes USING COVERING INDEX poll_passes_site_id \(site=\?\)/)
    expect(plan).toMatch(/SEARCH p USING INTEGER PRIMARY KEY/)
    expect(scanned(plan).filter((t) => GUARDED.includes(t))).toEqual([])
  })
})

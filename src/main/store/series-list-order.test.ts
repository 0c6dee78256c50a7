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
})

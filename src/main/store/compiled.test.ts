/**
 * Statements compiled once (compiled.ts, docs/adr/0227-check-path-statements-compiled-once.md): each run binds its
 * own arguments where the builder had them — two equal arguments, constants the builder wrote, a second run with
 * other values — on a real SQLite file; an argument that is no bound value is refused; a handle with a plugin has
 * the query built in full, its tree and values seen.
 */
import { sql, type KyselyPlugin } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedSeries, type TestStore } from '../testing/store'
import { changedRows, compiledOnce, firstRow } from './compiled'

let store: TestStore
beforeEach(async () => {
  store = openTestStore()
  await seedSeries(store.db, { id: 's1', title: 'One' })
  await seedSeries(store.db, { id: 's2', title: 'Two' })
})
afterEach(() => store.dispose())

const titleOf = compiledOnce((db, site: string, seriesId: string) =>
  db.selectFrom('series').select('title').where('site', '=', site).where('series_id', '=', seriesId),
)
/** Two arguments that may be equal, and a constant the builder wrote between them. */
const stamp = compiledOnce((db, at: number, forcedAt: number, seriesId: string) =>
  db
    .updateTable('series')
    .set({ latest_checked_at: at, force_poll_at: forcedAt, last_error: 'stamped' })
    .where('site', '=', 'a')
    .where('series_id', '=', seriesId),
)

describe('a statement compiled once', () => {
  it('binds each run its own arguments, in their places', async () => {
    expect(await firstRow(titleOf, store.db, 'a', 's1')).toEqual({ title: 'One' })
    expect(await firstRow(titleOf, store.db, 'a', 's2')).toEqual({ title: 'Two' })
    expect(await firstRow(titleOf, store.db, 'b', 's2')).toBeUndefined()
    expect(await changedRows(stamp, store.db, 7, 7, 's1')).toBe(1)
    expect(await changedRows(stamp, store.db, 8, 9, 's2')).toBe(1)
    const rows = await store.db
      .selectFrom('series')
      .select(['series_id', 'latest_checked_at', 'force_poll_at', 'last_error'])
      .orderBy('series_id')
      .execute()
    expect(rows).toEqual([
      { series_id: 's1', latest_checked_at: 7, force_poll_at: 7, last_error: 'stamped' },
      { series_id: 's2', latest_checked_at: 8, force_poll_at: 9, last_error: 'stamped' },
    ])
  })

  it('runs inside a transaction as part of it', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await stamp(trx, 5, 5, 's1')
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await store.db.selectFrom('series').select('latest_checked_at').where('series_id', '=', 's1').executeTakeFirst()).not.toEqual({
      latest_checked_at: 5,
    })
  })

  it('refuses an argument used for anything but a bound value', () => {
    const byColumn = compiledOnce((_db, column: string) => sql`SELECT ${sql.ref(column)} FROM series`)
    expect(() => byColumn(store.db, 'title')).toThrow('argument 0 is not a bound value')
  })

  it('with a plugin, is built in full: the plugin sees its tree and its values', async () => {
    const seen: string[] = []
    const plugin: KyselyPlugin = {
      transformQuery: (args) => (seen.push(JSON.stringify(args.node)), args.node),
      transformResult: async (args) => args.result,
    }
    expect(await firstRow(titleOf, store.db.withPlugin(plugin), 'a', 's2')).toEqual({ title: 'Two' })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toContain('"SelectQueryNode"')
    expect(seen[0]).toContain('"s2"')
  })
})

/** The other ids a Series is known by (docs/adr/0233-a-moved-series-is-one-series.md), on a real SQLite file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../testing/store'
import { addSeries, pruneOrphanSeries } from './series'
import { aliasesOf, dropSeriesAlias, knownSeriesKey, knownSeriesKeys, recordSeriesAliases } from './series-aliases'

let store: TestStore
const site = 's'
const a = { site, seriesId: 'a' }
const b = { site, seriesId: 'b' }
beforeEach(async () => {
  store = openTestStore()
  await addSeries(store.db, { ...a, seriesUrl: 'https://s/m/a/', now: 1 })
  await addSeries(store.db, { ...b, seriesUrl: 'https://s/m/b/', now: 1 })
})
afterEach(() => store.dispose())

describe('an id that names a Series', () => {
  it('is its key, else the Series it is an alias of, else itself (a new Series)', async () => {
    await recordSeriesAliases(store.db, a, ['a', 'a-2', '', 'a-2'])
    expect(await aliasesOf(store.db, a)).toEqual(['a-2'])
    expect(await knownSeriesKey(store.db, { site, seriesId: 'a-2' })).toEqual(a)
    expect(await knownSeriesKey(store.db, a)).toEqual(a)
    expect(await knownSeriesKey(store.db, { site, seriesId: 'c' })).toEqual({ site, seriesId: 'c' })
    // Another Site's id of the same name is another Series.
    expect(await knownSeriesKey(store.db, { site: 't', seriesId: 'a-2' })).toEqual({ site: 't', seriesId: 'a-2' })
  })

  it('that is a Series of its own is that Series, whatever it is an alias of', async () => {
    await recordSeriesAliases(store.db, a, ['b'])
    expect(await knownSeriesKey(store.db, b)).toEqual(b)
  })

  it('names the Series it moved to last', async () => {
    await recordSeriesAliases(store.db, a, ['x'])
    await recordSeriesAliases(store.db, b, ['x'])
    expect(await knownSeriesKey(store.db, { site, seriesId: 'x' })).toEqual(b)
    expect(await aliasesOf(store.db, a)).toEqual([])
  })

  it('dropped, or its Series gone, names nothing known', async () => {
    await recordSeriesAliases(store.db, a, ['a-2', 'a-3'])
    await dropSeriesAlias(store.db, a, 'a-2')
    await dropSeriesAlias(store.db, b, 'a-3') // another Series' alias is not touched
    expect(await aliasesOf(store.db, a)).toEqual(['a-3'])
    expect(await pruneOrphanSeries(store.db, 10)).toBe(2)
    expect(await knownSeriesKey(store.db, { site, seriesId: 'a-3' })).toEqual({ site, seriesId: 'a-3' })
    expect(await store.db.selectFrom('series_aliases').selectAll().execute()).toEqual([])
  })

  it('many at once: only those naming another Series are answered, past one statement’s bound', async () => {
    const ids = Array.from({ length: 1_200 }, (_, i) => `a-${i}`)
    await recordSeriesAliases(store.db, a, ids)
    const known = await knownSeriesKeys(store.db, [...ids.map((seriesId) => ({ site, seriesId })), b, { site, seriesId: 'new' }])
    expect(known.size).toBe(1_200)
    expect(known.get(`${site}\u0000a-1199`)).toEqual(a)
    expect(known.has(`${site}\u0000b`)).toBe(false)
  })
})

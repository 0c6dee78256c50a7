/**
 * The other ids a Series is known by (docs/adr/0233-a-moved-series-is-one-series.md): when a Series' URL changes
 * to one whose id is not its key (a found-again move, the owner's edit), the ids of the URL it moved to and the
 * URL it left name it from then on. A URL names the Series whose key its id is; else the Series that id is an
 * alias of; else a new Series under that id. Every door a URL comes in by (a follow, the owner's add, an import, a
 * Sighting, a search result) asks here, so none makes a second Series of a moved one.
 */
import type { Db } from './database'
import type { SeriesKey } from './schema'

const keyOf = (k: SeriesKey) => `${k.site}\u0000${k.seriesId}`
/** How many ids one statement looks up (well under SQLite's bound on variables). */
const CHUNK = 500

/**
 * Records that `ids` (read from URLs of the Series on its Site) name the Series `key`: an id that is its key is
 * left out, and an id that named another Series before now names this one (the latest move wins).
 */
export async function recordSeriesAliases(db: Db, key: SeriesKey, ids: readonly string[]): Promise<void> {
  const aliases = [...new Set(ids)].filter((id) => id !== '' && id !== key.seriesId)
  if (aliases.length === 0) return
  await db
    .insertInto('series_aliases')
    .values(aliases.map((alias_id) => ({ site: key.site, alias_id, series_id: key.seriesId })))
    .onConflict((oc) => oc.columns(['site', 'alias_id']).doUpdateSet((eb) => ({ series_id: eb.ref('excluded.series_id') })))
    .execute()
}

/** `id` names the Series no more (unless it is its key). */
export async function dropSeriesAlias(db: Db, key: SeriesKey, id: string): Promise<void> {
  await db
    .deleteFrom('series_aliases')
    .where('site', '=', key.site)
    .where('alias_id', '=', id)
    .where('series_id', '=', key.seriesId)
    .execute()
}

/** The other ids that name a Series, in order. */
export async function aliasesOf(db: Db, key: SeriesKey): Promise<string[]> {
  const rows = await db
    .selectFrom('series_aliases')
    .select('alias_id')
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .orderBy('alias_id')
    .execute()
  return rows.map((r) => r.alias_id)
}

/** The Series a key read from a URL names: itself when a Series has it, else the Series it is an alias of, else itself. */
export async function knownSeriesKey(db: Db, key: SeriesKey): Promise<SeriesKey> {
  return (await knownSeriesKeys(db, [key])).get(keyOf(key)) ?? key
}

/**
 * As knownSeriesKey for many keys (an import's), by `site\0seriesId`: only keys that name another Series are in
 * the answer. Two index reads per Site and 500 ids, never a scan.
 */
export async function knownSeriesKeys(db: Db, keys: readonly SeriesKey[]): Promise<Map<string, SeriesKey>> {
  const answer = new Map<string, SeriesKey>()
  const bySite = new Map<string, string[]>()
  for (const k of keys) {
    const ids = bySite.get(k.site)
    if (ids) ids.push(k.seriesId)
    else bySite.set(k.site, [k.seriesId])
  }
  for (const [site, ids] of bySite) {
    const unique = [...new Set(ids)]
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await db
        .selectFrom('series_aliases as a')
        .innerJoin('series as s', (join) => join.onRef('s.site', '=', 'a.site').onRef('s.series_id', '=', 'a.series_id'))
        .select(['a.alias_id', 'a.series_id'])
        .where('a.site', '=', site)
        .where('a.alias_id', 'in', unique.slice(i, i + CHUNK))
        // A key a Series has is that Series, whatever alias it also is.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('series as own')
                .select('own.series_id')
                .whereRef('own.site', '=', 'a.site')
                .whereRef('own.series_id', '=', 'a.alias_id'),
            ),
          ),
        )
        .execute()
      for (const r of rows) answer.set(keyOf({ site, seriesId: r.alias_id }), { site, seriesId: r.series_id })
    }
  }
  return answer
}

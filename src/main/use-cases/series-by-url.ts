/**
 * Which Series a URL names (docs/adr/0233-a-moved-series-is-one-series.md), the one answer every door a URL comes
 * in by uses — a Reader's follow and the owner's add (bookmarkByUrl), an import, a Sighting by URL, a search
 * result's "following" — and the one way a Series' URL changes, so a Series that moved is never made twice.
 */
import { AppError } from '../../shared/errors'
import type { ImportPlan, PlannedBookmark, PlannedSeries } from '../library/plan'
import { isPinned, parseUrl, type Site } from '../sites/site'
import type { SiteRegistry } from '../sites/registry'
import type { Db } from '../store/database'
import type { SeriesKey } from '../store/schema'
import { getSeries, setSeriesUrl } from '../store/series'
import { dropSeriesAlias, knownSeriesKey, knownSeriesKeys, recordSeriesAliases } from '../store/series-aliases'

export interface UrlSeries {
  site: Site
  /** The Series the URL names: the key its id is, or the Series that id is another id of. */
  key: SeriesKey
  /** The Series' own page, as the URL gives it (for a Series the app does not know yet). */
  seriesUrl: string
}

/** The Series a URL names, or null when it is no Series URL on a Site's host pin. */
export async function seriesOfUrl(db: Db, registry: SiteRegistry, rawUrl: string): Promise<UrlSeries | null> {
  const match = registry.resolve(rawUrl)
  if (!match) return null
  await rememberEarlierMoves(db, registry)
  const key = await knownSeriesKey(db, { site: match.site.key, seriesId: match.seriesId })
  return { site: match.site, key, seriesUrl: match.seriesUrl }
}

/**
 * Moves a Series to another URL on its Site's host pin: its key, bookmarks, Progress and history stay, and the id
 * of the URL it goes to names it from now on. `found` (a found-again move the owner accepted): the URL it left was
 * its page, and its id goes on naming it. The owner's own edit may be a correction: the id of the URL it replaces
 * names it no more (its key always does). One transaction.
 */
export async function moveSeriesUrl(db: Db, site: Site, key: SeriesKey, move: { url: string; found: boolean; now: number }): Promise<void> {
  const url = parseUrl(move.url)
  if (!url || !isPinned(site, url)) throw new AppError('off-pin', `the URL is not on ${site.name}'s host pin (${site.hosts.join(', ')})`)
  await db.transaction().execute(async (trx) => {
    const series = await getSeries(trx, key)
    if (!series) throw new AppError('not-found', `no Series ${key.site}/${key.seriesId}`)
    const left = parseUrl(series.series_url)
    const leftId = left && isPinned(site, left) ? site.seriesIdOf(left) : null
    const toId = site.seriesIdOf(url)
    if (move.found && leftId) await recordSeriesAliases(trx, key, [leftId])
    else if (leftId && leftId !== toId) await dropSeriesAlias(trx, key, leftId)
    if (toId) await recordSeriesAliases(trx, key, [toId])
    await setSeriesUrl(trx, key, url.href, move.now)
  })
}

/**
 * An import's plan with every planned Series and bookmark on the Series its key names: a Series known by another
 * id is the one it is, and two entries that name one Series (its old and new URL) are one Series and one bookmark
 * per Reader — the later Progress kept.
 */
export async function planOnKnownSeries(db: Db, registry: SiteRegistry, plan: ImportPlan): Promise<ImportPlan> {
  await rememberEarlierMoves(db, registry)
  const known = await knownSeriesKeys(db, plan.series)
  if (known.size === 0) return plan
  const on = <T extends SeriesKey>(row: T): T => {
    const to = known.get(`${row.site}\u0000${row.seriesId}`)
    return to ? { ...row, seriesId: to.seriesId } : row
  }
  const series = new Map<string, PlannedSeries>()
  for (const s of plan.series.map(on)) {
    const had = series.get(`${s.site}\u0000${s.seriesId}`)
    if (!had) series.set(`${s.site}\u0000${s.seriesId}`, s)
    else if (!had.title && s.title) had.title = s.title
  }
  const bookmarks = new Map<string, PlannedBookmark>()
  for (const b of plan.bookmarks.map(on)) {
    const id = `${b.reader}\u0000${b.site}\u0000${b.seriesId}`
    const had = bookmarks.get(id)
    if (!had || (b.progressAt ?? 0) > (had.progressAt ?? 0)) bookmarks.set(id, b)
  }
  return { ...plan, series: [...series.values()], bookmarks: [...bookmarks.values()] }
}

/**
 * Moves made before the aliases were kept (schema 0017): a Series found again and moved has a `series_found` row
 * and a URL whose id is not its key. Read once per store and process — a few rows, one statement — and kept.
 */
const remembered = new WeakMap<Db, Promise<void>>()
async function rememberEarlierMoves(db: Db, registry: SiteRegistry): Promise<void> {
  let done = remembered.get(db)
  if (!done) {
    // A store that cannot be written (read-only, a full disk) answers without them, and is tried again next time.
    done = rememberMovesOf(db, registry).catch(() => void remembered.delete(db))
    remembered.set(db, done)
  }
  await done
}

async function rememberMovesOf(db: Db, registry: SiteRegistry): Promise<void> {
  const rows = await db
    .selectFrom('series_found as f')
    .innerJoin('series as s', (join) => join.onRef('s.site', '=', 'f.site').onRef('s.series_id', '=', 'f.series_id'))
    .select(['s.site', 's.series_id', 's.series_url'])
    .execute()
  for (const r of rows) {
    const site = registry.get(r.site)
    const url = parseUrl(r.series_url)
    const id = site && url && isPinned(site, url) ? site.seriesIdOf(url) : null
    if (id && id !== r.series_id) await recordSeriesAliases(db, { site: r.site, seriesId: r.series_id }, [id])
  }
}

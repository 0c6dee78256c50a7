/**
 * The `sightings` aggregate: a Reader's report of the latest chapter they saw on the Site. A Sighting can
 * raise the Latest Chapter provisionally; it stays outstanding (verdict '') until a check judges it.
 */
import { compiledOnce, firstRow } from './compiled'
import type { Db } from './database'
import type { SightingRow } from './schema'
import { checkedChapter, requireSeries, type SeriesKey } from './series'

export interface SightingReport {
  sighting: SightingRow
  /** The Sighting raised the Latest Chapter provisionally. */
  raised: boolean
  /** The Sighting was too far above the Latest Chapter to be shown: it waits for a check to judge it. */
  held: boolean
}

/**
 * The most chapters a Sighting may raise the Latest Chapter by before a check has judged it
 * (docs/adr/0081-one-reader-bounded.md), counted from the chapter a check last found. A Sighting further above is recorded and judged by the next
 * check, but shown to nobody meanwhile: one Reader can make the others' cards say at most this many unread.
 */
export const SIGHTING_MAX_LEAD = 10

/**
 * Records a Sighting, stamps `latest_sighted_at`, and raises the Latest Chapter if it is higher — by at most
 * `SIGHTING_MAX_LEAD`; a Sighting further above is held. A Reader has at most one outstanding Sighting of a
 * Series: a new one replaces it, so what a Reader can leave waiting is bounded by their bookmarks.
 */
export async function recordSighting(
  db: Db,
  input: SeriesKey & { readerId: number; chapter: number; sightedAt: number; now: number },
): Promise<SightingReport> {
  return db.transaction().execute(async (trx) => {
    const series = await requireSeries(trx, input)
    const sighting = await trx
      .insertInto('sightings')
      .values({
        reader_id: input.readerId,
        site: input.site,
        series_id: input.seriesId,
        chapter: input.chapter,
        sighted_at: input.sightedAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    // The Reader's earlier outstanding Sighting of the Series goes once this one is in: inserted first, the new
    // one takes a fresh id, so a check that began before it does not judge it (lastSightingId).
    await trx
      .deleteFrom('sightings')
      .where('site', '=', input.site)
      .where('series_id', '=', input.seriesId)
      .where('verdict', '=', '')
      .where('reader_id', '=', input.readerId)
      .where('id', '<', sighting.id)
      .execute()
    const higher = series.latest_chapter === null || input.chapter > series.latest_chapter
    // Bounded from what a check last found, not from a Latest Chapter a Sighting already raised: Sightings in
    // steps of the bound cannot walk it up (docs/adr/0119-sightings-judged-from-the-last-check.md).
    const checked = checkedChapter(series)
    const held = higher && input.chapter > (checked ?? 0) + SIGHTING_MAX_LEAD
    const raised = higher && !held
    await trx
      .updateTable('series')
      .set({
        latest_sighted_at: Math.max(series.latest_sighted_at, input.sightedAt),
        ...(raised
          ? {
              latest_chapter: input.chapter,
              latest_chapter_label: '',
              latest_chapter_url: '',
              latest_source: 'sighting' as const,
              latest_changed_at: input.now,
              checked_chapter: checked,
            }
          : {}),
      })
      .where('site', '=', input.site)
      .where('series_id', '=', input.seriesId)
      .execute()
    if (raised) {
      await trx
        .insertInto('latest_chapter_history')
        .values({ site: input.site, series_id: input.seriesId, chapter: input.chapter, source: 'sighting', at: input.now })
        .execute()
    }
    return { sighting, raised, held }
  })
}

/** The newest Sighting of a Series (0 for none): a check judges only the Sightings made before it began. */
export async function lastSightingId(db: Db, key: SeriesKey): Promise<number> {
  // Read at every check: compiled once (store/compiled.ts). Its MAX is null when there is no Sighting.
  const row = await firstRow(LAST_SIGHTING, db, key.site, key.seriesId)
  return Number(row?.id ?? 0)
}

const LAST_SIGHTING = compiledOnce((db, site: string, seriesId: string) =>
  db
    .selectFrom('sightings')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('site', '=', site)
    .where('series_id', '=', seriesId),
)

/**
 * A check that found chapters judges the Series' outstanding Sightings made before it began (`upToId`):
 * confirmed when the Site shows at least that chapter, suspicious otherwise. A Sighting that arrived while
 * the page was being fetched waits for the next check.
 */
export async function judgeSightings(
  db: Db,
  key: SeriesKey,
  highestFound: number,
  now: number,
  upToId: number = Number.MAX_SAFE_INTEGER,
): Promise<{ confirmed: number; suspicious: number }> {
  const outstanding = db
    .updateTable('sightings')
    .set({ judged_at: now })
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .where('verdict', '=', '')
    .where('id', '<=', upToId)
  const confirmed = await outstanding.set({ verdict: 'confirmed' }).where('chapter', '<=', highestFound).executeTakeFirst()
  const suspicious = await outstanding.set({ verdict: 'suspicious' }).where('chapter', '>', highestFound).executeTakeFirst()
  return { confirmed: Number(confirmed.numUpdatedRows), suspicious: Number(suspicious.numUpdatedRows) }
}

/** A Series' Sightings, newest first, with the name of the Reader who reported each. */
export async function seriesSightings(db: Db, key: SeriesKey, limit = 50): Promise<Array<SightingRow & { reader_name: string }>> {
  return db
    .selectFrom('sightings as g')
    .innerJoin('readers as r', 'r.id', 'g.reader_id')
    .selectAll('g')
    .select('r.name as reader_name')
    .where('g.site', '=', key.site)
    .where('g.series_id', '=', key.seriesId)
    .orderBy('g.id', 'desc')
    .limit(limit)
    .execute()
}

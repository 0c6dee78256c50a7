/**
 * The `series` aggregate: one work on one Site, its Latest Chapter, its check stamp and the owner's
 * Forced Poll and Finished marks. Plain functions, the database first, times as parameters. The Lane's
 * due query lives in `due.ts`, the owner's list and counts in `series-list.ts`.
 */
import { sql, type Compilable, type UpdateObject } from 'kysely'
import { AppError } from '../../shared/errors'
import { GONE_AFTER_CHECKS } from '../../shared/series-state'
import { touchBookmarksOf } from './bookmarks'
import { changedRows, compiledOnce, firstRow, type Statement } from './compiled'
import type { Db } from './database'
import type { CheckOutcomeName, Database, LatestChapterHistoryRow, SeriesKey, SeriesRow } from './schema'

export type { SeriesKey } from './schema'

export async function addSeries(db: Db, input: SeriesKey & { title?: string; seriesUrl?: string; now: number }): Promise<SeriesRow> {
  await db
    .insertInto('series')
    .values({
      site: input.site,
      series_id: input.seriesId,
      title: input.title ?? '',
      series_url: input.seriesUrl ?? '',
      latest_chapter: null,
      created_at: input.now,
    })
    .onConflict((oc) => oc.columns(['site', 'series_id']).doNothing())
    .execute()
  return requireSeries(db, input)
}

const SELECT_SERIES = compiledOnce((db, site: string, seriesId: string) =>
  db.selectFrom('series').selectAll().where('site', '=', site).where('series_id', '=', seriesId),
)

export async function getSeries(db: Db, key: SeriesKey): Promise<SeriesRow | undefined> {
  // Read at every check: compiled once (store/compiled.ts).
  return firstRow(SELECT_SERIES, db, key.site, key.seriesId)
}

export async function requireSeries(db: Db, key: SeriesKey): Promise<SeriesRow> {
  const row = await getSeries(db, key)
  if (!row) throw new AppError('not-found', `no Series ${key.site}/${key.seriesId}`)
  return row
}

/**
 * The check stamp, written before every fetch (docs/design.md#the-lane-pass). It ends any pending Forced Poll
 * whatever the fetch returns — even one pressed while the wall clock ran ahead of `now`, whose time is brought
 * back to `now` (docs/adr/0011-time-and-the-wall-clock.md). With `plannedRestMs` (an adaptive Site) the Series'
 * next planned check becomes a rest from now, until the check's result plans it
 * (docs/adr/0014-freshness-per-request.md). Returns false when no such Series exists.
 */
export async function markLatestChecked(db: Db, key: SeriesKey, now: number, plannedRestMs?: number): Promise<boolean> {
  // An adaptive Site's Series: the fixed rest until the check plans better (a check that fails plans nothing).
  const changed =
    plannedRestMs === undefined
      ? await changedRows(STAMP, db, now, key.site, key.seriesId)
      : await changedRows(STAMP_PLANNED, db, now, now + plannedRestMs, key.site, key.seriesId)
  return changed > 0
}

const STAMP = compiledOnce((db, now: number, site: string, seriesId: string) =>
  db
    .updateTable('series')
    .set({ latest_checked_at: now, force_poll_at: sql<number>`MIN(force_poll_at, ${now})` })
    .where('site', '=', site)
    .where('series_id', '=', seriesId),
)
const STAMP_PLANNED = compiledOnce((db, now: number, nextCheckAt: number, site: string, seriesId: string) =>
  db
    .updateTable('series')
    .set({ latest_checked_at: now, force_poll_at: sql<number>`MIN(force_poll_at, ${now})`, next_check_at: nextCheckAt })
    .where('site', '=', site)
    .where('series_id', '=', seriesId),
)

/**
 * Check now: stamps the request time (docs/adr/0001). Idempotent; pressing again re-stamps. Always pending
 * afterwards, whatever the clock did, and its age true: when the last check stamp is ahead of `now` (a wall
 * clock set back since), that stamp is brought back to just before the press — the Series is about to be
 * checked anyway — rather than the press moved after it, which would read "0 s" until the clock caught up and
 * hide a stuck Lane (docs/adr/0011).
 */
export async function forceSeriesPoll(db: Db, key: SeriesKey, now: number): Promise<void> {
  await updateOrThrow(db, key, {
    force_poll_at: now,
    latest_checked_at: sql<number>`MIN(latest_checked_at, ${now - 1})`,
  })
}

/** A Series whose page answers again: no run of "gone" answers. */
const NOT_GONE = { gone_checks: 0, gone_since: 0, gone_status: 0 }

/** Why a check was not a chapter, kept short enough for a list row. */
const MAX_REASON = 300

const GONE_CHECKS = compiledOnce((db, site: string, seriesId: string) =>
  db.selectFrom('series').select('gone_checks').where('site', '=', site).where('series_id', '=', seriesId),
)

/**
 * Records a check's outcome on its Series — the outcome, why (empty for a chapter) and when — so the owner
 * sees why a check failed where they look (docs/design.md#data).
 */
export async function recordCheckOutcome(
  db: Db,
  key: SeriesKey,
  outcome: { outcome: CheckOutcomeName; reason: string; at: number; gone?: number },
): Promise<void> {
  // A page answering 404 or 410 counts one more check in a row; anything else ends the run
  // (docs/adr/0113-a-series-whose-page-is-gone.md).
  const before = await firstRow(GONE_CHECKS, db, key.site, key.seriesId)
  const goneBefore = before?.gone_checks ?? 0
  const gone = outcome.gone
    ? {
        gone_checks: goneBefore + 1,
        gone_since: sql<number>`CASE WHEN gone_checks = 0 THEN ${outcome.at} ELSE gone_since END`,
        gone_status: outcome.gone,
      }
    : NOT_GONE
  // What a Reader's card says changes when the run reaches the count, or ends after it: a sync with `since` sees it.
  const crossed = outcome.gone ? goneBefore + 1 === GONE_AFTER_CHECKS : goneBefore >= GONE_AFTER_CHECKS
  if (crossed) await touchBookmarksOf(db, key, outcome.at)
  await db
    .updateTable('series')
    .set({
      last_outcome: outcome.outcome,
      last_error: outcome.outcome === 'chapter' ? '' : outcome.reason.slice(0, MAX_REASON),
      last_outcome_at: outcome.at,
      ...gone,
    })
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .execute()
}

const STILL_DUE = compiledOnce((db, site: string, seriesId: string) =>
  db
    .selectFrom('series')
    .select(['series_url', 'finished_at', 'force_poll_at', 'latest_checked_at', 'reader_count'])
    .where('site', '=', site)
    .where('series_id', '=', seriesId),
)

/**
 * Whether a Series is still due for the reasons the due query gave — it has a URL, a Reader holds it, it is not
 * Finished unless forced, and nobody checked it since the due query read it (an Acquisition, another pass) unless
 * a Check now asks again — read just before its request, so a Series orphaned, emptied or checked mid-pass is not
 * fetched. `checkedAt` is the stamp the due query saw. Returns its current URL, or null.
 */
export async function stillDue(db: Db, key: SeriesKey, checkedAt: number): Promise<string | null> {
  const row = await firstRow(STILL_DUE, db, key.site, key.seriesId)
  if (!row || !row.series_url || row.reader_count === 0) return null
  const forced = row.force_poll_at > row.latest_checked_at
  if (row.finished_at !== 0 && !forced) return null
  if (row.latest_checked_at !== checkedAt && !forced) return null
  return row.series_url
}

/**
 * After the wall clock was set back, the stamps a Site's Series were given "in the future" are moved back by the
 * step — the newest to `now`, the others keeping their spacing, so they do not all come due at once a rest later
 * (docs/adr/0011-time-and-the-wall-clock.md). A stamp ahead of the clock would otherwise keep its Series from
 * being due for as long as the clock was ahead. A pending Check now stays pending; one already served stays
 * served. Returns how many Series it changed.
 *
 * `steppedBackMs`, when the app saw the step happen (an adaptive Lane watches the wall clock against the
 * monotonic one), is the step itself: every planned check still ahead moves back by it too, so a Series resting
 * toward its release window is checked when the window opens, not the step later.
 */
export async function repairFutureStamps(db: Db, site: string, now: number, steppedBackMs = 0): Promise<number> {
  const newest = await db
    .selectFrom('series')
    .select((eb) => eb.fn.max('latest_checked_at').as('at'))
    .where('site', '=', site)
    .executeTakeFirstOrThrow()
  const step = Math.max(0, steppedBackMs, Number(newest.at ?? 0) - now)
  const seen = steppedBackMs > 0 ? 1 : 0
  const back = (column: string) =>
    sql`(CASE WHEN ${sql.ref(column)} > ${now} THEN MAX(${sql.ref(column)} - ${step}, 0) ELSE ${sql.ref(column)} END)`
  const checked = back('latest_checked_at')
  const result = await sql`
    UPDATE series SET
      latest_checked_at = ${checked},
      next_check_at = CASE WHEN next_check_at > 0 AND (latest_checked_at > ${now} OR (${seen} AND next_check_at > ${now}))
        THEN MAX(next_check_at - ${step}, 1) ELSE next_check_at END,
      latest_sighted_at = MIN(${back('latest_sighted_at')}, ${now}),
      latest_changed_at = MIN(${back('latest_changed_at')}, ${now}),
      force_poll_at = CASE WHEN force_poll_at > latest_checked_at
        THEN MAX(MIN(${back('force_poll_at')}, ${now}), ${checked} + 1)
        ELSE MIN(${back('force_poll_at')}, ${checked}) END
    WHERE site = ${site}
      AND (latest_checked_at > ${now} OR latest_sighted_at > ${now} OR latest_changed_at > ${now} OR force_poll_at > ${now}
        OR (${seen} AND next_check_at > ${now}))
  `.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}

/** The owner shelves a Series: it is not polled unless forced. */
export async function finishSeries(db: Db, key: SeriesKey, now: number): Promise<void> {
  await updateOrThrow(db, key, { finished_at: now })
  await touchBookmarksOf(db, key, now)
}

export async function unfinishSeries(db: Db, key: SeriesKey, now: number): Promise<void> {
  await updateOrThrow(db, key, { finished_at: 0 })
  await touchBookmarksOf(db, key, now)
}

/** Stores a Series URL; the caller has checked it against the Site's host pin. */
export async function setSeriesUrl(db: Db, key: SeriesKey, seriesUrl: string, now: number): Promise<void> {
  await updateOrThrow(db, key, { series_url: seriesUrl })
  await touchBookmarksOf(db, key, now)
}

async function updateOrThrow(db: Db, key: SeriesKey, values: UpdateObject<Database, 'series'>): Promise<void> {
  const result = await db
    .updateTable('series')
    .set(values)
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw new AppError('not-found', `no Series ${key.site}/${key.seriesId}`)
}

export interface FoundChapter {
  chapter: number
  label: string
  url: string
}

export type LatestMove = 'first' | 'up' | 'confirmed' | 'corrected-down' | 'none'

/**
 * What a check's highest chapter does to the Latest Chapter (docs/design.md#the-lane-pass): a higher one moves it up (a New
 * Chapter, unless nothing was known before), and so does one above what a check last found under a Sighting's
 * higher raise; a lower one than a Sighting raised corrects it down; a lower
 * one than an earlier check found changes nothing (the Latest Chapter is the highest the app knows).
 */
export function latestMove(current: Pick<SeriesRow, 'latest_chapter' | 'latest_source' | 'checked_chapter'>, found: number): LatestMove {
  if (current.latest_chapter === null) return 'first'
  // Above what a check last found is a New Chapter, whatever a Sighting claimed (the Sighting is judged).
  const checked = checkedChapter(current)
  if (found > current.latest_chapter || (checked !== null && found > checked)) return 'up'
  if (found === current.latest_chapter) return current.latest_source === 'check' ? 'none' : 'confirmed'
  return current.latest_source === 'sighting' ? 'corrected-down' : 'none'
}

/**
 * The Latest Chapter as a check (or an import) last set it: the Latest Chapter, or under a Sighting's raise the
 * chapter it was raised from (null: nothing a check found). Sightings are bounded from it; a check above it is a
 * New Chapter (docs/adr/0119-sightings-judged-from-the-last-check.md).
 */
export function checkedChapter(s: Pick<SeriesRow, 'latest_chapter' | 'latest_source' | 'checked_chapter'>): number | null {
  return s.latest_source === 'sighting' ? s.checked_chapter : s.latest_chapter
}

/** An adaptive Site's plan for a Series (migration 0008; docs/adr/0014-freshness-per-request.md). */
export interface PlanColumns {
  next_check_at: number
  rhythm: string
  releases: string
  rhythm_misses: number
}

export interface CheckResultReport {
  move: LatestMove
  /** The Latest Chapter moved forward past a known one: a New Chapter (notified, shown in ember). */
  newChapter: boolean
  previous: number | null
  series: SeriesRow
}

/**
 * Records a check that found chapters: the Latest Chapter move, its history and the title — and, with
 * `outcome`, the check's outcome (a chapter) in the same write. The steady state (the same chapter and title)
 * is one read and one write.
 */
export async function recordCheckResult(
  db: Db,
  input: SeriesKey & {
    found: FoundChapter
    title?: string
    now: number
    outcome?: boolean
    /** An adaptive Site's: the Series' next planned check and what it was learnt from, written in the same update. */
    plan?: (current: SeriesRow, newChapter: boolean) => PlanColumns
  },
): Promise<CheckResultReport> {
  const current = await requireSeries(db, input)
  const move = latestMove(current, input.found.chapter)
  const moved = move === 'first' || move === 'up' || move === 'corrected-down'
  const retitled = Boolean(input.title && input.title !== current.title)
  const changes = {
    ...(retitled ? { title: input.title! } : {}),
    ...(moved || move === 'confirmed'
      ? {
          latest_chapter: input.found.chapter,
          latest_chapter_label: input.found.label,
          latest_chapter_url: input.found.url,
          latest_source: 'check' as const,
          checked_chapter: input.found.chapter,
        }
      : {}),
    // Only a move past a known chapter is a New Chapter; the first one found is not (no ember, no notice).
    ...(move === 'up' ? { latest_changed_at: input.now } : {}),
    ...(input.outcome
      ? { last_outcome: 'chapter' as const, last_error: '', last_outcome_at: input.now, ...(current.gone_checks ? NOT_GONE : {}) }
      : {}),
    ...(input.plan ? input.plan(current, move === 'up') : {}),
  }
  await updateColumns(db, input, changes)
  if (retitled || (moved && move !== 'up') || move === 'confirmed' || (input.outcome && current.gone_checks >= GONE_AFTER_CHECKS)) {
    // Not a New Chapter, but what the Series shows a Reader changed (a first Latest Chapter, a correction,
    // a confirmation, a title): Readers syncing with `since` must see it. An 'up' move is seen through
    // latest_changed_at.
    await touchBookmarksOf(db, input, input.now)
  }
  if (moved) {
    const source = move === 'corrected-down' ? 'correction' : 'check'
    await INSERT_HISTORY(db, input.site, input.seriesId, input.found.chapter, input.found.label, source, input.now)
  }
  // Every change is a plain value, so the row as stored is the row read with them applied.
  // What the check moved from: under a Sighting's raise, the chapter a check last found (chapters above it arrived).
  const previous = current.latest_source === 'sighting' ? (current.checked_chapter ?? current.latest_chapter) : current.latest_chapter
  return { move, newChapter: move === 'up', previous, series: { ...current, ...changes } }
}

const INSERT_HISTORY = compiledOnce(
  (db, site: string, seriesId: string, chapter: number, label: string, source: 'check' | 'correction', at: number) =>
    db.insertInto('latest_chapter_history').values({ site, series_id: seriesId, chapter, label, source, at }),
)

type ColumnValues = UpdateObject<Database, 'series'>

/** The UPDATE of one Series' columns, by the columns' names in order: a check writes a few shapes only. */
const updates = new Map<string, Statement<unknown[], unknown>>()

/**
 * Sets plain values on a Series' columns, its statement compiled once per set of columns (store/compiled.ts): the
 * names are the code's own (keys of its objects, never input). Nothing to set is no statement at all: `UPDATE … SET`
 * with an empty list is a syntax error.
 */
async function updateColumns(db: Db, key: SeriesKey, changes: ColumnValues): Promise<void> {
  const columns = Object.keys(changes) as Array<keyof ColumnValues>
  if (columns.length === 0) return
  const shape = columns.join(',')
  let run = updates.get(shape)
  if (run === undefined) {
    run = compiledOnce((db, ...args: unknown[]): Compilable<unknown> =>
      db
        .updateTable('series')
        .set(Object.fromEntries(columns.map((c, i) => [c, args[i]])) as ColumnValues)
        .where('site', '=', args[columns.length] as string)
        .where('series_id', '=', args[columns.length + 1] as string),
    )
    updates.set(shape, run)
  }
  await run(db, ...columns.map((c) => changes[c]), key.site, key.seriesId)
}

export async function latestChapterHistory(db: Db, key: SeriesKey, limit = 50): Promise<LatestChapterHistoryRow[]> {
  return db
    .selectFrom('latest_chapter_history')
    .selectAll()
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

/**
 * Retention for Series no Reader holds any more: one neither created nor checked since `before` goes, with its
 * history and Sightings (by cascade). An orphan is never polled, so its check stamp is about when it was
 * orphaned. Returns how many went.
 */
export async function pruneOrphanSeries(db: Db, before: number): Promise<number> {
  // From the small index of orphans (its term written as the index's): never a scan of every Series.
  const result = await sql`
    DELETE FROM series INDEXED BY series_orphan
    WHERE reader_count = 0 AND created_at < ${before} AND latest_checked_at < ${before}
  `.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}

/**
 * The `chapters` aggregate: the chapter list a successful check found on the Site, kept within a window
 * (docs/adr/0072-chapter-lists-kept-in-a-window.md), and what a Reader's Progress makes of it — the next chapter
 * to read and an honest unread count (docs/adr/0073-unread-counted-from-chapters.md). Plain functions, the
 * database first, times as parameters.
 */
import { sql } from 'kysely'
import { compiledOnce } from './compiled'
import type { Db } from './database'
import type { ChapterRow, SeriesKey } from './schema'

/** Always kept: the newest this many chapters a Site serves, whatever Readers have read. */
export const KEEP_NEWEST = 100
/** Never more than this many per Series (the newest), however far behind a Reader is. */
export const KEEP_MAX = 1_000

/** A chapter as a check hands it over: its link already checked against the Site's pin. */
export interface ServedChapter {
  number: number
  label: string
  url: string
  /** Unix ms, when the page printed a date. */
  released?: number
}

/**
 * The chapters kept of a served list: one per number (the first served wins), newest first — the newest
 * KEEP_NEWEST, and every one above `floor` (the lowest Progress of the Series' Readers), KEEP_MAX at most.
 * Always a top slice of the list by number, so any served chapter at or above the lowest kept one is kept.
 */
export function keptWindow(served: readonly ServedChapter[], floor: number): ServedChapter[] {
  return windowOf(newestFirst(served), floor)
}

/** One chapter per number (the first served wins), newest first. */
function newestFirst(served: readonly ServedChapter[]): ServedChapter[] {
  const byNumber = new Map<number, ServedChapter>()
  for (const c of served) if (Number.isFinite(c.number) && !byNumber.has(c.number)) byNumber.set(c.number, c)
  return [...byNumber.values()].sort((a, b) => b.number - a.number)
}

/** keptWindow of a list already one per number, newest first. */
function windowOf(newestFirst: ServedChapter[], floor: number): ServedChapter[] {
  let n = Math.min(KEEP_NEWEST, newestFirst.length)
  while (n < newestFirst.length && n < KEEP_MAX && newestFirst[n]!.number > floor) n++
  return newestFirst.slice(0, n)
}

export interface StoredChanges {
  added: number
  changed: number
  vanished: number
  /** Rows below the window, let go. */
  dropped: number
}

/**
 * Stores what a check found, in the caller's transaction (the one that records the Latest Chapter). A chapter
 * not stored yet is added — as arrived when it is above `previousLatest`, the Latest Chapter before this check;
 * a stored one whose label, URL or date changed is updated (and is back on the Site if it had vanished); a stored
 * one inside the window the Site no longer serves is marked vanished, never deleted; one below the window is kept
 * while a Reader has yet to read it (a Site may list only its newest), and let go once every Reader has.
 * The steady state (the same list) is two reads and no write.
 */
export async function storeChapters(
  db: Db,
  key: SeriesKey,
  served: readonly ServedChapter[],
  now: number,
  previousLatest: number | null,
): Promise<StoredChanges> {
  const changes: StoredChanges = { added: 0, changed: 0, vanished: 0, dropped: 0 }
  const listed = newestFirst(served)
  if (listed.length === 0) return changes
  const stored = new Map((await storedRows(db, key)).map((r) => [r.number, r]))
  // The lowest Progress decides only what lies past the newest KEEP_NEWEST and what stored below the served list
  // is let go: read when one of them is there, else never (a first list, the steady state of a short list).
  let low = listed.length > KEEP_NEWEST ? await lowestProgress(db, key) : undefined
  const kept = low === undefined ? listed : windowOf(listed, low)
  const lowest = kept[kept.length - 1]!.number
  /** [number, label, url, released_at, arrived] of each chapter not stored yet. */
  const added: Array<[number, string, string, number, 0 | 1]> = []
  for (const c of kept) {
    const was = stored.get(c.number)
    stored.delete(c.number)
    const released = c.released ?? 0
    if (!was) {
      const arrived = previousLatest !== null && c.number > previousLatest ? 1 : 0
      added.push([c.number, c.label, c.url, released, arrived])
    } else if (was.label !== c.label || was.url !== c.url || (released && was.released_at !== released) || was.vanished_at !== 0) {
      await db
        .updateTable('chapters')
        .set({ label: c.label, url: c.url, released_at: released || was.released_at, vanished_at: 0 })
        .where('site', '=', key.site)
        .where('series_id', '=', key.seriesId)
        .where('number', '=', c.number)
        .execute()
      changes.changed++
    }
  }
  // New chapters in one statement whatever their number (a first list is one, not a hundred), as one JSON value.
  if (added.length > 0) {
    await INSERT_CHAPTERS(db, key.site, key.seriesId, now, JSON.stringify(added))
  }
  changes.added = added.length
  // What is left was not served within the window: vanished when inside it. Below it (a Site listing only its
  // newest chapters), kept while a Reader has yet to read it, up to KEEP_MAX in all; let go once every Reader has.
  const gone = [...stored.values()].filter((r) => r.number >= lowest && r.vanished_at === 0).map((r) => r.number)
  const below = [...stored.keys()].filter((n) => n < lowest).sort((a, b) => b - a)
  const read = below.length === 0 ? Infinity : (low ??= await lowestProgress(db, key))
  const needed = below.filter((n) => n > read)
  const drop = [...below.filter((n) => n <= read), ...needed.slice(Math.max(0, KEEP_MAX - kept.length))]
  if (gone.length > 0) {
    const result = await db
      .updateTable('chapters')
      .set({ vanished_at: now })
      .where('site', '=', key.site)
      .where('series_id', '=', key.seriesId)
      .where('number', 'in', gone)
      .executeTakeFirst()
    changes.vanished = Number(result.numUpdatedRows)
  }
  if (drop.length > 0) {
    const result = await db
      .deleteFrom('chapters')
      .where('site', '=', key.site)
      .where('series_id', '=', key.seriesId)
      .where('number', 'in', drop)
      .executeTakeFirst()
    changes.dropped = Number(result.numDeletedRows)
  }
  return changes
}

/** The lowest Progress of the Series' Readers (nothing read counts as 0); Infinity when no Reader holds it. */
async function lowestProgress(db: Db, key: SeriesKey): Promise<number> {
  const result = await LOWEST_PROGRESS(db, key.site, key.seriesId)
  const low = result.rows[0]?.low
  return low === null || low === undefined ? Infinity : Number(low)
}

type StoredChapter = Pick<ChapterRow, 'number' | 'label' | 'url' | 'released_at' | 'vanished_at'>

/** What storeChapters compares a served list with: a Series' stored chapters, vanished ones included. */
async function storedRows(db: Db, key: SeriesKey): Promise<StoredChapter[]> {
  // Read at every check: compiled once (store/compiled.ts).
  return (await STORED_ROWS(db, key.site, key.seriesId)).rows
}

const STORED_ROWS = compiledOnce(
  (_db, site: string, seriesId: string) =>
    sql<StoredChapter>`SELECT number, label, url, released_at, vanished_at FROM chapters WHERE site = ${site} AND series_id = ${seriesId}`,
)
const LOWEST_PROGRESS = compiledOnce(
  (_db, site: string, seriesId: string) =>
    sql<{ low: number | null }>`SELECT MIN(COALESCE(progress, 0)) AS low FROM bookmarks WHERE site = ${site} AND series_id = ${seriesId}`,
)
/** New chapters in one statement whatever their number, as one JSON value of [number, label, url, released_at, arrived]. */
const INSERT_CHAPTERS = compiledOnce(
  (_db, site: string, seriesId: string, now: number, added: string) => sql`
    INSERT INTO chapters (site, series_id, number, label, url, released_at, first_seen_at, arrived)
    SELECT ${site}, ${seriesId}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, ${now}, value ->> 4 FROM json_each(${added})`,
)

/**
 * A Series' stored chapters, newest first, `limit` at most, below the number `before` (for the page that
 * follows). Vanished ones included (their `vanished_at` says so).
 */
export async function chapterList(db: Db, key: SeriesKey, options: { before?: number; limit: number }): Promise<ChapterRow[]> {
  let query = db.selectFrom('chapters').selectAll().where('site', '=', key.site).where('series_id', '=', key.seriesId)
  if (options.before !== undefined) query = query.where('number', '<', options.before)
  return query.orderBy('number', 'desc').limit(options.limit).execute()
}

/** The numbers of a Series' stored chapters still on the Site, newest first (the simulation's invariant reads them). */
export async function storedChapterNumbers(db: Db, key: SeriesKey): Promise<number[]> {
  const rows = await db
    .selectFrom('chapters')
    .select('number')
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .where('vanished_at', '=', 0)
    .orderBy('number', 'desc')
    .execute()
  return rows.map((r) => r.number)
}

/** The chapter a Reader reads next: number, label and link. */
export interface NextChapter {
  number: number
  label: string
  url: string
}

/** What a Reader's Progress makes of a Series' stored chapters. */
export interface ChapterFacts {
  /** The lowest stored chapter (not vanished) above the Progress (any, when nothing is read); null when none. */
  next: NextChapter | null
  /** Stored chapters (not vanished) above the Progress. */
  storedUnread: number
  /**
   * Where the stored list starts, as far as the count needs it: the lowest stored chapter not vanished when
   * nothing is read or every stored chapter is above the Progress; else the highest stored one at or below the
   * Progress (then none lies below the list unread, whichever is lowest). Null when no list is stored.
   */
  lowest: number | null
  /** The highest stored chapter not vanished; null when no list is stored. */
  highest: number | null
}

/** `site` NUL `series_id`: the key of a Series in the maps below. */
export const chapterKey = (site: string, seriesId: string): string => `${site}\u0000${seriesId}`

/**
 * For each of a Reader's bookmarks (only `keys`, when given), what its stored chapters say: the next chapter, the
 * stored ones unread, and the ends of the list. One statement; each bookmark costs one seek in the chapters'
 * primary key at its Progress, and the reads beside it stay on the pages that seek found: the stored chapter
 * just at or below the Progress, rather than the list's first (a page of its own), tells whether any lies below
 * the list unread (docs/adr/0073-unread-counted-from-chapters.md). The bookmarks are read in key
 * order, so are the Series' lists.
 */
export async function readerChapterFacts(db: Db, readerId: number, keys?: readonly SeriesKey[]): Promise<Map<string, ChapterFacts>> {
  const restrict = keys
    ? sql`AND (b.site, b.series_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(keys.map((k) => [k.site, k.seriesId]))}))`
    : sql``
  const result = await sql<ChapterFactsColumns & { site: string; series_id: string }>`
    SELECT b.site, b.series_id, ${CHAPTER_FACTS.facts_next} AS facts_next, ${CHAPTER_FACTS.facts_lowest} AS facts_lowest,
      ${CHAPTER_FACTS.facts_highest} AS facts_highest
    FROM bookmarks b INDEXED BY sqlite_autoindex_bookmarks_1 WHERE b.reader_id = ${readerId} ${restrict}
  `.execute(db)
  return new Map(result.rows.map((r) => [chapterKey(r.site, r.series_id), chapterFacts(r)]))
}

const LIVE = sql`c.site = b.site AND c.series_id = b.series_id AND c.vanished_at = 0`
const ABOVE = sql`c.number > COALESCE(b.progress, -1)`
/** The expressions a bookmark `b`'s chapter facts are read from (chapterFacts reads them): one statement for any list. */
export const CHAPTER_FACTS = {
  facts_next: sql<string>`(SELECT json_array(MIN(c.number), c.label, c.url, COUNT(*)) FROM chapters c WHERE ${LIVE} AND ${ABOVE})`,
  facts_lowest: sql<
    number | null
  >`CASE WHEN b.progress IS NULL THEN (SELECT c.number FROM chapters c WHERE ${LIVE} ORDER BY c.number LIMIT 1)
    ELSE (SELECT c.number FROM chapters c WHERE ${LIVE} AND c.number <= b.progress ORDER BY c.number DESC LIMIT 1) END`,
  facts_highest: sql<number | null>`(SELECT c.number FROM chapters c WHERE ${LIVE} ORDER BY c.number DESC LIMIT 1)`,
}
export interface ChapterFactsColumns {
  facts_next: string
  facts_lowest: number | null
  facts_highest: number | null
}

/** A bookmark's chapter facts from the columns CHAPTER_FACTS read. */
export function chapterFacts(r: ChapterFactsColumns): ChapterFacts {
  // One aggregate gives the next chapter (the row of the MIN: SQLite's bare columns) and how many there are.
  const [number, label, url, count] = JSON.parse(r.facts_next) as [number | null, string | null, string | null, number]
  const next = number === null ? null : { number, label: label ?? '', url: url ?? '' }
  // Nothing stored at or below the Progress: the lowest stored is the next one.
  return { next, storedUnread: count, lowest: r.facts_lowest ?? number, highest: r.facts_highest }
}

/**
 * A Series' stored chapters still on the Site, lowest first, as factsFromList reads them: each chapter's number and
 * page side by side (its label is never part of a count or a link).
 */
export interface LiveList {
  readonly numbers: readonly number[]
  readonly urls: readonly string[]
}

/** ChapterFacts from a list held in memory: the next chapter's number and page. */
export type ListFacts = Omit<ChapterFacts, 'next'> & { next: { number: number; url: string } | null }

const NO_LIST: LiveList = { numbers: [], urls: [] }

/**
 * The facts readerChapterFacts reads in SQL, from a Series' live list held in memory: for many bookmarks of the
 * same Series (a digest, docs/adr/0170-digests-in-sets.md), reading the list once beats a seek and a count per
 * bookmark. The same rules; a test holds the two equal.
 */
export function factsFromList(list: LiveList = NO_LIST, progress: number | null): ListFacts {
  const { numbers, urls } = list
  const floor = progress ?? -1
  // The first chapter above the Progress, by bisection.
  let lo = 0
  let hi = numbers.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (numbers[mid]! > floor) hi = mid
    else lo = mid + 1
  }
  const next = lo < numbers.length ? { number: numbers[lo]!, url: urls[lo]! } : null
  const atOrBelow = progress === null ? numbers[0] : numbers[lo - 1]
  return {
    next,
    storedUnread: numbers.length - lo,
    lowest: atOrBelow ?? next?.number ?? null,
    highest: numbers[numbers.length - 1] ?? null,
  }
}

/**
 * The live lists of the Series (by chapterKey), lowest first: one statement, one row per Series with its numbers
 * and pages as two JSON arrays (docs/adr/0237-a-digest-reads-each-list-as-one-row.md): half the CPU of a row (an
 * object, a string) per chapter. A Series with none is absent.
 */
export async function liveLists(db: Db, wanted: readonly SeriesKey[]): Promise<Map<string, LiveList>> {
  if (wanted.length === 0) return new Map()
  const keys = [...new Map(wanted.map((k) => [chapterKey(k.site, k.seriesId), k])).values()]
  // By the key's place in the list: no site and id strings made per chapter.
  const result = await sql<{ i: number; numbers: string; urls: string }>`
    SELECT k.i, json_group_array(c.number) AS numbers, json_group_array(c.url) AS urls
    FROM (SELECT key AS i, value ->> 0 AS site, value ->> 1 AS series_id FROM json_each(${JSON.stringify(keys.map((k) => [k.site, k.seriesId]))})) k
    CROSS JOIN chapters c ON c.site = k.site AND c.series_id = k.series_id
    WHERE c.vanished_at = 0
    GROUP BY k.i
  `.execute(db)
  const lists = new Map<string, LiveList>()
  for (const r of result.rows) {
    const key = keys[r.i]!
    lists.set(chapterKey(key.site, key.seriesId), lowestFirst(JSON.parse(r.numbers) as number[], JSON.parse(r.urls) as string[]))
  }
  return lists
}

/** A list in its primary key's order already (the read scans it so; an aggregate's order is not promised): kept. */
export function lowestFirst(numbers: number[], urls: string[]): LiveList {
  let sorted = true
  for (let j = 1; j < numbers.length && sorted; j++) sorted = numbers[j - 1]! < numbers[j]!
  if (sorted) return { numbers, urls }
  const order = numbers.map((_, j) => j).sort((x, y) => numbers[x]! - numbers[y]!)
  return { numbers: order.map((j) => numbers[j]!), urls: order.map((j) => urls[j]!) }
}

/**
 * The unread count of a bookmark (docs/adr/0073-unread-counted-from-chapters.md): the stored chapters above the
 * Progress, counted one by one (so 10.5 is one chapter and a missing 12 is none); below the stored list, and
 * above it (a Sighting's report), by subtraction; with no list stored, by subtraction alone.
 */
export function unreadCount(latest: number | null, progress: number | null, facts: Omit<ChapterFacts, 'next'> | undefined): number {
  if (latest === null) return 0
  const read = progress ?? 0
  if (!facts || facts.lowest === null || facts.highest === null) return Math.max(0, Math.ceil(latest - read))
  const below = progress === null ? Math.max(0, Math.ceil(facts.lowest) - 1) : Math.max(0, Math.ceil(facts.lowest - read) - 1)
  const over = Math.max(0, Math.ceil(latest - Math.max(facts.highest, read)))
  return facts.storedUnread + below + over
}

/**
 * Each of a Reader's bookmarks' unread count, by `chapterKey(site, seriesId)` — for notices (issue 26) and
 * anything else that needs the number a Reader's page shows. One statement for the Reader's whole list.
 */
export async function unreadCounts(db: Db, readerId: number): Promise<Map<string, number>> {
  const facts = await readerChapterFacts(db, readerId)
  const rows = await db
    .selectFrom('bookmarks as b')
    .innerJoin('series as s', (j) => j.onRef('s.site', '=', 'b.site').onRef('s.series_id', '=', 'b.series_id'))
    .select(['b.site', 'b.series_id', 'b.progress', 's.latest_chapter'])
    .where('b.reader_id', '=', readerId)
    .execute()
  return new Map(
    rows.map((r) => {
      const key = chapterKey(r.site, r.series_id)
      return [key, unreadCount(r.latest_chapter, r.progress, facts.get(key))]
    }),
  )
}

/** The chapter a Reader reads next in a Series (the lowest stored above their Progress), or null. */
export async function nextChapterFor(db: Db, readerId: number, key: SeriesKey): Promise<NextChapter | null> {
  const facts = await readerChapterFacts(db, readerId, [key])
  return facts.get(chapterKey(key.site, key.seriesId))?.next ?? null
}

/** One arrived chapter, for a Reader's Updates. */
export interface ChapterUpdate {
  site: string
  series_id: string
  title: string
  number: number
  label: string
  url: string
  first_seen_at: number
  released_at: number
}

/**
 * A Reader's New Chapters, newest first: the chapters that arrived as New Chapters after the bookmark was made,
 * above the Reader's Progress and still on the Site. `limit` at most, seen before `before` (for the next page).
 */
export async function readerUpdates(db: Db, readerId: number, options: { before?: number; limit: number }): Promise<ChapterUpdate[]> {
  const result = await sql<ChapterUpdate>`
    SELECT c.site, c.series_id, s.title, c.number, c.label, c.url, c.first_seen_at, c.released_at
    FROM bookmarks b
    CROSS JOIN chapters c ON c.site = b.site AND c.series_id = b.series_id AND c.number > COALESCE(b.progress, -1)
    CROSS JOIN series s ON s.site = b.site AND s.series_id = b.series_id
    WHERE b.reader_id = ${readerId} AND c.arrived = 1 AND c.vanished_at = 0 AND c.first_seen_at >= b.created_at
      ${options.before !== undefined ? sql`AND c.first_seen_at < ${options.before}` : sql``}
    ORDER BY c.first_seen_at DESC, s.title, c.number DESC
    LIMIT ${options.limit}
  `.execute(db)
  return result.rows
}

/**
 * Import and export in the store: the remembered mappings of backup sources to Sites, the reads a preview
 * and an export make, and the import's write — Readers, Series and bookmarks in one transaction, new rows
 * inserted and nothing the owner or a Reader wrote overwritten (docs/adr/0036-import-plans-and-one-transaction.md).
 */
import { sql } from 'kysely'
import type { Db } from './database'
import { AppError } from '../../shared/errors'
import type { BookmarkRow, BookmarkStatus, ImportSourceMappingRow, ReaderRow, SeriesRow } from './schema'
import type { SeriesKey } from './series'
import { checkpointInWorker } from './wal-checkpoint'

/** Rows per INSERT: well under SQLite's bound variables, few enough statements for 5,000 rows. */
const CHUNK = 500
/** Rows per INSERT of an import's write: each runs SQLite's per-row triggers, and the loop may run between two. */
const WRITE_CHUNK = 100

export async function sourceMappings(db: Db): Promise<ImportSourceMappingRow[]> {
  return db.selectFrom('import_source_mappings').selectAll().orderBy('source_name').execute()
}

/** Remembers (or changes) which Site a backup source's manga belong to. */
export async function saveSourceMapping(
  db: Db,
  input: { sourceId: string; sourceName: string; site: string; origin: string; now: number },
): Promise<void> {
  await db
    .insertInto('import_source_mappings')
    .values({ source_id: input.sourceId, source_name: input.sourceName, site: input.site, origin: input.origin, updated_at: input.now })
    .onConflict((oc) =>
      oc.column('source_id').doUpdateSet({ source_name: input.sourceName, site: input.site, origin: input.origin, updated_at: input.now }),
    )
    .execute()
}

export async function removeSourceMapping(db: Db, sourceId: string): Promise<void> {
  await db.deleteFrom('import_source_mappings').where('source_id', '=', sourceId).execute()
}

const keyOf = (site: string, seriesId: string) => `${site}\u0000${seriesId}`

/** Which of these Series exist, by `site\0seriesId`. */
export async function existingSeries(
  db: Db,
  keys: readonly SeriesKey[],
  turn: LoopTurn = loopTurns(),
): Promise<Map<string, Pick<SeriesRow, 'title' | 'series_url'>>> {
  const found = new Map<string, Pick<SeriesRow, 'title' | 'series_url'>>()
  for (const [site, ids] of bySite(keys)) {
    for (const chunk of chunks(ids)) {
      await turn()
      const rows = await db
        .selectFrom('series')
        .select(['series_id', 'title', 'series_url'])
        .where('site', '=', site)
        .where('series_id', 'in', chunk)
        .execute()
      for (const r of rows) found.set(keyOf(site, r.series_id), { title: r.title, series_url: r.series_url })
    }
  }
  return found
}

/** The bookmarks these Readers hold among these Series, by `readerId\0site\0seriesId`. */
export async function existingBookmarks(
  db: Db,
  readerIds: readonly number[],
  keys: readonly SeriesKey[],
  turn: LoopTurn = loopTurns(),
): Promise<Map<string, Pick<BookmarkRow, 'progress' | 'progress_at'>>> {
  const found = new Map<string, Pick<BookmarkRow, 'progress' | 'progress_at'>>()
  if (readerIds.length === 0) return found
  for (const [site, ids] of bySite(keys)) {
    for (const chunk of chunks(ids)) {
      await turn()
      const rows = await db
        .selectFrom('bookmarks')
        .select(['reader_id', 'series_id', 'progress', 'progress_at'])
        .where('reader_id', 'in', [...readerIds])
        .where('site', '=', site)
        .where('series_id', 'in', chunk)
        .execute()
      for (const r of rows)
        found.set(`${r.reader_id}\u0000${keyOf(site, r.series_id)}`, { progress: r.progress, progress_at: r.progress_at })
    }
  }
  return found
}

/** A Series an import adds; with `snapshot` (an export document) its Latest Chapter and stamps as they were. */
export interface ImportSeriesRow extends SeriesKey {
  title: string
  seriesUrl: string
  snapshot?: Pick<
    SeriesRow,
    | 'latest_chapter'
    | 'latest_chapter_label'
    | 'latest_chapter_url'
    | 'latest_source'
    | 'latest_changed_at'
    | 'latest_checked_at'
    | 'finished_at'
    | 'created_at'
  >
}

export interface ImportBookmarkRow extends SeriesKey {
  reader: string
  status: BookmarkStatus
  progress?: number
  /** Absent or 0: the source does not say when (it then only fills a bookmark with nothing read). */
  progressAt?: number
  createdAt?: number
}

export interface ImportBatch {
  /** Readers to create when no Reader of the name exists, with their token hashes. */
  newReaders: Array<{ name: string; tokenHash: string; createdAt: number }>
  series: ImportSeriesRow[]
  bookmarks: ImportBookmarkRow[]
  /** Lane pauses an export document recorded; a Lane paused longer already keeps its own. */
  lanePauses?: Array<{ site: string; until: number }>
}

export interface ImportCounts {
  readersCreated: string[]
  seriesAdded: number
  bookmarksAdded: number
  bookmarksPresent: number
  /** Present bookmarks whose Progress the import moved (the later write won). */
  progressUpdated: number
  /** Lanes the import paused (or paused longer); absent: none. */
  lanesPaused?: number
}

/**
 * Writes an import in one transaction: Readers that do not exist, Series that do not exist (a known Series
 * only gets a URL or title it lacks), bookmarks that do not exist with their status and Progress, and the
 * Progress of present bookmarks where the import's is the later write — an undated Progress only fills a
 * bookmark with nothing read. Nothing is deleted and no status is changed, so a second import of the same
 * rows changes nothing. `onProgress` is called between chunks with rows written and rows to write.
 */
export async function writeImport(
  db: Db,
  batch: ImportBatch,
  now: number,
  onProgress?: (done: number, total: number) => void | Promise<void>,
): Promise<ImportCounts> {
  const turn = loopTurns()
  const step = progressSteps(batch.series.length + batch.bookmarks.length, onProgress, turn)
  return checkpointedAside(db, () => writeBatch(db, batch, now, step))
}

async function writeBatch(db: Db, batch: ImportBatch, now: number, step: ProgressStep): Promise<ImportCounts> {
  return db.transaction().execute(async (trx) => {
    const readers = await writeReaders(trx, batch)
    for (const b of batch.bookmarks) {
      if (!readers.ids.has(b.reader)) throw new AppError('not-found', `no Reader "${b.reader}"`)
    }
    const seriesAdded = await writeSeries(trx, batch.series, now, step)
    const bookmarks = await writeBookmarks(trx, batch.bookmarks, readers.ids, now, step)
    const lanesPaused = await writeLanePauses(trx, batch.lanePauses ?? [])
    return {
      ...(lanesPaused ? { lanesPaused } : {}),
      readersCreated: readers.created,
      seriesAdded,
      bookmarksAdded: bookmarks.added,
      bookmarksPresent: batch.bookmarks.length - bookmarks.added,
      progressUpdated: bookmarks.progressUpdated,
    }
  })
}

/**
 * Runs a large write with SQLite's automatic checkpoint off on the store's connection, then checkpoints the WAL from
 * a worker thread (wal-checkpoint.ts): the commit alone is on the event loop, not the copy of every page it wrote.
 * A store in memory has no WAL: the write runs as it is.
 */
async function checkpointedAside<T>(db: Db, write: () => Promise<T>): Promise<T> {
  const main = (await sql<{ name: string; file: string }>`PRAGMA database_list`.execute(db)).rows.find((r) => r.name === 'main')
  if (!main?.file) return write()
  const was = (await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db)).rows[0]?.wal_autocheckpoint ?? 1000
  await sql`PRAGMA wal_autocheckpoint = 0`.execute(db)
  try {
    return await write()
  } finally {
    await sql.raw(`PRAGMA wal_autocheckpoint = ${Number(was)}`).execute(db)
    // Never rejects: should it not run, the next commit's own checkpoint copies the pages.
    await checkpointInWorker(main.file)
  }
}

/**
 * Whether an import's Progress (dated `at`, 0 for undated) is the later write than the bookmark's: an undated
 * one only fills a bookmark with nothing read. The preview counts by it; the import's UPDATE says the same in SQL.
 */
export function importProgressWins(at: number, was: Pick<BookmarkRow, 'progress' | 'progress_at'>): boolean {
  return at > 0 ? at > was.progress_at : was.progress === null
}

/** Rows written so far, told with the rows to write; the event loop gets its turn when one is due. */
type ProgressStep = ((rows: number) => Promise<void>) & { turn: LoopTurn }

function progressSteps(
  total: number,
  onProgress: ((done: number, total: number) => void | Promise<void>) | undefined,
  turn: LoopTurn,
): ProgressStep {
  let done = 0
  const step = async (rows: number) => {
    done += rows
    await onProgress?.(done, total)
    await turn()
  }
  return Object.assign(step, { turn })
}

/** How long the write runs before the event loop gets a turn (docs/adr/0140-import-write-yields-in-its-transaction.md). */
export const WRITE_SLICE_MS = 10

/** Resolves at once, or — once `WRITE_SLICE_MS` have passed since the last turn — after the event loop has run. */
export type LoopTurn = () => Promise<void>

/**
 * The write's turns: its transaction holds Kysely's connection, so while the loop runs between two of its statements
 * no other statement runs inside it (every other query waits for the commit), and the backup, which takes the same
 * connection lock and refuses while a transaction is open, never copies it half written.
 */
export function loopTurns(): LoopTurn {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < WRITE_SLICE_MS) return
    await new Promise<void>((resolve) => setImmediate(resolve))
    since = performance.now()
  }
}

/** The Readers a batch names, by name: those that exist, and the new ones it creates. */
async function writeReaders(trx: Db, batch: ImportBatch): Promise<{ ids: Map<string, number>; created: string[] }> {
  const ids = new Map<string, number>()
  const names = [...new Set([...batch.bookmarks.map((b) => b.reader), ...batch.newReaders.map((r) => r.name)])]
  for (const chunk of chunks(names)) {
    for (const r of await trx.selectFrom('readers').select(['id', 'name']).where('name', 'in', chunk).execute()) ids.set(r.name, r.id)
  }
  const created: string[] = []
  for (const r of batch.newReaders) {
    if (ids.has(r.name)) continue
    const row: ReaderRow = await trx
      .insertInto('readers')
      .values({ name: r.name, token_hash: r.tokenHash, created_at: r.createdAt })
      .returningAll()
      .executeTakeFirstOrThrow()
    ids.set(r.name, row.id)
    created.push(r.name)
  }
  return { ids, created }
}

/** Inserts the Series that do not exist and fills what a known one lacks; returns how many were added. */
async function writeSeries(trx: Db, series: readonly ImportSeriesRow[], now: number, step: ProgressStep): Promise<number> {
  const known = await existingSeries(trx, series, step.turn)
  const fresh = series.filter((s) => !known.has(keyOf(s.site, s.seriesId)))
  for (const chunk of chunks(fresh, WRITE_CHUNK)) {
    await trx
      .insertInto('series')
      .values(chunk.map((s) => newSeriesRow(s, now)))
      .onConflict((oc) => oc.columns(['site', 'series_id']).doNothing())
      .execute()
    await step(chunk.length)
  }
  await fillKnownSeries(trx, series, known, now, step.turn)
  await step(series.length - fresh.length)
  return fresh.length
}

function newSeriesRow(s: ImportSeriesRow, now: number) {
  return {
    site: s.site,
    series_id: s.seriesId,
    title: s.title,
    series_url: s.seriesUrl,
    latest_chapter: s.snapshot?.latest_chapter ?? null,
    ...(s.snapshot
      ? {
          latest_chapter_label: s.snapshot.latest_chapter_label,
          latest_chapter_url: s.snapshot.latest_chapter_url,
          latest_source: s.snapshot.latest_source,
          latest_changed_at: s.snapshot.latest_changed_at,
          latest_checked_at: s.snapshot.latest_checked_at,
          finished_at: s.snapshot.finished_at,
        }
      : {}),
    created_at: s.snapshot?.created_at || now,
  }
}

/** A known Series keeps what it has; only an empty URL or title is filled in. */
async function fillKnownSeries(
  trx: Db,
  series: readonly ImportSeriesRow[],
  known: Map<string, Pick<SeriesRow, 'title' | 'series_url'>>,
  now: number,
  turn: LoopTurn,
): Promise<void> {
  for (const s of series) {
    await turn()
    const was = known.get(keyOf(s.site, s.seriesId))
    if (!was) continue
    const fill = {
      ...(!was.series_url && s.seriesUrl ? { series_url: s.seriesUrl } : {}),
      ...(!was.title && s.title ? { title: s.title } : {}),
    }
    if (Object.keys(fill).length === 0) continue
    await trx.updateTable('series').set(fill).where('site', '=', s.site).where('series_id', '=', s.seriesId).execute()
    await trx.updateTable('bookmarks').set({ updated_at: now }).where('site', '=', s.site).where('series_id', '=', s.seriesId).execute()
  }
}

/** Moves the Progress of present bookmarks where the import's is the later write, then inserts the new ones. */
async function writeBookmarks(
  trx: Db,
  bookmarks: readonly ImportBookmarkRow[],
  readerIds: Map<string, number>,
  now: number,
  step: ProgressStep,
): Promise<{ added: number; progressUpdated: number }> {
  const present = await existingBookmarks(trx, [...readerIds.values()], bookmarks, step.turn)
  const { turn } = step
  const fresh: ImportBookmarkRow[] = []
  let progressUpdated = 0
  for (const b of bookmarks) {
    await turn()
    const readerId = readerIds.get(b.reader)!
    const was = present.get(`${readerId}\u0000${keyOf(b.site, b.seriesId)}`)
    if (was) progressUpdated += await moveProgress(trx, b, readerId, was, now)
    else fresh.push(b)
  }
  await step(bookmarks.length - fresh.length)
  for (const chunk of chunks(fresh, WRITE_CHUNK)) {
    await trx
      .insertInto('bookmarks')
      .values(
        chunk.map((b) => ({
          reader_id: readerIds.get(b.reader)!,
          site: b.site,
          series_id: b.seriesId,
          status: b.status,
          progress: b.progress ?? null,
          progress_at: b.progress === undefined ? 0 : (b.progressAt ?? 0),
          created_at: b.createdAt || now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['reader_id', 'site', 'series_id']).doNothing())
      .execute()
    await step(chunk.length)
  }
  return { added: fresh.length, progressUpdated }
}

/** A present bookmark's Progress, moved when the import's is the later write; returns the rows moved (0 or 1). */
async function moveProgress(
  trx: Db,
  b: ImportBookmarkRow,
  readerId: number,
  was: Pick<BookmarkRow, 'progress' | 'progress_at'>,
  now: number,
): Promise<number> {
  if (b.progress === undefined) return 0
  const at = b.progressAt ?? 0
  if (!importProgressWins(at, was)) return 0
  const updated = await trx
    .updateTable('bookmarks')
    .set({ progress: b.progress, progress_at: at, updated_at: now })
    .where('reader_id', '=', readerId)
    .where('site', '=', b.site)
    .where('series_id', '=', b.seriesId)
    .where(sql<boolean>`(${at} > progress_at OR (${at} = 0 AND progress IS NULL))`)
    .executeTakeFirst()
  return Number(updated.numUpdatedRows)
}

/** The Lane pauses an export document recorded; a Lane paused longer keeps its own. Returns the Lanes paused. */
async function writeLanePauses(trx: Db, pauses: ReadonlyArray<{ site: string; until: number }>): Promise<number> {
  let lanesPaused = 0
  for (const p of pauses) {
    const paused = await trx
      .insertInto('poll_lanes')
      .values({ site: p.site, paused_until: p.until })
      .onConflict((oc) => oc.column('site').doUpdateSet({ paused_until: p.until }).where('poll_lanes.paused_until', '<', p.until))
      .executeTakeFirst()
    lanesPaused += Number(paused.numInsertedOrUpdatedRows ?? 0)
  }
  return lanesPaused
}

/** Everything an export holds, in a stable order. */
export async function libraryForExport(db: Db): Promise<{ series: SeriesRow[]; readers: ReaderRow[]; bookmarks: BookmarkRow[] }> {
  // One read transaction: the three lists agree with each other.
  return db.transaction().execute(async (trx) => ({
    series: await trx.selectFrom('series').selectAll().orderBy('site').orderBy('series_id').execute(),
    readers: await trx.selectFrom('readers').selectAll().orderBy('name').execute(),
    bookmarks: await trx.selectFrom('bookmarks').selectAll().orderBy('reader_id').orderBy('site').orderBy('series_id').execute(),
  }))
}

function bySite(keys: readonly SeriesKey[]): Map<string, string[]> {
  const map = new Map<string, Set<string>>()
  for (const k of keys) {
    let ids = map.get(k.site)
    if (!ids) map.set(k.site, (ids = new Set()))
    ids.add(k.seriesId)
  }
  return new Map([...map].map(([site, ids]) => [site, [...ids]]))
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/**
 * The reads too big to hold whole (docs/adr/0093-big-reads-off-the-event-loop.md, docs/adr/0176-big-reads-streamed.md):
 * a Reader's full sync, the whole library's export and a Reader's own export (JSON or CSV), each written out row
 * by row as the same text `JSON.stringify` (or toCsv) made of the whole answer, read inside one transaction (a
 * consistent snapshot). Run in the big-read worker on a read-only connection, its text cut into chunks that wait
 * for the socket; on the calling thread only where no worker can start.
 */
import { csvLine } from '../library/csv'
import { bookmarkRows, readerBookmarkRows, seriesRows, siteKeys, type Rows } from '../store/big-read-rows'
import type { Db } from '../store/database'
import { pausedLanes } from '../store/lanes'
import { getReader } from '../store/readers'
import {
  READER_CSV_COLUMNS,
  exportHead,
  exportedBookmark,
  exportedSeries,
  readerCsvFields,
  type ExportDeps,
} from '../use-cases/library-export'
import { presentBookmark } from './present'

type SiteFacts = Array<{ key: string; name: string; hosts: string[] }>
export type BigReadJob =
  /** `full`: a sync with a `since` the app cannot answer with changes (too old, or ahead of now): say so. */
  | { kind: 'full-sync'; readerId: number; now: number; full: boolean }
  | { kind: 'export'; now: number; sites: SiteFacts }
  | { kind: 'reader-export'; readerId: number; now: number; format: 'json' | 'csv'; sites: SiteFacts }

/** To the worker: a job, more room for chunks (`n` taken by the socket), or the answer no longer wanted. */
export type BigReadCommand =
  { type: 'job'; id: number; job: BigReadJob } | { type: 'pull'; id: number; n: number } | { type: 'cancel'; id: number }
/** From the worker: ready, a chunk of an answer, its end, or why it failed. */
export type BigReadMessage =
  { ready: true } | { id: number; chunk: Uint8Array } | { id: number; done: true } | { id: number; ok: false; message: string }

/** Where a big read's text goes: `write` resolves when there is room for more. */
export interface TextSink {
  write(text: string): Promise<void> | void
}

const ENCODER = new TextEncoder()

/** The bytes of a chunk: text gathered until it holds at least this many characters. */
export const CHUNK_CHARS = 64 * 1024

/** Text gathered into chunks of about CHUNK_CHARS, each handed to `send` (which may wait), then `end` for the rest. */
export class ChunkedText implements TextSink {
  private parts: string[] = []
  private size = 0
  constructor(private readonly send: (bytes: Uint8Array) => Promise<void> | void) {}
  write(text: string): Promise<void> | void {
    this.parts.push(text)
    this.size += text.length
    if (this.size >= CHUNK_CHARS) return this.flush()
  }
  flush(): Promise<void> | void {
    if (this.size === 0) return
    // Its own buffer (never a slice of a shared pool): a worker hands it over without a copy.
    const bytes = ENCODER.encode(this.parts.join(''))
    this.parts = []
    this.size = 0
    return this.send(bytes)
  }
}

/**
 * Writes the job's whole answer to `out`, read inside one transaction; `sqlite`, the connection under `db`, steps
 * the rows faster (big-read-rows.ts).
 */
export async function writeBigRead(db: Db, job: BigReadJob, out: TextSink, sqlite?: Rows['sqlite']): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const rows = { db: trx, sqlite }
    if (job.kind === 'full-sync') return fullSync(rows, job, out)
    const sites = new Map(job.sites.map((s) => [s.key, s]))
    const deps = { registry: { get: (key: string) => sites.get(key) }, now: job.now }
    if (job.kind === 'export') return libraryExport(rows, deps, out)
    if (job.format === 'csv') return readerCsv(rows, job.readerId, out)
    return readerExport(rows, deps, job.readerId, out)
  })
}

/** The text of a whole answer, made on this thread (where no worker can start). */
export async function bigReadBytes(db: Db, job: BigReadJob): Promise<Buffer> {
  const chunks: Uint8Array[] = []
  const out = new ChunkedText((bytes) => void chunks.push(bytes))
  await writeBigRead(db, job, out)
  await out.flush()
  return Buffer.concat(chunks)
}

/** `[` the items, each as JSON, `]`: what JSON.stringify writes for the array. */
async function jsonArray<T>(out: TextSink, rows: Iterable<T> | AsyncIterable<T>, view: (row: T) => unknown): Promise<void> {
  let first = true
  await eachRow(rows, (row) => {
    const written = out.write((first ? '[' : ',') + JSON.stringify(view(row)))
    first = false
    return written
  })
  await out.write(first ? '[]' : ']')
}

/** `write` for each row: waiting only when a chunk is full, so most rows go on with no await (a microtask each). */
async function eachRow<T>(rows: Iterable<T> | AsyncIterable<T>, write: (row: T) => Promise<void> | void): Promise<void> {
  if (Symbol.iterator in rows) {
    for (const row of rows) {
      const wait = write(row)
      if (wait) await wait
    }
  } else {
    for await (const row of rows) await write(row)
  }
}

/** An object's JSON without its closing brace, to go on with more fields. */
const opened = (value: object) => JSON.stringify(value).slice(0, -1)

async function fullSync(db: Rows, job: Extract<BigReadJob, { kind: 'full-sync' }>, out: TextSink): Promise<void> {
  await out.write('{"bookmarks":')
  await jsonArray(out, await readerBookmarkRows(db, job.readerId), (r) => presentBookmark(r.bookmark, r.facts))
  await out.write(`,"now":${JSON.stringify(job.now)}${job.full ? ',"deleted":[],"full":true' : ''}}`)
}

type Deps = Omit<ExportDeps, 'db'>

/** exportLibrary's document: the Sites (those paused too), every Series, every Reader with their bookmarks. */
async function libraryExport(rows: Rows, deps: Deps, out: TextSink): Promise<void> {
  const { db } = rows
  const paused = new Map((await pausedLanes(db, deps.now)).map((l) => [l.site, l.paused_until]))
  const sites = [...new Set([...(await siteKeys(db)), ...paused.keys()])].sort()
  await out.write(opened(exportHead(deps, sites, paused)) + ',"series":')
  await jsonArray(out, seriesRows(rows), exportedSeries)
  await out.write(',"readers":[')
  const readers = await db.selectFrom('readers').selectAll().orderBy('name').execute()
  for (const [i, reader] of readers.entries()) {
    await out.write((i === 0 ? '' : ',') + opened({ name: reader.name, createdAt: reader.created_at }) + ',"bookmarks":')
    await jsonArray(out, bookmarkRows(rows, reader.id), exportedBookmark)
    await out.write('}')
  }
  await out.write(']}')
}

/** exportReader's document: the Reader's Series (by title) and Sites, and the Reader with their bookmarks. */
async function readerExport(rows: Rows, deps: Deps, readerId: number, out: TextSink): Promise<void> {
  const { db } = rows
  const reader = await getReader(db, readerId)
  await out.write(opened(exportHead(deps, await siteKeys(db, readerId), new Map())) + ',"series":')
  await jsonArray(out, await readerBookmarkRows(rows, readerId), (r) => exportedSeries(r.bookmark.series))
  await out.write(',"readers":[')
  if (reader) {
    await out.write(opened({ name: reader.name, createdAt: reader.created_at }) + ',"bookmarks":')
    await jsonArray(out, await readerBookmarkRows(rows, readerId), (r) => exportedBookmark(r.bookmark))
    await out.write('}')
  }
  await out.write(']}')
}

async function readerCsv(rows: Rows, readerId: number, out: TextSink): Promise<void> {
  await out.write(csvLine(READER_CSV_COLUMNS))
  await eachRow(await readerBookmarkRows(rows, readerId), (r) => out.write(csvLine(readerCsvFields(r.bookmark))))
}

/**
 * Reads a Mihon/Tachiyomi backup (`.tachibk`, `.proto.gz`): gunzip with a bound, then the `Backup` message of
 * backup.proto. Each manga of the library becomes an entry pointing at its source and `url`; the highest
 * chapter marked read becomes the Progress, with the time the reading history gives for it.
 *
 * protobufjs decodes every message. Only `Backup`'s own top-level fields are stepped through here with the
 * library's Reader, so that each BackupManga is decoded alone: the chapters of 5,000 manga are never all in
 * memory at once, the entry cap is checked before any manga is decoded, and a long decode yields to the event
 * loop and reports progress (docs/adr/0035-mihon-backups-with-protobufjs.md).
 */
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import protobuf from 'protobufjs'
import { IMPORT_MAX_ENTRIES, IMPORT_MAX_UNPACKED_BYTES, statusFromLabel } from '../../../shared/library'
import type { ImportEntry, ParsedLibrary } from '../entries'
import { ImportError } from '../errors'
import {
  BackupCategoryType,
  BackupMangaType,
  BackupSourceType,
  int64Number,
  int64String,
  type BackupCategoryMessage,
  type BackupMangaMessage,
  type BackupSourceMessage,
} from './schema'

const gunzipAsync = promisify(gunzip)

/** Whether bytes start a gzip stream. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
}

export interface BackupReadOptions {
  /** Called as manga are decoded. */
  onProgress?(done: number, total: number): void
  /** The unpacked size limit (tests make it small). */
  maxUnpackedBytes?: number
}

const MAX_CHAPTER = 100_000
const FIELD = { manga: 1, categories: 2, sources: 101 } as const
const LENGTH_DELIMITED = 2

export async function parseMihonBackup(bytes: Buffer, options: BackupReadOptions = {}): Promise<ParsedLibrary> {
  if (!isGzip(bytes)) throw new ImportError('backup: not gzip (a .tachibk or .proto.gz file is a gzipped protobuf message)')
  const raw = await unpack(bytes, options.maxUnpackedBytes ?? IMPORT_MAX_UNPACKED_BYTES)
  const { manga, categories, sources } = decoded(() => envelope(raw))
  if (raw.length > 0 && manga.length === 0 && categories.length === 0 && sources.length === 0) {
    throw new ImportError('backup: not a Mihon/Tachiyomi backup (no manga, categories or sources in the message)')
  }

  const categoryNames = new Map(categories.map((c) => [int64Number(c.order), c.name]))
  const entries: ImportEntry[] = []
  for (let i = 0; i < manga.length; i++) {
    const [start, end] = manga[i]!
    const message = decoded(() => BackupMangaType.decode(raw.subarray(start, end)) as unknown as BackupMangaMessage, `manga ${i + 1}`)
    entries.push(entryOf(message, i, categoryNames))
    if (i % 250 === 249) {
      options.onProgress?.(i + 1, manga.length)
      // A long decode lets the Lanes and the servers run in between.
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  options.onProgress?.(manga.length, manga.length)
  return {
    format: 'mihon',
    entries,
    sourceNames: new Map(sources.map((s) => [int64String(s.sourceId), s.name])),
    unreadable: [],
  }
}

async function unpack(bytes: Buffer, limit: number): Promise<Buffer> {
  try {
    return await gunzipAsync(bytes, { maxOutputLength: limit })
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    if (e.code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ImportError(`backup: unpacks to more than ${Math.round(limit / 1024 / 1024)} MiB, the most an import reads`)
    }
    if (e.code === 'Z_BUF_ERROR' || /unexpected end/i.test(e.message))
      throw new ImportError('backup: truncated (the gzip stream ends early)')
    throw new ImportError(`backup: not a valid gzip stream (${e.message})`)
  }
}

/** The top-level fields of `Backup`: where each manga is, and the categories and sources, decoded. */
function envelope(raw: Buffer) {
  const reader = protobuf.Reader.create(raw)
  reader.discardUnknown = true
  const manga: Array<[number, number]> = []
  const categories: BackupCategoryMessage[] = []
  const sources: BackupSourceMessage[] = []
  while (reader.pos < reader.len) {
    const at = reader.pos
    const tag = reader.uint32()
    const field = tag >>> 3
    const wire = tag & 7
    if (field === 0) throw new ImportError(`backup: not a Mihon/Tachiyomi backup (field number 0 at byte ${at})`)
    const known = field === FIELD.manga || field === FIELD.categories || field === FIELD.sources
    if (!known) {
      reader.skipType(wire)
      continue
    }
    if (wire !== LENGTH_DELIMITED) throw new ImportError(`backup: not a Mihon/Tachiyomi backup (field ${field} is not a message)`)
    const length = reader.uint32()
    const start = reader.pos
    if (start + length > reader.len) throw new ImportError('backup: truncated (a message runs past the end of the file)')
    if (field === FIELD.manga) {
      manga.push([start, start + length])
      if (manga.length > IMPORT_MAX_ENTRIES) {
        throw new ImportError(`backup: more than ${IMPORT_MAX_ENTRIES.toLocaleString('en')} manga; an import takes at most that many`)
      }
      reader.skip(length)
    } else if (field === FIELD.categories) {
      categories.push(BackupCategoryType.decode(reader, length) as unknown as BackupCategoryMessage)
    } else {
      sources.push(BackupSourceType.decode(reader, length) as unknown as BackupSourceMessage)
    }
  }
  return { manga, categories, sources }
}

/** Runs a decode step; protobufjs's own errors become one clear ImportError. */
function decoded<T>(step: () => T, where?: string): T {
  try {
    return step()
  } catch (error) {
    if (error instanceof ImportError) throw error
    const message = (error as Error).message
    const place = where ? ` at ${where}` : ''
    if (error instanceof RangeError || /index out of range/i.test(message)) {
      throw new ImportError(`backup: truncated, or not a Mihon/Tachiyomi backup${place} (${message})`)
    }
    throw new ImportError(`backup: not a Mihon/Tachiyomi backup${place} (${message})`)
  }
}

function entryOf(m: BackupMangaMessage, index: number, categoryNames: Map<number, string>): ImportEntry {
  const status = m.categories
    .map((order) => categoryNames.get(int64Number(order)))
    .map((name) => (name ? statusFromLabel(name) : undefined))
    .find((s) => s !== undefined)
  const progress = highestRead(m)
  return {
    ref: `manga ${index + 1}`,
    target: { kind: 'source', sourceId: int64String(m.source), path: m.url },
    title: (m.customTitle || m.title).trim().slice(0, 500),
    status,
    progress: progress?.chapter,
    progressAt: progress?.at || undefined,
    inLibrary: m.favorite,
  }
}

/** A chapter's number as a Reader sees it when it is marked read and within bounds, else -1. */
function readNumber(c: BackupMangaMessage['chapters'][number]): number {
  if (!c.read || !Number.isFinite(c.chapterNumber) || c.chapterNumber < 0 || c.chapterNumber > MAX_CHAPTER) return -1
  // A float32 in the file: 12.5 stays 12.5, 0.1 becomes 0.10000000149…; four decimals are what a Reader sees.
  return Math.round(c.chapterNumber * 10_000) / 10_000
}

/**
 * The highest chapter number marked read, and when the reading history says it was read (0: it does not).
 * Two passes over the chapters and one over the history, each entry looked at once: a backup of 300,000
 * history entries costs what it holds (a filter with `includes` per entry and a spread into `Math.max` made
 * it quadratic and then overflowed the stack).
 */
function highestRead(m: BackupMangaMessage): { chapter: number; at: number } | null {
  let chapter = -1
  for (const c of m.chapters) {
    const n = readNumber(c)
    if (n > chapter) chapter = n
  }
  if (chapter < 0) return null
  // The pages of the chapters read at the highest number: one set, made once (not one per higher chapter seen).
  const urls = new Set<string>()
  for (const c of m.chapters) if (readNumber(c) === chapter) urls.add(c.url)
  let at = 0
  for (const h of m.history) {
    if (!urls.has(h.url)) continue
    const read = int64Number(h.lastRead)
    if (read > at) at = read
  }
  return { chapter, at: at > 0 && at < 8_640_000_000_000 ? at : 0 }
}

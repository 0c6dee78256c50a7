/**
 * Reads an old Tachiyomi JSON backup (`.json`, versions 1 and 2; Tachiyomi's LegacyBackupManager wrote them
 * before the protobuf backups): `{"version": 2, "mangas": [{"manga": [url, title, source, viewer,
 * chapterFlags], "chapters": [{"u": url, "r": 1}], "categories": ["Reading"], "history": [[url, lastRead]]}],
 * "categories": [[name, order]], "extensions": ["<source id>:<name>"]}`. Version 1 wrote each record as the
 * object's own fields (`"manga": {"url", "title", "source", …}`, chapters `{"url", "read", "chapter_number"}`,
 * history `{"url", "lastRead"}`); both shapes are read in either version. A version absent is 1, as
 * Tachiyomi reads it. Every manga of such a backup is in the library.
 *
 * Each manga becomes an entry pointing at its source and `url`, like a Mihon backup's; what cannot come
 * across is listed with why (no address, no source, the local source's files). Source ids are int64: a
 * number of 16 digits or more is read from the text as it is written, never through a double. Progress is
 * the highest read chapter the backup numbers (version 1's `chapter_number`; version 2 keeps only a chapter's
 * URL, so its number is read from a URL that says "chapter 12"), with the time the history gives for it.
 */
import { IMPORT_MAX_ENTRIES, statusFromLabel } from '../../../shared/library'
import type { ImportEntry, ParsedLibrary } from '../entries'
import { ImportError } from '../errors'
import type { BackupReadOptions } from './backup'

const MAX_CHAPTER = 100_000
const MAX_INT64 = (1n << 63n) - 1n
/** Tachiyomi's local source: manga files on the device, on no site. */
const LOCAL_SOURCE = '0'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

/** Whether a JSON value is a Tachiyomi JSON backup: an object with a `mangas` list and no export `format`. */
export function isLegacyBackup(json: unknown): boolean {
  return isObject(json) && !('format' in json) && Array.isArray(json.mangas)
}

/**
 * Whether a text starts as Tachiyomi writes its JSON backups (`{"version":2,"mangas":[`, or `{"mangas":[`): read
 * as one at once, without parsing it twice.
 */
export function looksLikeLegacyBackup(text: string): boolean {
  return /^\s*\{\s*(?:"version"\s*:\s*\d+\s*,\s*)?"mangas"\s*:\s*\[/.test(text.slice(0, 200))
}

export async function parseLegacyBackup(text: string, options: BackupReadOptions = {}): Promise<ParsedLibrary> {
  const json = exactJson(text)
  if (!isObject(json) || !Array.isArray(json.mangas)) throw new ImportError('Tachiyomi backup: no "mangas" list')
  const version = json.version ?? 1
  if (version !== 1 && version !== 2) {
    throw new ImportError(`Tachiyomi backup: version ${JSON.stringify(version).slice(0, 20)} is not one this app reads (1 and 2)`)
  }
  const mangas = json.mangas
  if (mangas.length > IMPORT_MAX_ENTRIES) {
    throw new ImportError(`Tachiyomi backup: more than ${IMPORT_MAX_ENTRIES.toLocaleString('en')} manga; an import takes at most that many`)
  }
  const entries: ImportEntry[] = []
  const unreadable: ParsedLibrary['unreadable'] = []
  for (let i = 0; i < mangas.length; i++) {
    const read = entryOf(mangas[i]!, i)
    if ('why' in read) unreadable.push({ ref: `manga ${i + 1}`, detail: read.why })
    else entries.push(read)
    if (i % 250 === 249) {
      options.onProgress?.(i + 1, mangas.length)
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  options.onProgress?.(mangas.length, mangas.length)
  return { format: 'tachiyomi', entries, sourceNames: sourceNames(json.extensions), unreadable }
}

/**
 * JSON.parse with every integer of 16 digits or more (past 2^53, where a double loses digits) kept as the
 * string it is written as. One linear pass: a string is stepped over whole, so a number inside one is not
 * touched.
 */
function exactJson(text: string): Json {
  const quoted = text.replace(/"[^"\\]*(?:\\.[^"\\]*)*"|(?<![\d.eE+-])-?\d{16,}(?=\s*[,\]}])/g, (m) => (m.startsWith('"') ? m : `"${m}"`))
  try {
    return JSON.parse(quoted) as Json
  } catch (error) {
    throw new ImportError(`Tachiyomi backup: not valid JSON (${(error as Error).message})`)
  }
}

function entryOf(raw: Json, index: number): ImportEntry | { why: string } {
  if (!isObject(raw)) return { why: 'not a manga record' }
  const manga = mangaOf(raw.manga)
  if (!manga) return { why: 'no manga in the record' }
  const title = (typeof manga.title === 'string' ? manga.title : '').trim().slice(0, 500)
  const name = title ? `"${title.slice(0, 80)}"` : 'a manga with no title'
  const sourceId = int64(manga.source)
  if (sourceId === null) return { why: `${name}: no source id` }
  if (sourceId === LOCAL_SOURCE) return { why: `${name}: files of the local source, on no site` }
  const path = typeof manga.url === 'string' ? manga.url.trim() : ''
  if (!path) return { why: `${name}: its source gives it no address` }
  const progress = highestRead(list(raw.chapters), list(raw.history))
  const status = list(raw.categories)
    .map((c) => (typeof c === 'string' ? statusFromLabel(c) : undefined))
    .find((s) => s !== undefined)
  return {
    ref: `manga ${index + 1}`,
    target: { kind: 'source', sourceId, path },
    title,
    status,
    progress: progress?.chapter,
    progressAt: progress?.at || undefined,
  }
}

/** The manga record: version 2's array [url, title, source, …], or version 1's object. */
function mangaOf(raw: Json | undefined): { url?: Json; title?: Json; source?: Json } | null {
  if (Array.isArray(raw)) return { url: raw[0] ?? null, title: raw[1] ?? null, source: raw[2] ?? null }
  return isObject(raw) ? raw : null
}

/** The highest chapter read and when (one pass over the chapters, one over the history). */
function highestRead(chapters: Json[], history: Json[]): { chapter: number; at: number } | null {
  let chapter = -1
  let urls = new Set<string>()
  for (const c of chapters) {
    if (!isObject(c)) continue
    const url = typeof c.u === 'string' ? c.u : typeof c.url === 'string' ? c.url : ''
    const read = c.r === 1 || c.read === true
    const n = read ? chapterNumber(c.chapter_number, url) : null
    if (n === null) continue
    if (n > chapter) {
      chapter = n
      urls = new Set([url])
    } else if (n === chapter) urls.add(url)
  }
  if (chapter < 0) return null
  let at = 0
  for (const h of history) {
    const [url, lastRead] = Array.isArray(h) ? h : isObject(h) ? [h.url, h.lastRead] : []
    const time = typeof lastRead === 'number' ? lastRead : typeof lastRead === 'string' ? Number(lastRead) : 0
    if (typeof url === 'string' && urls.has(url) && time > at) at = time
  }
  return { chapter, at: at > 0 && at < 8_640_000_000_000 ? at : 0 }
}

/** A read chapter's number: the one the backup gives, else one its URL says ("…/chapter-12/"), else none. */
function chapterNumber(given: Json | undefined, url: string): number | null {
  let n = typeof given === 'number' && given >= 0 ? given : NaN
  if (!Number.isFinite(n)) {
    const match = /(?:^|[^a-z])(?:chapter|chap|ch)[-_ .]?(\d{1,6}(?:\.\d{1,4})?)(?![\d])/i.exec(
      url.split(/[?#]/)[0]!.split('/').slice(-2).join('/'),
    )
    n = match ? Number(match[1]) : NaN
  }
  if (!Number.isFinite(n) || n < 0 || n > MAX_CHAPTER) return null
  return Math.round(n * 10_000) / 10_000
}

/** A source id, as the decimal string the rest of the import uses; null when it is none. */
function int64(raw: Json | undefined): string | null {
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
  if (!/^\d{1,19}$/.test(text) || BigInt(text) > MAX_INT64) return null
  return BigInt(text).toString()
}

/** `extensions`: ["<source id>:<name>"], the names Tachiyomi gives its sources. */
function sourceNames(raw: Json | undefined): Map<string, string> {
  const names = new Map<string, string>()
  for (const e of list(raw)) {
    const match = typeof e === 'string' ? /^(\d{1,19}):(.+)$/s.exec(e) : null
    const id = match && int64(match[1]!)
    if (id) names.set(id, match[2]!.trim().slice(0, 100))
  }
  return names
}

const list = (raw: Json | undefined): Json[] => (Array.isArray(raw) ? raw : [])

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

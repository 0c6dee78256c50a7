/**
 * Import and export, the parts both sides need: the formats, the limits every surface enforces (the window
 * checks a file's size before reading it; the core checks again), and the words that map a folder,
 * category or CSV status to a bookmark status. docs/import-export.md describes them for people.
 */
import type { BookmarkStatus } from './sync-schemas'

/** What a file was read as. `export` is this app's own library document. */
export const IMPORT_FORMATS = ['bookmarks', 'list', 'csv', 'mihon', 'tachiyomi', 'export'] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

export const IMPORT_FORMAT_NAMES: Record<ImportFormat, string> = {
  bookmarks: "a browser's bookmarks file",
  list: 'a list of URLs',
  csv: 'a CSV file',
  mihon: 'a Mihon/Tachiyomi backup',
  tachiyomi: 'a Tachiyomi JSON backup',
  export: 'a Manga Bookmark export',
}

/** The largest file an import reads (checked before reading it whole). */
export const IMPORT_MAX_FILE_BYTES = 64 * 1024 * 1024
/** The most a gzipped backup may unpack to (a gzip bomb stops here). */
export const IMPORT_MAX_UNPACKED_BYTES = 256 * 1024 * 1024
/** The most links, lines or manga one file may hold. */
export const IMPORT_MAX_ENTRIES = 50_000
/** A file sent to the admin RPC as base64: 4 characters per 3 bytes. */
export const IMPORT_MAX_BASE64_CHARS = Math.ceil(IMPORT_MAX_FILE_BYTES / 3) * 4

/** The export document's `format` and the version this app writes (docs/export-format.md). */
export const EXPORT_FORMAT = 'manga-bookmark-library'
export const EXPORT_VERSION = 1

/** Why an entry is not imported. */
export const IMPORT_SKIP_REASONS = [
  'unknown-host',
  'not-series',
  'unmapped-source',
  'not-readable',
  'unknown-site',
  'not-in-library',
  'id-mismatch',
  'duplicate',
  'unreadable',
] as const
export type ImportSkipReason = (typeof IMPORT_SKIP_REASONS)[number]

export const IMPORT_SKIP_WORDS: Record<ImportSkipReason, string> = {
  'unknown-host': 'no Site has this host',
  'not-series': 'not a Series URL of its Site',
  'unmapped-source': 'a backup source not mapped to a Site',
  'not-readable': 'a known source no family of this app reads yet',
  'unknown-site': 'a Site this app does not have',
  'not-in-library': 'only in the reading history, not in the library',
  'id-mismatch': 'its id is not the one its Site reads from its URL',
  duplicate: 'already listed earlier in the file',
  unreadable: 'a line or row that could not be read',
}

const STATUS_WORDS: Array<[BookmarkStatus, string[]]> = [
  ['dropped', ['dropped', 'abandoned', 'stopped', 'gave up']],
  ['planned', ['planned', 'plan to read', 'plan', 'planning', 'to read', 'read later', 'later', 'want to read', 'backlog']],
  ['waiting', ['waiting', 'on hold', 'onhold', 'paused', 'hiatus', 'caught up', 'up to date']],
  ['reading', ['reading', 'currently reading', 'ongoing']],
]
const BY_WORD = new Map(STATUS_WORDS.flatMap(([status, words]) => words.map((w) => [w, status] as const)))

/**
 * The bookmark status a folder, category or status column names ("Dropped", "Plan to Read", "on-hold"), or
 * undefined when it names none. Case, dashes and underscores do not matter.
 */
export function statusFromLabel(label: string): BookmarkStatus | undefined {
  const normal = label.toLowerCase().replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim()
  return BY_WORD.get(normal)
}

/** The Sites an import adds, for a person: "Asura Scans (MangaThemesia), Reaper Scans (Madara)". */
export function sitesToAddWords(sites: ReadonlyArray<{ name: string; family: string }>): string {
  return sites.map((s) => `${s.name} (${s.family})`).join(', ')
}

/**
 * A backup source in a preview, for a person: "Manganato (MangaBox): 146 manga — adds the Site Manganato;
 * 73 addresses moved from chapmanganato.com to www.natomanga.com", "Bato.to: 12 manga — no family reads this
 * site yet".
 */
/** What an import does with one backup source's entries, counted (`ImportSourceView` in the preview). */
export interface SourceSummary {
  name: string
  /** 'site': read on a running Site; 'site-to-add': on a Known Site the import adds; 'mapped': as the owner mapped it; 'not-readable': named, but no family of this app reads it; 'unknown'. */
  outcome: 'site' | 'site-to-add' | 'mapped' | 'not-readable' | 'unknown'
  count: number
  /** Of them, those read as a Series. */
  resolved: number
  /** The Site's name, when they are read on one. */
  siteName?: string
  /** The family that reads it, or the theme a source no family reads builds on, for a person. */
  family?: string
  moved: ReadonlyArray<{ from: string; to: string; count: number }>
}

export function sourceSummaryWords(s: SourceSummary): string {
  const n = (v: number) => v.toLocaleString('en')
  const head = `${s.name}${s.family && s.outcome !== 'not-readable' ? ` (${s.family})` : ''}: ${n(s.count)} manga`
  const what = {
    site: `read on the Site ${s.siteName ?? ''}`,
    'site-to-add': `adds the Site ${s.siteName ?? ''}`,
    mapped: `read as ${s.siteName ?? ''}, as you mapped it`,
    'not-readable': `no family reads this site yet${s.family ? ` (it runs ${s.family})` : ''}; map it to a Site you added, or add it with Add a Site`,
    unknown: 'not a source of the extension repository (its site may have closed); map it to a Site if it is still up',
  }[s.outcome]
  const parts = [`${head} — ${what}`]
  const unread = s.count - s.resolved
  if (unread > 0 && (s.outcome === 'site' || s.outcome === 'site-to-add' || s.outcome === 'mapped'))
    parts.push(`${n(unread)} not read (see Skipped)`)
  for (const m of s.moved) parts.push(`${n(m.count)} address${m.count === 1 ? '' : 'es'} moved from ${m.from} to ${m.to}`)
  return parts.join('; ')
}

/** The hosts no Site has, for a person: "asuracomic.net × 3 (Asura Scans, a MangaThemesia site: Add a Site adds it)". */
export function unknownHostsWords(hosts: ReadonlyArray<{ host: string; count: number; known?: string }>): string {
  return hosts.map((h) => `${h.host} × ${h.count}${h.known ? ` (${h.known})` : ''}`).join(', ')
}

/**
 * What every import source is read into: one entry per bookmark-to-be, before any Site is chosen. Reading a
 * file is pure and sends nothing; the plan (plan.ts) resolves entries against the Site registry.
 */
import type { BookmarkStatus } from '../../shared/sync-schemas'
import type { ImportFormat } from '../../shared/library'

/** Where an entry points: an absolute URL, a backup source's manga address, or a Series key (export). */
export type EntryTarget =
  | { kind: 'url'; url: string }
  /** A Mihon/Tachiyomi manga: its source's id (a decimal int64) and its `url`, usually a path. */
  | { kind: 'source'; sourceId: string; path: string }
  /** A Series of an export document: its Site key and id, and its URL when it has one. */
  | { kind: 'series'; site: string; seriesId: string; url: string }

/** A Series' Latest Chapter and stamps as an export document carries them (restored as they were). */
export interface SeriesSnapshot {
  latestChapter: number | null
  latestChapterLabel: string
  latestChapterUrl: string
  latestSource: '' | 'check' | 'sighting'
  latestChangedAt: number
  latestCheckedAt: number
  finishedAt: number
  createdAt: number
}

export interface ImportEntry {
  /** Where in the file, for messages: "line 12", "link 7", "manga 4". */
  ref: string
  target: EntryTarget
  title: string
  /** Absent: 'reading' for a new bookmark. */
  status?: BookmarkStatus
  /** The highest chapter read. */
  progress?: number
  /** When it was read (unix ms); absent when the source does not say. */
  progressAt?: number
  /** Export documents: the Reader the bookmark belongs to, by name. */
  reader?: { name: string; createdAt: number }
  /** Export documents: when the bookmark was made. */
  createdAt?: number
  /** Export documents: the Series as it was; an entry with `bookmark: false` restores only the Series. */
  series?: SeriesSnapshot
  /** False for an export document's Series that no Reader holds. */
  bookmark?: boolean
  /** Mihon: the manga is in the library (false: only in the reading history). */
  inLibrary?: boolean
}

/** A file read into entries. */
export interface ParsedLibrary {
  format: ImportFormat
  entries: ImportEntry[]
  /** Mihon: the names the backup gives its sources, by source id. */
  sourceNames: Map<string, string>
  /** Entries the file itself made unusable (a CSV row without a URL), with why. */
  unreadable: Array<{ ref: string; detail: string }>
  /** Export documents: every Reader they name, with bookmarks or not. */
  readers?: Array<{ name: string; createdAt: number }>
  /** Export documents: the Lanes the owner had paused, by Site key, until when. */
  lanePauses?: Array<{ site: string; until: number }>
}

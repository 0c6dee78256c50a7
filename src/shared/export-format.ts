/**
 * The export document (docs/export-format.md), version 1: the Sites in use, every Series with its Latest
 * Chapter, and every Reader's bookmarks with status and Progress — never a token. Shared: the window
 * downloads it as it comes from the core.
 */
import { z } from 'zod'
import { EXPORT_FORMAT, EXPORT_VERSION } from './library'
import { BOOKMARK_STATUSES } from './domain'

const millis = z.number().int().min(0).max(8_640_000_000_000)
const chapter = z.number().finite().min(0).max(100_000)
const text = (max: number) => z.string().max(max)

export const ExportedSite = z.object({
  key: text(40),
  name: text(80),
  hosts: z.array(text(260)).max(20),
  /** The owner's pause of the Site's Lane, when it was paused at the export: until when. Absent: not paused. */
  pausedUntil: millis.optional(),
})

export const ExportedSeries = z.object({
  site: text(40).min(1),
  seriesId: text(200).min(1),
  title: text(500),
  url: text(2048),
  latestChapter: chapter.nullable(),
  latestChapterLabel: text(500),
  latestChapterUrl: text(2048),
  latestSource: z.enum(['', 'check', 'sighting']),
  latestChangedAt: millis,
  latestCheckedAt: millis,
  finishedAt: millis,
  createdAt: millis,
})

export const ExportedBookmark = z.object({
  site: text(40).min(1),
  seriesId: text(200).min(1),
  status: z.enum(BOOKMARK_STATUSES),
  progress: chapter.nullable(),
  progressAt: millis,
  createdAt: millis,
})

export const ExportedReader = z.object({
  name: text(40).min(1),
  createdAt: millis,
  bookmarks: z.array(ExportedBookmark),
})

/** Version 1. Unknown fields are ignored (a later version may add some); a later version is refused. */
export const ExportDocument = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: millis,
  app: z.string().max(100),
  sites: z.array(ExportedSite),
  series: z.array(ExportedSeries),
  readers: z.array(ExportedReader),
})

export type ExportDocument = z.infer<typeof ExportDocument>
export type ExportedSeries = z.infer<typeof ExportedSeries>
export type ExportedReader = z.infer<typeof ExportedReader>
export type ExportedBookmark = z.infer<typeof ExportedBookmark>
export type ExportedSite = z.infer<typeof ExportedSite>

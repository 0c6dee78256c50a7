/**
 * The sync API's schemas (docs/design.md#the-sync-endpoint), one zod schema per input and output. They validate every request and
 * generate the OpenAPI document, so the two cannot drift. Unknown fields are refused everywhere. Shared:
 * the Readers' page takes its types from here.
 */
import { z } from 'zod'
import { BOOKMARK_STATUSES } from './domain'
import { HttpUrl, SeriesId, SiteKey, StoredSeriesId } from './ids'

/** A chapter number: finite, not negative, below a bound no real Series reaches. */
const chapter = z.number().finite().min(0).max(100_000)
/** Unix milliseconds. */
const millis = z.number().int().min(0).max(8_640_000_000_000)
const status = z.enum(BOOKMARK_STATUSES)
export { SeriesId, SiteKey } from './ids'

export const BookmarkParams = z.strictObject({ site: SiteKey, seriesId: SeriesId })
/** A bookmark to remove: any id a row may hold, so one made before the id rule can still be removed. */
export const RemoveBookmarkParams = z.strictObject({ site: SiteKey, seriesId: StoredSeriesId })

export const BookmarksQuery = z.strictObject({
  since: z
    .string()
    .regex(/^\d{1,16}$/, 'unix milliseconds')
    .transform(Number)
    .optional(),
})

export const AddBookmarkBody = z.strictObject({
  url: HttpUrl,
  status: status.optional(),
})

export const UpdateBookmarkBody = z
  .strictObject({
    status: status.optional(),
    progress: chapter.optional(),
    /** When the Reader read it; the write with the latest progressAt wins. Defaults to the server's now. */
    progressAt: millis.optional(),
  })
  .refine((b) => b.status !== undefined || b.progress !== undefined, { message: 'give status or progress' })
  .refine((b) => b.progressAt === undefined || b.progress !== undefined, { message: 'progressAt needs progress', path: ['progressAt'] })

export const SightingBody = z
  .strictObject({
    url: HttpUrl.optional(),
    site: SiteKey.optional(),
    seriesId: SeriesId.optional(),
    chapter,
    /** When the Reader saw it; defaults to now. */
    at: millis.optional(),
  })
  .refine((b) => (b.url !== undefined) !== (b.site !== undefined || b.seriesId !== undefined), {
    message: 'give either url, or site and seriesId',
  })
  .refine((b) => b.url !== undefined || (b.site !== undefined && b.seriesId !== undefined), { message: 'site and seriesId go together' })

export const ErrorBody = z.strictObject({
  error: z.strictObject({ code: z.string(), message: z.string() }),
})

export const SeriesView = z.strictObject({
  title: z.string(),
  url: z.string(),
  latestChapter: z.number().nullable(),
  latestChapterLabel: z.string(),
  latestChapterUrl: z.string(),
  /** '' | 'check' | 'sighting': a Sighting's raise is provisional until the next check. */
  latestSource: z.string(),
  latestChangedAt: millis,
  latestCheckedAt: millis,
  finished: z.boolean(),
})

export const BookmarkView = z.strictObject({
  site: z.string(),
  seriesId: z.string(),
  status,
  progress: z.number().nullable(),
  progressAt: millis,
  createdAt: millis,
  updatedAt: millis,
  /** latestChapter > progress. */
  unread: z.boolean(),
  /** Chapters between progress and the Latest Chapter (rounded up). */
  unreadCount: z.number().int(),
  /**
   * When the next chapter is expected (an adaptive Site's learnt rhythm, as of its last check), or null when the
   * app does not know; it may be in the past until the next check.
   */
  expectedAt: millis.nullable(),
  series: SeriesView,
})

/** A bookmark the Reader no longer holds, and when it was removed. */
export const RemovedBookmark = z.strictObject({ site: z.string(), seriesId: z.string(), at: millis })

export const BookmarksResponse = z.strictObject({
  /** With `since`: only the bookmarks that changed at or after it (or whose Latest Chapter moved). */
  bookmarks: z.array(BookmarkView),
  /** The server's time: pass it as `since` next time. */
  now: millis,
  /**
   * With `since` only: the bookmarks removed at or after it. Apply them, then `bookmarks`: a bookmark removed
   * and added again since is in `bookmarks`, not here.
   */
  deleted: z.array(RemovedBookmark).optional(),
  /**
   * With `since` only, when it is older than the app remembers removals (90 days): `bookmarks` holds every
   * bookmark, as without `since` — replace the whole list.
   */
  full: z.literal(true).optional(),
})

export const BookmarkResponse = z.strictObject({ bookmark: BookmarkView })

/** A new bookmark: for a Series the app did not know, what happens to it — read now, or left for its Lane. */
export const AddBookmarkResponse = z.strictObject({
  bookmark: BookmarkView,
  acquisition: z.strictObject({ state: z.enum(['reading', 'waiting']), message: z.string() }).optional(),
})

export const ReaderView = z.strictObject({ id: z.number().int(), name: z.string(), createdAt: millis })

export const SightingResponse = z.strictObject({
  sighting: z.strictObject({ id: z.number().int(), site: z.string(), seriesId: z.string(), chapter: z.number(), sightedAt: millis }),
  /** The Sighting raised the Latest Chapter provisionally. */
  raised: z.boolean(),
})

export const HealthResponse = z.strictObject({ ok: z.literal(true) })

/** GET /api/v1/export: the Reader's own bookmarks as an export document (json, the default) or CSV. */
export const ExportQuery = z.strictObject({ format: z.enum(['json', 'csv']).default('json') })

export type { BookmarkStatus } from './domain'
export type Bookmark = z.infer<typeof BookmarkView>
export type RemovedBookmarkView = z.infer<typeof RemovedBookmark>
export type BookmarksAnswer = z.infer<typeof BookmarksResponse>
export type Reader = z.infer<typeof ReaderView>
export type ApiError = z.infer<typeof ErrorBody>

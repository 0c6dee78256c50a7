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
  /**
   * The Series' page answered 404/410 on this many checks in a row (at least GONE_AFTER_CHECKS), since when, and
   * which; absent otherwise (docs/adr/0113-a-series-whose-page-is-gone.md).
   */
  gone: z.strictObject({ checks: z.number().int(), since: millis, status: z.number().int() }).optional(),
})

/** The chapter a Reader reads next: the lowest stored chapter above their Progress. */
export const NextChapterView = z.strictObject({ number: z.number(), label: z.string(), url: z.string() })

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
  /**
   * Chapters above progress: the stored chapters counted one by one (10.5 is one, a missing number none); by
   * subtraction (rounded up) only below or above the stored list, or where no list is stored yet.
   */
  unreadCount: z.number().int(),
  /** The lowest stored chapter above progress (any, when nothing is read), or null: what Continue opens. */
  nextChapter: NextChapterView.nullable(),
  /**
   * When the next chapter is expected (an adaptive Site's learnt rhythm, as of its last check), or null when the
   * app does not know; it may be in the past until the next check.
   */
  expectedAt: millis.nullable(),
  series: SeriesView,
})

/** A page of a stored list: `before` is the number (or time) the next page starts below. */
const pageQuery = (what: string) =>
  z.strictObject({
    before: z
      .string()
      .regex(/^\d{1,16}(\.\d{1,6})?$/, what)
      .transform(Number)
      .optional(),
    limit: z
      .string()
      .regex(/^\d{1,3}$/, 'a whole number')
      .transform(Number)
      .pipe(z.number().int().min(1).max(500))
      .optional(),
  })

export const ChaptersQuery = pageQuery('a chapter number')

export const ChapterView = z.strictObject({
  number: z.number(),
  label: z.string(),
  url: z.string(),
  /** When the Site says it came out (0: the page gave no date). */
  releasedAt: millis,
  /** When the app first saw it. */
  firstSeenAt: millis,
  /** The Site no longer lists it (kept, so it never counts as new again). */
  vanished: z.boolean(),
  /** At or below the Reader's progress. */
  read: z.boolean(),
})

export const ChaptersResponse = z.strictObject({
  /** The stored list, newest first (the newest 100 and everything above the lowest Progress, at most 1,000). */
  chapters: z.array(ChapterView),
  /** Pass as `before` for the next page; absent on the last page. */
  next: z.number().optional(),
})

export const UpdatesQuery = pageQuery('unix milliseconds')

export const UpdateView = z.strictObject({
  site: z.string(),
  seriesId: z.string(),
  title: z.string(),
  number: z.number(),
  label: z.string(),
  url: z.string(),
  /** When the app first saw it: what the Updates are grouped by. */
  seenAt: millis,
  releasedAt: millis,
})

export const UpdatesResponse = z.strictObject({
  /** The Reader's unread New Chapters, newest first. */
  updates: z.array(UpdateView),
  next: z.number().optional(),
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
   * With `since` only, when it is older than the app remembers removals (90 days) or later than the server's
   * `now` (its clock was set back since): `bookmarks` holds every bookmark, as without `since` — replace the
   * whole list.
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

/** A device a Reader signed in on (docs/adr/0126-devices-not-tokens.md); `current`: the one asking. */
export const DeviceView = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  createdAt: millis,
  /** The last request with its token, to the minute; 0: never. */
  lastSeenAt: millis,
  current: z.boolean(),
})
export const DevicesResponse = z.strictObject({ devices: z.array(DeviceView) })
export const DeviceParams = z.strictObject({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })

export const SightingResponse = z.strictObject({
  sighting: z.strictObject({ id: z.number().int(), site: z.string(), seriesId: z.string(), chapter: z.number(), sightedAt: millis }),
  /** The Sighting raised the Latest Chapter provisionally. */
  raised: z.boolean(),
})

export const HealthResponse = z.strictObject({
  ok: z.boolean(),
  /** When it is not ok (then 503): read-only (writes refused: a full disk, a read-only or lost file), or damaged. */
  store: z.enum(['read-only', 'damaged']).optional(),
  /** Why it is not ok, in words. */
  problem: z.string().optional(),
})

/** GET /api/v1/export: the Reader's own bookmarks as an export document (json, the default) or CSV. */
export const ExportQuery = z.strictObject({ format: z.enum(['json', 'csv']).default('json') })

export type { BookmarkStatus } from './domain'
export type Bookmark = z.infer<typeof BookmarkView>
export type RemovedBookmarkView = z.infer<typeof RemovedBookmark>
export type BookmarksAnswer = z.infer<typeof BookmarksResponse>
export type Reader = z.infer<typeof ReaderView>
export type Device = z.infer<typeof DeviceView>
export type ChapterItem = z.infer<typeof ChapterView>
export type NextChapter = z.infer<typeof NextChapterView>
export type ChaptersAnswer = z.infer<typeof ChaptersResponse>
export type UpdateItem = z.infer<typeof UpdateView>
export type UpdatesAnswer = z.infer<typeof UpdatesResponse>
export type ApiError = z.infer<typeof ErrorBody>

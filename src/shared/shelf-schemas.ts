/** The household's shelf and covers in the sync API (docs/adr/0152-the-households-shelf.md), as zod schemas. */
import { z } from 'zod'
import { BOOKMARK_STATUSES } from './domain'
import { SeriesId, SiteKey } from './ids'

export const CoverParams = z.strictObject({ site: SiteKey, seriesId: SeriesId })

export const ShelfQuery = z.strictObject({
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'a number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .optional(),
})

export const ShelfItem = z.object({
  site: z.string(),
  siteName: z.string(),
  seriesId: z.string(),
  title: z.string(),
  url: z.string(),
  latestChapter: z.number().nullable(),
  latestChapterLabel: z.string(),
  /** Whether the app keeps a cover for it (GET /api/v1/covers/{site}/{seriesId}). */
  cover: z.boolean(),
  /** Whether this Reader follows it already. */
  following: z.boolean(),
})

export const ShelfResponse = z.object({
  series: z.array(ShelfItem),
  /** More Series than `limit` are on the shelf. */
  more: z.boolean(),
})

export const ShelfFollowBody = z.strictObject({
  site: SiteKey,
  seriesId: SeriesId,
  status: z.enum(BOOKMARK_STATUSES).optional(),
})

export type ShelfItemView = z.infer<typeof ShelfItem>
export type ShelfAnswer = z.infer<typeof ShelfResponse>

export const ShelfFollowResponse = z.object({ site: z.string(), seriesId: z.string(), created: z.boolean() })

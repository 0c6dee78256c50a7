/**
 * Say why, on the Reader's side (issue 43, docs/adr/0218-the-readers-next-check.md): when the app checks each of a
 * Reader's bookmarked Series next and why — its Site's updates page shows a new chapter first, its rhythm, its
 * Site's round — or why it is not checked now ("not checked: Site paused until 12:04"). The sync API answers the
 * facts (`GET /api/v1/checks`, worked out by the owner's rule in series-state.ts); the Readers' page words them
 * against its own ticking clock (reader-check-words.ts: no zod in the window). Pure: the server and tests share it.
 */
import { z } from 'zod'

const millis = z.number().int().min(0)

/** Why a planned check comes when it does. */
export const NEXT_CHECK_REASONS = ['feed', 'feed-broken', 'rhythm', 'round'] as const
export type NextCheckReason = (typeof NEXT_CHECK_REASONS)[number]

/** What a bookmarked Series waits for, as a Reader is told it. */
export const ReaderCheckState = z.union([
  /** Not checked for a reason of the Series itself, or due at its Lane's next turn. */
  z.strictObject({ kind: z.enum(['no-url', 'orphan', 'no-site', 'finished', 'no-fetcher', 'due']) }),
  /** Its Site's Lane is paused by the owner, or the Site refuses the app (an anti-bot challenge), until `until`. */
  z.strictObject({ kind: z.enum(['paused', 'refusing']), until: millis }),
  /**
   * Its next check is planned at `at`: `feed` its Site's updates page shows a new chapter first, `feed-broken` that
   * page does not read now (its rhythm meanwhile), `rhythm` when its next chapter is likely, `round` its Site's
   * fixed round of `everyMs`.
   */
  z.strictObject({ kind: z.literal('next-check'), at: millis, why: z.enum(NEXT_CHECK_REASONS), everyMs: millis }),
])
export type ReaderCheckState = z.infer<typeof ReaderCheckState>

export const ReaderCheckView = z.strictObject({ site: z.string(), seriesId: z.string(), check: ReaderCheckState })
export type ReaderCheckView = z.infer<typeof ReaderCheckView>

/**
 * The most checks one answer holds (docs/adr/0234-the-checks-answer-in-pages.md): a library up to it is one answer
 * as before; a larger one is read a page at a time (`after`: the `next` of the page before), so no answer holds the
 * app's one thread for long.
 */
export const CHECKS_PAGE_MAX = 1_000

export const ChecksQuery = z.strictObject({
  /** The `next` of the page before: this page continues after it, in the order of the bookmarks' keys. */
  after: z
    .string()
    .max(1_000)
    .regex(/^[A-Za-z0-9_-]+$/, 'the next of a page')
    .optional(),
  /** At most this many checks (default and most: CHECKS_PAGE_MAX). */
  limit: z
    .string()
    .regex(/^\d{1,5}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(CHECKS_PAGE_MAX))
    .optional(),
})

export const ChecksResponse = z.strictObject({
  /** The server's clock when it answered. */
  now: millis,
  /** One per bookmark of the Reader, by site and seriesId. */
  checks: z.array(ReaderCheckView),
  /** Pass as `after` for the next page; absent on the last page. */
  next: z.string().optional(),
})
export type ChecksResponse = z.infer<typeof ChecksResponse>

/**
 * The domain's small enumerations, defined once for the store, the sync API, the admin contract and the
 * window (docs/design.md#data).
 */

/** A Reader's status for a bookmark. */
export const BOOKMARK_STATUSES = ['reading', 'waiting', 'planned', 'dropped'] as const
export type BookmarkStatus = (typeof BOOKMARK_STATUSES)[number]

/** The owner's Series list filters. `new`: a New Chapter within NEW_CHAPTER_MS. */
export const SERIES_FILTERS = ['new', 'unchecked', 'stale', 'pending', 'finished', 'orphan', 'no-url'] as const
export type SeriesFilter = (typeof SERIES_FILTERS)[number]

/** The orders of the owner's Series list: by title; by the latest change, newest first; by the last check, newest first. */
export const SERIES_SORTS = ['title', 'changed', 'checked'] as const
export type SeriesSort = (typeof SERIES_SORTS)[number]

/** The log levels the owner can choose (Settings → Log level); `MB_LOG_LEVEL` overrides it. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** How many Series are in each state the Overview counts. */
export interface OverviewCounts {
  series: number
  unchecked: number
  stale: number
  pending: number
  orphans: number
  noUrl: number
  finished: number
}

/** The durations the owner can pause a Lane for; expiry is mandatory. */
export const PAUSE_DURATIONS = { '1h': 3_600_000, '6h': 21_600_000, '24h': 86_400_000 } as const
export type PauseDuration = keyof typeof PAUSE_DURATIONS
/** The longest pause the app ever sets. */
export const LONGEST_PAUSE_MS = Math.max(...Object.values(PAUSE_DURATIONS))

/** How long a Latest Chapter that moved forward stays a New Chapter: the ember accent, the `new` filter, the Overview's card. */
export const NEW_CHAPTER_MS = 86_400_000

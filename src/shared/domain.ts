/**
 * The domain's small enumerations, defined once for the store, the sync API, the admin contract and the
 * window (docs/design.md#data).
 */

/** A Reader's status for a bookmark. */
export const BOOKMARK_STATUSES = ['reading', 'waiting', 'planned', 'dropped'] as const
export type BookmarkStatus = (typeof BOOKMARK_STATUSES)[number]

/** The owner's Series list filters. */
export const SERIES_FILTERS = ['unchecked', 'stale', 'pending', 'finished', 'orphan', 'no-url'] as const
export type SeriesFilter = (typeof SERIES_FILTERS)[number]

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

/**
 * Kysely row types, one interface per table (docs/design.md#data). Column names are a contract: outside tests
 * read them. Booleans are INTEGER 0/1; times are unix ms with 0 meaning never.
 */
import type { Generated, Insertable, Selectable } from 'kysely'
import type { BookmarkStatus } from '../../shared/domain'
import type { ChannelKind } from '../../shared/channel-kinds'

export type { BookmarkStatus } from '../../shared/domain'

/** A Series' primary key. */
export interface SeriesKey {
  site: string
  seriesId: string
}

export interface ReadersTable {
  id: Generated<number>
  name: string
  token_hash: string
  created_at: number
}

/** A device a Reader signed in on, with a token of its own (migrations/0013). */
export interface ReaderDevicesTable {
  id: Generated<number>
  reader_id: number
  name: string
  token_hash: string
  created_at: number
  /** The last request with its token, to the minute; 0: never. */
  last_seen_at: Generated<number>
}

/** A sign-in link `npm run admin-link` asked of the running app (migrations/0013). */
export interface AdminSignInRequestsTable {
  id: Generated<number>
  code_hash: string
  requested_at: number
  expires_at: number
  /** When the app took the code into its sign-in codes; 0: not yet. */
  taken_at: Generated<number>
  /** The admin listener's port the link opens, written with `taken_at`. */
  admin_port: Generated<number>
}

export interface SeriesTable {
  site: string
  series_id: string
  title: Generated<string>
  series_url: Generated<string>
  latest_chapter: number | null
  latest_chapter_label: Generated<string>
  latest_chapter_url: Generated<string>
  latest_source: Generated<'' | 'check' | 'sighting'>
  /** The Latest Chapter as a check (or an import) last set it; a Sighting's raise leaves it (migration 0012). */
  checked_chapter: Generated<number | null>
  latest_changed_at: Generated<number>
  latest_checked_at: Generated<number>
  latest_sighted_at: Generated<number>
  force_poll_at: Generated<number>
  finished_at: Generated<number>
  created_at: number
  /** The last check's outcome ('' before the first), why it was not a chapter, and when. */
  last_outcome: Generated<CheckOutcomeName | ''>
  last_error: Generated<string>
  last_outcome_at: Generated<number>
  /** How many bookmarks hold it, kept by triggers on `bookmarks` (migration 0007); 0 = an orphan. */
  reader_count: Generated<number>
  /**
   * Adaptive Sites only (migration 0008; docs/adr/0014-freshness-per-request.md): when the Series next deserves a
   * check (0 = no plan: the fixed rest), the rhythm believed (JSON, '' = none), the recent release observations
   * (JSON), and how many times in a row the rhythm was wrong.
   */
  next_check_at: Generated<number>
  rhythm: Generated<string>
  releases: Generated<string>
  rhythm_misses: Generated<number>
  /** Checks in a row whose Series page answered 404 or 410 (migration 0014), since when, and which status; 0 = not gone. */
  gone_checks: Generated<number>
  gone_since: Generated<number>
  gone_status: Generated<number>
}

/** The classification of one check (docs/design.md#fetch-outcomes). */
export type CheckOutcomeName = 'chapter' | 'no-chapter' | 'refused' | 'unreachable' | 'unfetchable' | 'error'

export interface BookmarksTable {
  reader_id: number
  site: string
  series_id: string
  status: Generated<BookmarkStatus>
  progress: number | null
  progress_at: Generated<number>
  created_at: number
  updated_at: number
}

export interface SightingsTable {
  id: Generated<number>
  reader_id: number
  site: string
  series_id: string
  chapter: number
  sighted_at: number
  verdict: Generated<'' | 'confirmed' | 'suspicious'>
  judged_at: Generated<number>
}

export interface PollLanesTable {
  site: string
  paused_until: Generated<number>
  refuse_until: Generated<number>
  /** How long the current refusal was set for (a Site's Retry-After may ask more than its backoff); 0 = the backoff. */
  refuse_ms: Generated<number>
}

/** A permanent redirect of a Site's pages to another host, proposed to the owner (migration 0014). */
export interface SiteMovesTable {
  site: string
  /** scheme://host[:port] the pages moved to; '' once accepted or dismissed. */
  to_origin: Generated<string>
  from_url: Generated<string>
  seen_at: Generated<number>
  /** The origin the owner dismissed: not proposed again. */
  dismissed: Generated<string>
}

/** An id that names a Series without being its key: of a URL it moved to or from (migration 0017). */
export interface SeriesAliasesTable {
  site: string
  alias_id: string
  series_id: string
}

/** A gone Series found again by its title at another URL, proposed to the owner (migration 0016). */
export interface SeriesFoundTable {
  site: string
  series_id: string
  /** The URL found; '' once moved there, dismissed, or when the search found no single match. */
  to_url: Generated<string>
  to_title: Generated<string>
  found_at: Generated<number>
  /** When the Series' gone run was last searched (one search per run). */
  searched_at: Generated<number>
  /** The URL the owner dismissed: not offered again. */
  dismissed: Generated<string>
}
export type SeriesFoundRow = Selectable<SeriesFoundTable>

export interface PollPassesTable {
  id: Generated<number>
  site: string
  started_at: number
  ended_at: number
  skip: Generated<string>
  due: number
  gap: number
  clamped: number
  checked: number
  refused: number
  unreachable: number
  no_chapter: number
  unfetchable: number
  errors: number
}

/** One move of a Latest Chapter: up by a check or a Sighting, or down when a check corrects a Sighting. */
export interface LatestChapterHistoryTable {
  id: Generated<number>
  site: string
  series_id: string
  chapter: number
  label: Generated<string>
  source: 'check' | 'sighting' | 'correction'
  at: number
}

/**
 * A chapter a check found on the Site, within the window kept (migration 0009;
 * docs/adr/0072-chapter-lists-kept-in-a-window.md). Times are unix ms, 0 = none.
 */
export interface ChaptersTable {
  site: string
  series_id: string
  number: number
  label: Generated<string>
  url: Generated<string>
  /** When the Site says it came out (0: the page gave no date). */
  released_at: Generated<number>
  /** When a check first stored it. */
  first_seen_at: number
  /** 1: it came as a New Chapter (above the Latest Chapter known then); 0: it was on the list already. */
  arrived: Generated<0 | 1>
  /** When a check no longer found it within the window (0: on the Site). */
  vanished_at: Generated<number>
}

/** Per Site, kept by triggers on `series` (migration 0007): its Series, and how many are eligible. */
export interface SeriesCountsTable {
  site: string
  series: Generated<number>
  eligible: Generated<number>
}

/** How many bookmarks a Reader holds on a Site, kept by triggers on `bookmarks` (migration 0011). */
export interface ReaderSiteCountsTable {
  site: string
  reader_id: number
  bookmarks: number
}

/** A bookmark a Reader removed, and when: what `GET /bookmarks?since=` reports as deleted (migration 0007). */
export interface BookmarkRemovalsTable {
  reader_id: number
  site: string
  series_id: string
  removed_at: number
}

export interface SettingsTable {
  key: string
  /** JSON. */
  value: string
}

/** A backup source mapped to a Site by the owner (migration 0004). */
export interface ImportSourceMappingsTable {
  /** The source's int64 id, in decimal. */
  source_id: string
  source_name: Generated<string>
  site: string
  /** Scheme and host the source's manga paths are read on. */
  origin: string
  updated_at: number
}

/** A Reader's notification rules (migration 0010). */
export interface NotifyPrefsTable {
  reader_id: number
  min_unread: Generated<number>
  /** 'HH:MM', or '' for no quiet hours. */
  quiet_from: Generated<string>
  quiet_to: Generated<string>
  /** An IANA time zone the quiet hours are in ('' = the machine's). */
  time_zone: Generated<string>
  /** JSON `[[site, seriesId], …]`. */
  muted: Generated<string>
  updated_at: number
}

/** Kept as text (no CHECK since migration 0015): validated where it enters, `shared/channel-kinds.ts`. */
export type NotifyChannelKind = ChannelKind

/** Where a Reader's (or, with `reader_id` null, the owner's) messages go (migration 0010). */
export interface NotifyChannelsTable {
  id: Generated<number>
  reader_id: number | null
  kind: NotifyChannelKind
  /** The URL a message is sent to: the push endpoint, the ntfy topic, the webhook. */
  target: string
  /** JSON: the push subscription's keys, the ntfy access token, or the webhook's HMAC key. Never shown back. */
  secret: Generated<string>
  failures: Generated<number>
  last_error: Generated<string>
  last_error_at: Generated<number>
  last_ok_at: Generated<number>
  created_at: number
}

/** A New Chapter waiting for its pass's digest (migration 0010). */
export interface NotifyChaptersTable {
  id: Generated<number>
  site: string
  series_id: string
  chapter: number
  label: Generated<string>
  url: Generated<string>
  title: Generated<string>
  /** The Series' check stamp before the check that found it: a bookmark made after it hears nothing of it. */
  previous_check_at: Generated<number>
  at: number
}

/** One message for one channel, until it is delivered or given up (migration 0010). */
export interface NotifyOutboxTable {
  id: Generated<number>
  channel_id: number
  /** JSON: the digest (notify/digest.ts). */
  message: string
  created_at: number
  /** Held until then (quiet hours). */
  not_before: Generated<number>
  attempts: Generated<number>
  next_attempt_at: Generated<number>
  last_error: Generated<string>
  /** The id the message carries on every try, random, never reused (migration 0012). */
  delivery_id: Generated<string>
}

export interface Database {
  readers: ReadersTable
  reader_devices: ReaderDevicesTable
  admin_sign_in_requests: AdminSignInRequestsTable
  series: SeriesTable
  bookmarks: BookmarksTable
  sightings: SightingsTable
  poll_lanes: PollLanesTable
  site_moves: SiteMovesTable
  series_found: SeriesFoundTable
  series_aliases: SeriesAliasesTable
  poll_passes: PollPassesTable
  latest_chapter_history: LatestChapterHistoryTable
  chapters: ChaptersTable
  settings: SettingsTable
  import_source_mappings: ImportSourceMappingsTable
  series_counts: SeriesCountsTable
  reader_site_counts: ReaderSiteCountsTable
  bookmark_removals: BookmarkRemovalsTable
  notify_prefs: NotifyPrefsTable
  notify_channels: NotifyChannelsTable
  notify_chapters: NotifyChaptersTable
  notify_outbox: NotifyOutboxTable
}

export type ReaderRow = Selectable<ReadersTable>
export type ReaderDeviceRow = Selectable<ReaderDevicesTable>
export type SeriesRow = Selectable<SeriesTable>
export type NewSeries = Insertable<SeriesTable>
export type BookmarkRow = Selectable<BookmarksTable>
export type SightingRow = Selectable<SightingsTable>
export type LaneRow = Selectable<PollLanesTable>
export type SiteMoveRow = Selectable<SiteMovesTable>
export type PassRow = Selectable<PollPassesTable>
export type LatestChapterHistoryRow = Selectable<LatestChapterHistoryTable>
export type ChapterRow = Selectable<ChaptersTable>
export type ImportSourceMappingRow = Selectable<ImportSourceMappingsTable>
export type BookmarkRemovalRow = Selectable<BookmarkRemovalsTable>
export type NotifyPrefsRow = Selectable<NotifyPrefsTable>
export type NotifyChannelRow = Selectable<NotifyChannelsTable>
export type NotifyChapterRow = Selectable<NotifyChaptersTable>
export type NotifyOutboxRow = Selectable<NotifyOutboxTable>

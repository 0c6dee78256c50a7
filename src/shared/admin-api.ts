/**
 * The owner's admin contract (docs/design.md#the-admin-contract): one interface, written once. The core implements it; the
 * preload exposes it over IPC as named functions built from its keys; the headless shell maps it to one RPC
 * route per method; the renderer sees one typed client. Reads, and writes that change rows — nothing here
 * commands a Lane (docs/adr/0001). Every method takes one input object, validated by its schema below.
 */
import { z, type ZodType } from 'zod'
import { ADMIN_METHODS as METHOD_NAMES, type AdminMethodName } from './admin-methods'
import type { ExportDocument } from './export-format'
import { IMPORT_MAX_BASE64_CHARS, IMPORT_MAX_FILE_BYTES, type ImportFormat, type ImportSkipReason, type SourceSummary } from './library'
import { SettingsSchema, type Settings } from './settings'
import { BOOKMARK_STATUSES, PAUSE_DURATIONS, SERIES_FILTERS, SERIES_SORTS, type OverviewCounts, type PauseDuration } from './domain'
import { HttpUrl, SeriesId, SiteKey, StoredSeriesId } from './ids'
import { ChannelInput, type ChannelView } from './notify-schemas'
import type { ChannelKind } from './channel-kinds'
import { SearchQueryText, type SearchableSiteView, type SearchResponse } from './search'
import type { GoneFacts, SeriesWaitingView } from './series-state'

export type { SeriesFilter, SeriesSort } from './domain'
import type { ErrorBody } from './errors'
import type { FeedView } from './feed-words'

const readerId = z.number().int().positive()
export { PAUSE_DURATIONS, type PauseDuration } from './domain'

const SeriesKey = z.strictObject({ site: SiteKey, seriesId: SeriesId })
/** A Series as a row may hold it (an id made before the id rule): it can still be seen and its bookmarks removed. */
const StoredSeriesKey = z.strictObject({ site: SiteKey, seriesId: StoredSeriesId })
const none = z.strictObject({}).optional()
const jobId = z.string().regex(/^[0-9a-f-]{36}$/, 'an import job id')
const sourceId = z.string().regex(/^\d{1,20}$/, 'a backup source id (digits)')
/** A file for an import: its name (which tells a .tachibk that is not gzip) and its bytes, as text or base64. */
const importFile = z.strictObject({
  fileName: z.string().trim().min(1).max(255),
  text: z.string().max(IMPORT_MAX_FILE_BYTES, 'the file is larger than an import reads').optional(),
  base64: z
    .string()
    .max(IMPORT_MAX_BASE64_CHARS, 'the file is larger than an import reads')
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64')
    .optional(),
})

/** The schema of every method's input, by method name. */
export const ADMIN_INPUTS = {
  overview: none,
  listSeries: z.strictObject({
    filter: z.enum(SERIES_FILTERS).optional(),
    site: SiteKey.optional(),
    search: z.string().max(200).optional(),
    offset: z.number().int().min(0).max(10_000_000).default(0),
    limit: z.number().int().min(1).max(500).default(100),
    /** The `next` of the page before: this page continues after it (keyset paging); `offset` is then only echoed. */
    after: z
      .string()
      .max(1_000)
      .regex(/^[A-Za-z0-9_-]+$/, 'the next of a page')
      .optional(),
    /** Whether to count every Series that matches (`total`); a window paging on asks once per filter. */
    count: z.boolean().default(true),
    /** The list's order: by title (the default), by the latest change or by the last check, newest first. */
    sort: z.enum(SERIES_SORTS).optional(),
  }),
  seriesDetail: StoredSeriesKey,
  /** New Chapters newest first; `before` is the `next` of the page before. */
  updates: z.strictObject({
    before: z.number().int().positive().optional(),
    limit: z.number().int().min(1).max(200).default(50),
    /** Only the Series this Reader holds. */
    readerId: z.number().int().positive().optional(),
  }),
  lanes: none,
  readers: none,
  settings: none,
  forceSeriesPoll: SeriesKey,
  pauseLane: z.strictObject({ site: SiteKey, duration: z.enum(Object.keys(PAUSE_DURATIONS) as [PauseDuration, ...PauseDuration[]]) }),
  resumeLane: z.strictObject({ site: SiteKey }),
  acceptSiteMove: z.strictObject({ site: SiteKey }),
  dismissSiteMove: z.strictObject({ site: SiteKey }),
  finishSeries: SeriesKey,
  unfinishSeries: SeriesKey,
  setSeriesUrl: z.strictObject({ site: SiteKey, seriesId: SeriesId, url: HttpUrl }),
  addBookmark: z.strictObject({ readerId, url: HttpUrl, status: z.enum(BOOKMARK_STATUSES).optional() }),
  removeBookmark: z.strictObject({ readerId, site: SiteKey, seriesId: StoredSeriesId }),
  addReader: z.strictObject({ name: z.string().trim().min(1).max(40) }),
  rotateReaderToken: z.strictObject({ readerId }),
  /** A device name is optional: `Device N` when none is given. */
  addReaderDevice: z.strictObject({ readerId, name: z.string().trim().max(40).optional() }),
  endReaderDevice: z.strictObject({ readerId, deviceId: z.number().int().positive() }),
  removeReader: z.strictObject({ readerId }),
  updateSettings: SettingsSchema.partial().strict(),
  startImport: z
    .strictObject({
      /** The Reader every bookmark goes to; absent only for an export document (each Reader it names). */
      readerId: readerId.optional(),
      file: importFile,
    })
    .refine((i) => (i.file.text === undefined) !== (i.file.base64 === undefined), { message: 'give the file as text or as base64' }),
  importJob: z.strictObject({ jobId }),
  mapImportSource: z
    .strictObject({ jobId, sourceId, site: SiteKey.optional(), url: HttpUrl.optional() })
    .refine((i) => (i.site === undefined) !== (i.url === undefined), { message: 'give a Site, or one URL of the source' }),
  confirmImport: z.strictObject({ jobId }),
  cancelImport: z.strictObject({ jobId }),
  exportLibrary: none,
  proposeSite: z.strictObject({ url: HttpUrl }),
  addSite: z.strictObject({
    proposalId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'a proposal id from proposeSite'),
    key: SiteKey.optional(),
    name: z.string().trim().min(1).max(80).optional(),
  }),
  backupNow: none,
  backups: none,
  /** A file `backups` listed: its full path, as listed. */
  restoreBackup: z.strictObject({
    file: z
      .string()
      .min(1)
      .max(4_096)
      .regex(/manga-bookmark-[0-9T-]+Z\.sqlite$/, 'a backup file as listed'),
  }),
  notifications: none,
  /** The owner's channels (the whole library's New Chapters), replaced as a list, as a Reader's are. */
  setNotificationChannels: z.strictObject({ channels: z.array(ChannelInput).max(10) }),
  testNotifications: none,
  /** The Sites, each with whether it can be searched by title (docs/adr/0145-…). */
  searchSites: none,
  /** One title search of a Site: a request on its Lane. */
  searchSite: z.strictObject({ site: SiteKey, query: SearchQueryText }),
  /** Gone Series found again at another URL, waiting for the owner (docs/adr/0147-…). */
  foundAgain: none,
  acceptFoundAgain: z.strictObject({ site: SiteKey, seriesId: StoredSeriesId }),
  dismissFoundAgain: z.strictObject({ site: SiteKey, seriesId: StoredSeriesId }),
} as const satisfies Record<AdminMethodName, ZodType>

export type AdminMethod = keyof typeof ADMIN_INPUTS
export const ADMIN_METHODS: readonly AdminMethod[] = METHOD_NAMES
export type AdminInput<M extends AdminMethod> = z.input<(typeof ADMIN_INPUTS)[M]>

export interface SeriesRowView {
  site: string
  siteName: string
  seriesId: string
  title: string
  url: string
  latestChapter: number | null
  latestChapterLabel: string
  latestChapterUrl: string
  latestSource: '' | 'check' | 'sighting'
  latestChangedAt: number
  latestCheckedAt: number
  forcePollAt: number
  /** force_poll_at > latest_checked_at — derived. */
  pending: boolean
  finishedAt: number
  readerCount: number
  /** The last check's outcome ('' before the first check), why it was not a chapter, and when. */
  lastOutcome: CheckOutcomeView
  lastError: string
  lastOutcomeAt: number
  /** What the Series waits for now, from its Lane's row and its Site's pace (docs/adr/0055-series-say-why.md). */
  waiting: SeriesWaitingView
  /**
   * An adaptive Site's Series (docs/adr/0014-freshness-per-request.md): the release rhythm the app believes in
   * ("weekly, Tuesdays ~15:00 UTC", "no rhythm yet — checked every hour, less often while it stays silent (at most every 2 hours)"); absent on a fixed Site.
   */
  rhythm?: string
  /** An adaptive Site's Series: when its next check is planned (0 = none yet: a rest after its check). */
  plannedCheckAt?: number
  /** Its page answered 404/410 on GONE_AFTER_CHECKS checks in a row or more (docs/adr/0113-a-series-whose-page-is-gone.md). */
  gone?: GoneFacts
}

/** A check's outcome (docs/design.md#fetch-outcomes); '' for a Series never checked. */
export type CheckOutcomeView = '' | 'chapter' | 'no-chapter' | 'refused' | 'unreachable' | 'unfetchable' | 'error'

export interface SeriesPage {
  /** Every Series that matches; absent when the caller asked for no count. */
  total?: number
  offset: number
  rows: SeriesRowView[]
  /** Pass as `after` for the page that follows; absent when this page is not full. */
  next?: string
}

export type OverviewCountsView = OverviewCounts & {
  /** Series whose Latest Chapter moved forward within NEW_CHAPTER_MS (the `new` filter). */
  newChapters: number
}

/** One New Chapter on the Updates page. */
export interface UpdateView {
  id: number
  site: string
  siteName: string
  seriesId: string
  title: string
  chapter: number
  label: string
  /** The chapter the Series had before. */
  previous: number
  at: number
  /** The chapter's link on its Site, from the stored list ('' when the app has none for it). */
  url: string
}

/** A Series whose next chapter is expected within the week (an adaptive Site's rhythm). */
export interface UpcomingView {
  site: string
  siteName: string
  seriesId: string
  title: string
  expectedAt: number
  /** Whether the hour is known, else only the day. */
  timeKnown: boolean
}

export interface UpdatesView {
  items: UpdateView[]
  /** On the first page: what is expected in the next 7 days, soonest first. */
  upcoming?: UpcomingView[]
  /** Pass as `before` for the page that follows; absent on the last page. */
  next?: number
}

export interface PassView {
  id: number
  startedAt: number
  endedAt: number
  skip: string
  due: number
  gap: number
  clamped: boolean
  checked: number
  refused: number
  unreachable: number
  noChapter: number
  unfetchable: number
  errors: number
  /**
   * checked − refused − no_chapter − unfetchable − errors — derived, never stored. 0 for a skipped pass,
   * whose due, gap and checked are carried forward from the pass before.
   */
  success: number
}

export interface LaneView {
  site: string
  name: string
  fetcher: 'http' | 'browser'
  pausedUntil: number
  refuseUntil: number
  latestPass: PassView | null
  pace: { restMs: number; maxPassMs: number; maxGapMs: number; idleRequeryMs: number }
  /** Oldest first, for the chart (only from `lanes()`). */
  recent?: PassView[]
  /** Why the Site's latest failed checks failed, newest first (only from `lanes()`). */
  recentFailures?: CheckFailureView[]
  /** The Site's pin today. */
  hosts?: string[]
  /**
   * Its pages answered with a permanent redirect to another host: the move proposed to the owner, until they
   * accept (the host becomes the first of the pin) or dismiss it (docs/adr/0112-a-permanent-redirect-is-a-proposal.md).
   */
  move?: SiteMoveView
  /**
   * A Site whose selectors were derived from its extension's code and no check of it has read a chapter yet:
   * the words the owner reads ("untried — derived from the extension's selectors"; docs/adr/0160).
   */
  untried?: string
  /** Its Site's updates page, when its Lane reads one (an adaptive Site whose family has one; ADR 0165, 0200). */
  feed?: FeedView
}

export interface SiteMoveView {
  /** Where to: scheme://host[:port]. */
  toOrigin: string
  toHost: string
  /** The URL that answered with the redirect. */
  fromUrl: string
  seenAt: number
}

/** One Series whose last check was not a chapter, and why. */
export interface CheckFailureView {
  seriesId: string
  title: string
  outcome: Exclude<CheckOutcomeView, '' | 'chapter'>
  reason: string
  at: number
}

/** What keeps the store from taking writes (docs/adr/0045-storage-faults.md). */
export type StorageProblemKind = 'full' | 'read-only' | 'io' | 'damaged' | 'deleted' | 'moved' | 'replaced'

/** A backup file in `<data>/backups/`. */
export interface BackupView {
  file: string
  /** When it was made (wall clock). */
  at: number
  bytes: number
}

/** A backup with what `integrity_check` said of it (Settings → Backups). */
export interface CheckedBackupView extends BackupView {
  /** True when `integrity_check` said `ok`. */
  ok: boolean
  /** What it found, or why it could not run; empty when ok. */
  problems: string[]
  /** True when it is sound but holds no Reader and no Series: restoring it empties the library. */
  empty: boolean
}

/** What a restore did: the backup now in use, and where the file it replaced was kept (never deleted). */
export interface RestoredView {
  from: string
  file: string
  aside: string[]
  /** What vetting the copy changed (schema objects the migrations did not make, URLs off their Site's pin). */
  changed: string[]
  storage: StorageView
}

/** The database file, whether it takes writes, and its backups. */
export interface StorageView {
  file: string
  /**
   * `cannot write to <file>: disk full` and since when; null while writes are stored. `action` is the one thing
   * that fixes it, for the owner (free space; make the file writable; restore the newest good backup…).
   */
  problem: { kind: StorageProblemKind; message: string; since: number; action: string } | null
  /**
   * A new, empty database was made at this start while backups exist (the file was deleted or moved away): how
   * many, and the newest. Null otherwise.
   */
  madeEmpty: { backups: number; newest: BackupView } | null
  /** Why the log file cannot be written (the Overview says so), or null. */
  logProblem: string | null
  /** The newest backup, or null when there is none. */
  lastBackup: BackupView | null
  /** Why the latest backup attempt failed; null when it did not. */
  backupProblem: string | null
}

export interface OverviewView {
  now: number
  counts: OverviewCountsView
  lanes: LaneView[]
  /** Problems in sites.json (file, site, field). */
  siteProblems: string[]
  storage: StorageView
}

export interface ReaderView {
  id: number
  name: string
  createdAt: number
  bookmarks: number
  /** The devices the Reader signed in on, oldest first, each with a token of its own (docs/adr/0126-devices-not-tokens.md). */
  devices: ReaderDeviceView[]
}

export interface ReaderDeviceView {
  id: number
  name: string
  createdAt: number
  /** The last request with its token, to the minute; 0: never used yet. */
  lastSeenAt: number
}

export interface IssuedTokenView {
  reader: ReaderView
  /** Set when the token is for one more device of the Reader (Add a device): the Reader's other devices keep theirs. */
  device?: ReaderDeviceView
  /** Shown once. */
  token: string
  /** Where the Reader opens the Readers' page, and that address with the token, to scan (docs/adr/0057-sign-in-by-scanning.md). */
  address: ReaderAddressView
}

export interface ReaderAddressView {
  /** The Readers' page, e.g. http://192.168.1.20:4711/ — this machine's LAN address when the endpoint is bound to it. */
  url: string
  /**
   * The same with a one-time sign-in code in its fragment (never sent as part of the address): opening it within
   * 10 minutes signs the Reader in once; the page exchanges the code for the token (docs/adr/0087).
   */
  signInUrl: string
  /** Whether another device can reach it (the endpoint listens on the local network). */
  reachableFromOtherDevices: boolean
}

export interface SeriesDetailView {
  row: SeriesRowView
  /** The cover the app keeps for the Series, as a `data:` URL of its sniffed type; absent when none is kept. */
  cover?: string
  readers: Array<{ readerId: number; name: string; status: string; progress: number | null; progressAt: number }>
  sightings: Array<{
    id: number
    readerName: string
    chapter: number
    sightedAt: number
    verdict: '' | 'confirmed' | 'suspicious'
    judgedAt: number
  }>
  history: Array<{ chapter: number; label: string; source: 'check' | 'sighting' | 'correction'; at: number }>
  /** The stored chapter list, newest first (docs/adr/0072-chapter-lists-kept-in-a-window.md), the newest 200 at most. */
  chapters: Array<{
    number: number
    label: string
    url: string
    /** When the Site says it came out (0: no date on the page). */
    releasedAt: number
    firstSeenAt: number
    /** Came as a New Chapter (not on the list when the app first read it). */
    arrived: boolean
    /** When a check no longer found it on the Site (0: still there). */
    vanishedAt: number
  }>
}

export interface SettingsView {
  settings: Settings
  /** Where the sync endpoint is listening now (a changed bind or port applies at once). */
  listening: string
  /** The Readers' page as another device opens it (this machine's LAN address when the endpoint listens on it). */
  readersPage: { url: string; reachableFromOtherDevices: boolean }
  shell: 'electron' | 'headless'
  /** The database file and its backups ("Back up now"). */
  storage: StorageView
  /** `MB_LOG_LEVEL` is set: it decides the log level, not the setting. */
  logLevelFromEnvironment: boolean
  /**
   * Channels that reach this machine or the local network (by their address as written): what "Public addresses
   * only" would stop, said before the owner switches to it. `reader` null is the owner's own.
   */
  localChannels?: Array<{ reader: string | null; kind: ChannelKind; url: string; why: string }>
  /** How many Readers get Web Push: the owner is asked for a contact for push services once one does. */
  webPushReaders?: number
}

/** Per Site, what an import would do (or did). */
export interface ImportSiteView {
  site: string
  name: string
  /** Bookmarks that will be added. */
  add: number
  /** Bookmarks the Reader already holds (left as they are, but for a later Progress). */
  present: number
  /** Present bookmarks whose Progress the import's later write moves. */
  progress: number
  /** Series new to the app. */
  newSeries: number
  /** Entries on this Site's host that are skipped (not a Series URL, duplicates). */
  skipped: number
}

/** A backup source in an import preview. */
export interface ImportSourceView extends SourceSummary {
  sourceId: string
  moved: Array<{ from: string; to: string; count: number }>
}

export interface ImportPreviewView {
  fileName: string
  format: ImportFormat
  /** The Reader the bookmarks go to; null: the Readers an export document names. */
  reader: { id: number; name: string } | null
  /** Links, lines, rows or manga read from the file. */
  entries: number
  sites: ImportSiteView[]
  skipped: Array<{ reason: ImportSkipReason; count: number; examples: string[] }>
  /** Backup sources with no Site, each once, for the owner to map. */
  unknownSources: Array<{ sourceId: string; name: string; count: number; example: string }>
  /**
   * Every backup source the file names (Mihon and Tachiyomi backups), the commonest first: how many entries,
   * what happens to them, and the addresses read on a Site's current domain ("moved"). Words:
   * `sourceSummaryWords` (src/shared/library.ts).
   */
  sources: ImportSourceView[]
  /** The hosts of skipped links that no Site has, most frequent first (at most 10). */
  unknownHosts: Array<{ host: string; count: number; /** What the Known Sites table knows of it, for a person. */ known?: string }>
  /**
   * Known Sites the backup's sources name that the app does not run yet, added when the owner confirms
   * ("adds 9 Sites: Asura Scans (MangaThemesia), …"); `family` is the family's name for a person.
   */
  sitesToAdd: Array<{ key: string; name: string; family: string; host: string; count: number }>
  /** Remembered mappings this import uses. */
  mappings: Array<{ sourceId: string; sourceName: string; site: string; siteName: string; origin: string }>
  /** Readers an export document names that do not exist yet (created, each with a token shown once). */
  readersToCreate: string[]
  /** Every Site a source can be mapped to. */
  siteChoices: Array<{ site: string; name: string }>
  totals: { add: number; present: number; progress: number; newSeries: number; skipped: number }
}

export interface ImportResultView {
  seriesAdded: number
  bookmarksAdded: number
  bookmarksPresent: number
  progressUpdated: number
  /** Lanes a restored export document paused again, as they were paused when it was written. Absent: none. */
  lanesPaused?: number
  skipped: number
  /** Readers the import created, each with a token — shown once. */
  readersCreated: Array<{ name: string; token: string }>
  /** How long the write took. */
  ms: number
}

export const IMPORT_PHASES = ['reading', 'previewed', 'writing', 'done', 'failed'] as const
export type ImportPhase = (typeof IMPORT_PHASES)[number]

/** An import in the window: read and previewed, then confirmed and written. Poll `importJob` for progress. */
export interface ImportJobView {
  id: string
  phase: ImportPhase
  /** Progress of the phase: manga decoded while reading, rows written while writing (total 0: unknown). */
  done: number
  total: number
  preview: ImportPreviewView | null
  result: ImportResultView | null
  error: string | null
}

/** A gone Series found by its title at another URL of its Site: "Found 'X' at … — move it?" (docs/adr/0147-…). */
export interface FoundAgainView {
  site: string
  siteName: string
  seriesId: string
  title: string
  fromUrl: string
  toUrl: string
  toTitle: string
  foundAt: number
}

export interface AdminApi {
  overview(input?: AdminInput<'overview'>): Promise<OverviewView>
  listSeries(input: AdminInput<'listSeries'>): Promise<SeriesPage>
  seriesDetail(input: AdminInput<'seriesDetail'>): Promise<SeriesDetailView>
  /** What arrived: New Chapters across every Series, newest first. */
  updates(input?: AdminInput<'updates'>): Promise<UpdatesView>
  lanes(input?: AdminInput<'lanes'>): Promise<LaneView[]>
  readers(input?: AdminInput<'readers'>): Promise<ReaderView[]>
  settings(input?: AdminInput<'settings'>): Promise<SettingsView>
  /** Check now: stamps force_poll_at; answers with the freshly read row. */
  forceSeriesPoll(input: AdminInput<'forceSeriesPoll'>): Promise<SeriesRowView>
  pauseLane(input: AdminInput<'pauseLane'>): Promise<LaneView>
  resumeLane(input: AdminInput<'resumeLane'>): Promise<LaneView>
  /** Moves the Site's pin to the host its pages moved to (sites.json and the running Site); answers the Lane. */
  acceptSiteMove(input: AdminInput<'acceptSiteMove'>): Promise<LaneView>
  /** Leaves the pin; the same move is not proposed again. */
  dismissSiteMove(input: AdminInput<'dismissSiteMove'>): Promise<LaneView>
  finishSeries(input: AdminInput<'finishSeries'>): Promise<SeriesRowView>
  unfinishSeries(input: AdminInput<'unfinishSeries'>): Promise<SeriesRowView>
  /** Host-pinned: the URL must belong to the Series' Site. */
  setSeriesUrl(input: AdminInput<'setSeriesUrl'>): Promise<SeriesRowView>
  addBookmark(input: AdminInput<'addBookmark'>): Promise<SeriesRowView>
  removeBookmark(input: AdminInput<'removeBookmark'>): Promise<SeriesDetailView>
  addReader(input: AdminInput<'addReader'>): Promise<IssuedTokenView>
  rotateReaderToken(input: AdminInput<'rotateReaderToken'>): Promise<IssuedTokenView>
  /** A one-time sign-in (token, address, QR code) for one more device of the Reader; their other devices keep working. */
  addReaderDevice(input: AdminInput<'addReaderDevice'>): Promise<IssuedTokenView>
  /** Ends one device of a Reader (its token stops working at once); the Readers, as `readers` answers. */
  endReaderDevice(input: AdminInput<'endReaderDevice'>): Promise<ReaderView[]>
  removeReader(input: AdminInput<'removeReader'>): Promise<ReaderView[]>
  updateSettings(input: AdminInput<'updateSettings'>): Promise<SettingsView>
  /** Reads a file and previews its import; nothing is written until `confirmImport`. Sends no request. */
  startImport(input: AdminInput<'startImport'>): Promise<ImportJobView>
  importJob(input: AdminInput<'importJob'>): Promise<ImportJobView>
  /** Maps a backup source to a Site (remembered for the next import) and previews again. */
  mapImportSource(input: AdminInput<'mapImportSource'>): Promise<ImportJobView>
  /** Writes the previewed import in one transaction. Sends no request: the new Series are due for the Lanes. */
  confirmImport(input: AdminInput<'confirmImport'>): Promise<ImportJobView>
  cancelImport(input: AdminInput<'cancelImport'>): Promise<null>
  /** The whole library as one export document (docs/export-format.md) — never a token. */
  exportLibrary(input?: AdminInput<'exportLibrary'>): Promise<ExportDocument>
  /** Makes a backup into `<data>/backups/` now (SQLite's online backup); answers with the storage block. */
  backupNow(input?: AdminInput<'backupNow'>): Promise<StorageView>
  /** The backups, newest first, each with its `integrity_check` verdict (each file checked once, off the main thread). */
  backups(input?: AdminInput<'backups'>): Promise<CheckedBackupView[]>
  /**
   * Restores a listed backup over the database while the app runs: verified, the current file and its journal
   * kept aside, the copy renamed into place, the store reopened on it and the Lanes started again.
   */
  restoreBackup(input: AdminInput<'restoreBackup'>): Promise<RestoredView>
  /** Add a Site, step one: reads one Series URL of an unknown site and proposes a sites.json entry. Writes nothing. */
  proposeSite(input: AdminInput<'proposeSite'>): Promise<SiteProposalView>
  /** Add a Site, step two: writes the proposed entry to sites.json and starts its Lane, without a restart. */
  addSite(input: AdminInput<'addSite'>): Promise<AddedSiteView>
  /** The owner's channels and the failing ones of everyone (docs/adr/0074-…). */
  notifications(input?: AdminInput<'notifications'>): Promise<NotificationsAdminView>
  setNotificationChannels(input: AdminInput<'setNotificationChannels'>): Promise<NotificationsAdminView>
  /** Sends a test message to each of the owner's channels now. */
  testNotifications(input?: AdminInput<'testNotifications'>): Promise<NotificationTestView>
  searchSites(input?: AdminInput<'searchSites'>): Promise<SearchableSiteView[]>
  /** Searches a Site by title: one request, taking its turn on the Site's Lane; `following`: the household has it. */
  searchSite(input: AdminInput<'searchSite'>): Promise<SearchResponse>
  foundAgain(input?: AdminInput<'foundAgain'>): Promise<FoundAgainView[]>
  /** Moves the Series to where it was found (its progress and history stay); answers the proposals left. */
  acceptFoundAgain(input: AdminInput<'acceptFoundAgain'>): Promise<FoundAgainView[]>
  /** Leaves the Series where it is; the same URL is not offered again. */
  dismissFoundAgain(input: AdminInput<'dismissFoundAgain'>): Promise<FoundAgainView[]>
}

/** The owner's notification channels, and every channel (the owner's or a Reader's) that keeps failing. */
export interface NotificationsAdminView {
  channels: ChannelView[]
  failing: Array<{ reader: string | null; channel: ChannelView }>
  /** Settings → Notification targets. */
  targets: 'public' | 'local-network'
}

export interface NotificationTestView {
  results: Array<{ channelId: number; kind: ChannelView['kind']; ok: boolean; error?: string }>
}

/** What the app read from a pasted URL: a proposed Site and what its Lane would read, or why it cannot. */
export type SiteProposalView =
  | {
      ok: true
      /** Confirm with this id (proposals are kept for 30 minutes). */
      id: string
      /** The sites.json entry that would be written. */
      entry: { key: string; name?: string; hosts: string[]; fetcher?: 'http' | 'browser'; family?: string; [field: string]: unknown }
      /** How the app recognised the Site, in words. */
      recognisedBy: string
      /** The Series' own page. */
      seriesUrl: string
      preview: { title?: string; chapters: Array<{ number: number; label: string; url: string }>; chapterCount: number }
    }
  | { ok: false; reason: string }

export interface AddedSiteView {
  lane: LaneView
  /** The Series the owner pasted: bookmark it for a Reader at once. */
  seriesUrl: string
}

/** What a transport carries back: the value, or an error with a code the renderer can show. */
export type AdminResult<T> = { ok: true; value: T } | { ok: false; error: ErrorBody }

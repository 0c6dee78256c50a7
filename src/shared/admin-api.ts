/**
 * The owner's admin contract (docs/design.md#the-admin-contract): one interface, written once. The core implements it; the
 * preload exposes it over IPC as named functions built from its keys; the headless shell maps it to one RPC
 * route per method; the renderer sees one typed client. Reads, and writes that change rows — nothing here
 * commands a Lane (docs/adr/0001). Every method takes one input object, validated by its schema below.
 */
import { z, type ZodType } from 'zod'
import { ADMIN_METHODS as METHOD_NAMES, type AdminMethodName } from './admin-methods'
import { SettingsSchema, type Settings } from './settings'
import { BOOKMARK_STATUSES, PAUSE_DURATIONS, SERIES_FILTERS, type OverviewCounts, type PauseDuration } from './domain'
import { HttpUrl, SeriesId, SiteKey } from './ids'

export { SERIES_FILTERS, type SeriesFilter } from './domain'
import type { ErrorBody } from './errors'

const readerId = z.number().int().positive()
export { PAUSE_DURATIONS, type PauseDuration } from './domain'

const SeriesKey = z.strictObject({ site: SiteKey, seriesId: SeriesId })
const none = z.strictObject({}).optional()

/** The schema of every method's input, by method name. */
export const ADMIN_INPUTS = {
  overview: none,
  listSeries: z.strictObject({
    filter: z.enum(SERIES_FILTERS).optional(),
    site: SiteKey.optional(),
    search: z.string().max(200).optional(),
    offset: z.number().int().min(0).max(10_000_000).default(0),
    limit: z.number().int().min(1).max(500).default(100),
  }),
  seriesDetail: SeriesKey,
  lanes: none,
  readers: none,
  settings: none,
  forceSeriesPoll: SeriesKey,
  pauseLane: z.strictObject({ site: SiteKey, duration: z.enum(Object.keys(PAUSE_DURATIONS) as [PauseDuration, ...PauseDuration[]]) }),
  resumeLane: z.strictObject({ site: SiteKey }),
  finishSeries: SeriesKey,
  unfinishSeries: SeriesKey,
  setSeriesUrl: z.strictObject({ site: SiteKey, seriesId: SeriesId, url: HttpUrl }),
  addBookmark: z.strictObject({ readerId, url: HttpUrl, status: z.enum(BOOKMARK_STATUSES).optional() }),
  removeBookmark: z.strictObject({ readerId, site: SiteKey, seriesId: SeriesId }),
  addReader: z.strictObject({ name: z.string().trim().min(1).max(40) }),
  rotateReaderToken: z.strictObject({ readerId }),
  removeReader: z.strictObject({ readerId }),
  updateSettings: SettingsSchema.partial().strict(),
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
}

/** A check's outcome (docs/design.md#fetch-outcomes); '' for a Series never checked. */
export type CheckOutcomeView = '' | 'chapter' | 'no-chapter' | 'refused' | 'unreachable' | 'unfetchable' | 'error'

export interface SeriesPage {
  total: number
  offset: number
  rows: SeriesRowView[]
}

export type OverviewCountsView = OverviewCounts

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
}

/** One Series whose last check was not a chapter, and why. */
export interface CheckFailureView {
  seriesId: string
  title: string
  outcome: Exclude<CheckOutcomeView, '' | 'chapter'>
  reason: string
  at: number
}

export interface OverviewView {
  now: number
  counts: OverviewCountsView
  lanes: LaneView[]
  /** Problems in sites.json (file, site, field). */
  siteProblems: string[]
}

export interface ReaderView {
  id: number
  name: string
  createdAt: number
  bookmarks: number
}

export interface IssuedTokenView {
  reader: ReaderView
  /** Shown once. */
  token: string
}

export interface SeriesDetailView {
  row: SeriesRowView
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
}

export interface SettingsView {
  settings: Settings
  /** Where the sync endpoint is listening now (a changed bind or port applies at the next start). */
  listening: string
  shell: 'electron' | 'headless'
}

export interface AdminApi {
  overview(input?: AdminInput<'overview'>): Promise<OverviewView>
  listSeries(input: AdminInput<'listSeries'>): Promise<SeriesPage>
  seriesDetail(input: AdminInput<'seriesDetail'>): Promise<SeriesDetailView>
  lanes(input?: AdminInput<'lanes'>): Promise<LaneView[]>
  readers(input?: AdminInput<'readers'>): Promise<ReaderView[]>
  settings(input?: AdminInput<'settings'>): Promise<SettingsView>
  /** Check now: stamps force_poll_at; answers with the freshly read row. */
  forceSeriesPoll(input: AdminInput<'forceSeriesPoll'>): Promise<SeriesRowView>
  pauseLane(input: AdminInput<'pauseLane'>): Promise<LaneView>
  resumeLane(input: AdminInput<'resumeLane'>): Promise<LaneView>
  finishSeries(input: AdminInput<'finishSeries'>): Promise<SeriesRowView>
  unfinishSeries(input: AdminInput<'unfinishSeries'>): Promise<SeriesRowView>
  /** Host-pinned: the URL must belong to the Series' Site. */
  setSeriesUrl(input: AdminInput<'setSeriesUrl'>): Promise<SeriesRowView>
  addBookmark(input: AdminInput<'addBookmark'>): Promise<SeriesRowView>
  removeBookmark(input: AdminInput<'removeBookmark'>): Promise<SeriesDetailView>
  addReader(input: AdminInput<'addReader'>): Promise<IssuedTokenView>
  rotateReaderToken(input: AdminInput<'rotateReaderToken'>): Promise<IssuedTokenView>
  removeReader(input: AdminInput<'removeReader'>): Promise<ReaderView[]>
  updateSettings(input: AdminInput<'updateSettings'>): Promise<SettingsView>
}

/** What a transport carries back: the value, or an error with a code the renderer can show. */
export type AdminResult<T> = { ok: true; value: T } | { ok: false; error: ErrorBody }

/**
 * The admin contract's views of stored rows (src/shared/admin-api.ts): a Series row, a Lane with its passes and
 * failed checks, the store and its backups. Shared by the admin operations, the tray and the Electron shell.
 */
import type { CheckFailureView, LaneView, PassView, SeriesRowView, StorageView } from '../../shared/admin-api'
import type { FeedView } from '../../shared/feed-words'
import type { FeedStatus } from '../lanes/feed'
import { isGone, type GoneFacts, type SeriesWaitingView } from '../../shared/series-state'
import type { Core } from '../core'
import { cadenceWords } from '../lanes/cadence'
import { logProblem } from '../log'
import { DERIVED_WORDS, isDerivedSite } from '../sites/known-sites'
import { DEFAULT_PACE, type Site } from '../sites/site'
import { allLanes } from '../store/lanes'
import { latestPassPerSite, recentPasses } from '../store/passes'
import type { LaneRow, PassRow, SiteMoveRow } from '../store/schema'
import { pendingSiteMoves } from '../store/site-moves'
import { recentFailures, type SeriesListRow } from '../store/series-list'

/** How many recent passes the Lanes page charts. */
export const CHART_PASSES = 60
/** How many of a Site's failed checks the Lanes page explains. */
const FAILURES_SHOWN = 5

/** Whether the store takes writes, and the backups: what the Overview, the Settings and the tray say of them. */
export function storageViewOf(core: Core): StorageView {
  return {
    file: core.store.file,
    problem: core.storage.problem(),
    madeEmpty: core.madeEmpty(),
    logProblem: logProblem(core.log),
    ...core.backups.state(),
  }
}

/**
 * One line per running Lane: its row, its latest pass and, with history, its recent passes and failed checks.
 * What the Overview, the Lanes page and the tray show (the tray reads only this, never the counts).
 */
export async function laneViews(core: Core, withHistory = false): Promise<LaneView[]> {
  const db = core.store.db
  const [lanes, latest, moves, tried] = await Promise.all([
    allLanes(db),
    latestPassPerSite(db),
    pendingSiteMoves(db),
    sitesThatReadAChapter(db),
  ])
  const bySite = new Map(latest.map((p) => [p.site, p]))
  const moveOf = new Map(moves.map((m) => [m.site, m]))
  // Lanes of Sites that are no longer configured are left out: nothing runs them.
  const known = lanes.filter((l) => core.registry.get(l.site))
  return Promise.all(
    known.map(async (l) =>
      withHistory
        ? laneView(
            core,
            l,
            bySite.get(l.site),
            await recentPasses(db, l.site, CHART_PASSES),
            await recentFailures(db, l.site, FAILURES_SHOWN),
            moveOf.get(l.site),
            tried,
          )
        : laneView(core, l, bySite.get(l.site), undefined, undefined, moveOf.get(l.site), tried),
    ),
  )
}

/** The Sites some Series of which a check last read a chapter on. */
async function sitesThatReadAChapter(db: Core['store']['db']): Promise<Set<string>> {
  const rows = await db.selectFrom('series').select('site').distinct().where('last_outcome', '=', 'chapter').execute()
  return new Set(rows.map((r) => r.site))
}

/** A derived Site no check has read a chapter on yet (docs/adr/0160-derived-selector-entries.md). */
export function isUntried(site: Site | undefined, tried: ReadonlySet<string> | undefined): boolean {
  const recipe = site?.adapter.recipe
  if (!site || !tried || tried.has(site.key) || !recipe || !('selectors' in recipe)) return false
  return isDerivedSite(site.hosts, recipe.selectors)
}

export function laneView(
  core: Core,
  lane: LaneRow,
  latest: PassRow | undefined,
  recent?: PassRow[],
  failures?: Awaited<ReturnType<typeof recentFailures>>,
  move?: SiteMoveRow,
  tried?: ReadonlySet<string>,
): LaneView {
  const site = core.registry.get(lane.site)
  const pace = site?.pace ?? DEFAULT_PACE
  return {
    site: lane.site,
    name: site?.name ?? lane.site,
    fetcher: site?.fetcher ?? 'http',
    pausedUntil: lane.paused_until,
    refuseUntil: lane.refuse_until,
    latestPass: latest ? passView(latest) : null,
    pace: { restMs: pace.restMs, maxPassMs: pace.maxPassMs, maxGapMs: pace.maxGapMs, idleRequeryMs: pace.idleRequeryMs },
    recent: recent?.map(passView).reverse(),
    recentFailures: failures?.map((f) => ({
      seriesId: f.series_id,
      title: f.title,
      outcome: f.last_outcome as CheckFailureView['outcome'],
      reason: f.last_error,
      at: f.last_outcome_at,
    })),
    ...(recent && site ? { hosts: [...site.hosts] } : {}),
    ...(isUntried(site, tried) ? { untried: DERIVED_WORDS } : {}),
    ...feedView(core.feeds.get(lane.site)),
    ...(move
      ? { move: { toOrigin: move.to_origin, toHost: new URL(move.to_origin).host, fromUrl: move.from_url, seenAt: move.seen_at } }
      : {}),
  }
}

/** The Lane's updates page as the owner reads it (none for a Site whose Lane reads none). */
export function feedView(status: FeedStatus | undefined): { feed?: FeedView } {
  if (!status) return {}
  const { state, reason, lastReadAt, entries, nextReadAt } = status
  return { feed: { state, reason, lastReadAt, entries, nextReadAt } }
}

export function seriesRowView(r: SeriesListRow, site: Site | undefined, waiting: SeriesWaitingView): SeriesRowView {
  return {
    site: r.site,
    siteName: site?.name ?? r.site,
    seriesId: r.series_id,
    title: r.title,
    url: r.series_url,
    latestChapter: r.latest_chapter,
    latestChapterLabel: r.latest_chapter_label,
    latestChapterUrl: r.latest_chapter_url,
    latestSource: r.latest_source,
    latestChangedAt: r.latest_changed_at,
    latestCheckedAt: r.latest_checked_at,
    forcePollAt: r.force_poll_at,
    pending: r.pending,
    finishedAt: r.finished_at,
    readerCount: r.reader_count,
    lastOutcome: r.last_outcome,
    lastError: r.last_error,
    lastOutcomeAt: r.last_outcome_at,
    waiting,
    ...(site?.pace.cadence === 'adaptive' ? { rhythm: cadenceWords(r, site.pace.restMs), plannedCheckAt: r.next_check_at } : {}),
    ...goneOf(r),
  }
}

/** A Series' run of "gone" answers, when it is long enough to tell (docs/adr/0113-a-series-whose-page-is-gone.md). */
export function goneOf(r: Pick<SeriesListRow, 'gone_checks' | 'gone_since' | 'gone_status'>): { gone?: GoneFacts } {
  const facts = { goneChecks: r.gone_checks, goneSince: r.gone_since, goneStatus: r.gone_status }
  return isGone(facts) ? { gone: facts } : {}
}

export function passView(p: PassRow): PassView {
  return {
    id: p.id,
    startedAt: p.started_at,
    endedAt: p.ended_at,
    skip: p.skip,
    due: p.due,
    gap: p.gap,
    clamped: p.clamped === 1,
    checked: p.checked,
    refused: p.refused,
    unreachable: p.unreachable,
    noChapter: p.no_chapter,
    unfetchable: p.unfetchable,
    errors: p.errors,
    // A skipped pass checked nothing itself: its `checked` is carried forward from the pass before.
    success: p.skip ? 0 : p.checked - p.refused - p.no_chapter - p.unfetchable - p.errors,
  }
}

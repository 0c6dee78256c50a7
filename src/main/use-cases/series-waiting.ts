/**
 * What each Series waits for now (docs/adr/0055-series-say-why.md), from its row, its Lane's row, its Site's pace,
 * whether a fetcher can read it and its Site's updates page: the owner's window and the Readers' page (issue 43,
 * docs/adr/0218-the-readers-next-check.md) read the same facts, worked out on the main thread.
 */
import { sql } from 'kysely'
import { seriesWaiting, type FeedState, type SeriesWaitingView } from '../../shared/series-state'
import type { ReaderCheckState, ReaderCheckView } from '../../shared/reader-checks'
import { fetcherFor, type Fetchers } from '../fetch/fetcher'
import type { FeedStatus } from '../lanes/feed'
import type { SiteRegistry } from '../sites/registry'
import type { Db } from '../store/database'
import { allLanes } from '../store/lanes'
import type { SeriesKey, SeriesRow } from '../store/schema'

export interface WaitingDeps {
  db: Db
  registry: Pick<SiteRegistry, 'get'>
  fetchers: Fetchers
  /** Each adaptive Site's updates page as its Lane last read it (absent: no Site reads one). */
  feeds?: ReadonlyMap<string, FeedStatus>
  now(): number
}

/** The row fields the waiting needs. */
export type WaitingRow = Pick<
  SeriesRow,
  'site' | 'series_url' | 'reader_count' | 'finished_at' | 'latest_checked_at' | 'latest_sighted_at' | 'next_check_at'
> & { pending: boolean }

/** What each Series waits for at `now`: every Lane's row is read once, for every Series asked about after. */
export async function waitingOf(deps: WaitingDeps): Promise<(row: WaitingRow) => SeriesWaitingView> {
  const lanes = new Map((await allLanes(deps.db)).map((l) => [l.site, l]))
  const at = deps.now()
  return (row) => {
    const site = deps.registry.get(row.site)
    const lane = lanes.get(row.site)
    return seriesWaiting(
      {
        url: row.series_url,
        readerCount: row.reader_count,
        finishedAt: row.finished_at,
        pending: row.pending,
        latestCheckedAt: row.latest_checked_at,
        latestSightedAt: row.latest_sighted_at,
        plannedAt: site?.pace.cadence === 'adaptive' ? row.next_check_at : 0,
      },
      {
        site: site && {
          restMs: site.pace.restMs,
          ceilingMs: site.pace.ceilingMs,
          hasFetcher: fetcherFor(site, deps.fetchers) !== undefined,
          ...feedFact(deps.feeds?.get(site.key)),
        },
        pausedUntil: lane?.paused_until ?? 0,
        refuseUntil: lane?.refuse_until ?? 0,
      },
      at,
    )
  }
}

/** A Site's updates page as the waiting line tells it: read, or not reading now (none before its first read). */
export function feedFact(status: FeedStatus | undefined): { feed?: FeedState } {
  if (status?.state === 'reading') return { feed: 'reading' }
  if (status?.state === 'broken') return { feed: 'broken' }
  return {}
}

/**
 * A Reader's bookmarks with what each Series waits for, in the Readers' contract (`GET /api/v1/checks`): at most
 * `limit`, in the order of their keys, after `after` — one range of the bookmarks' primary key, so every page costs
 * the same however far in (docs/adr/0234-the-checks-answer-in-pages.md). `next` is the last key when more follow.
 */
export async function readerChecks(
  deps: WaitingDeps,
  readerId: number,
  page: { limit: number; after?: SeriesKey },
): Promise<{ checks: ReaderCheckView[]; next?: SeriesKey }> {
  const after = page.after
  const rows = await deps.db
    .selectFrom('bookmarks as b')
    .innerJoin('series as s', (j) => j.onRef('s.site', '=', 'b.site').onRef('s.series_id', '=', 'b.series_id'))
    .select([
      's.site',
      's.series_id',
      's.series_url',
      's.reader_count',
      's.finished_at',
      's.latest_checked_at',
      's.latest_sighted_at',
      's.next_check_at',
      's.force_poll_at',
    ])
    .where('b.reader_id', '=', readerId)
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(b.site, b.series_id) > (${after!.site}, ${after!.seriesId})`))
    .orderBy('b.site')
    .orderBy('b.series_id')
    .limit(page.limit + 1)
    .execute()
  const more = rows.length > page.limit
  if (more) rows.length = page.limit
  const waiting = await waitingOf(deps)
  const checks = rows.map((row) => {
    const view = waiting({ ...row, pending: row.force_poll_at > row.latest_checked_at })
    return { site: row.site, seriesId: row.series_id, check: readerState(view, deps.registry.get(row.site)?.pace) }
  })
  const last = rows.at(-1)
  return more && last ? { checks, next: { site: last.site, seriesId: last.series_id } } : { checks }
}

/** The owner's waiting view in the Reader's terms: a planned check says why it comes when it does. */
function readerState(view: SeriesWaitingView, pace: { restMs: number; cadence: 'fixed' | 'adaptive' } | undefined): ReaderCheckState {
  if (view.kind !== 'next-check') return view
  const why = view.feed === 'reading' ? 'feed' : view.feed === 'broken' ? 'feed-broken' : pace?.cadence === 'adaptive' ? 'rhythm' : 'round'
  return { kind: 'next-check', at: view.at, why, everyMs: pace?.restMs ?? 0 }
}

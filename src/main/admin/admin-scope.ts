/**
 * What every group of admin operations shares: the core, the clock, the Sites, and the reads several groups answer
 * with (a Series row, a Lane, the store's state). Built once per `createAdmin`.
 */
import type { LaneView, SeriesRowView } from '../../shared/admin-api'
import type { SeriesWaitingView } from '../../shared/series-state'
import type { Settings } from '../../shared/settings'
import { AppError } from '../../shared/errors'
import type { Core } from '../core'
import type { BigReads } from '../reads/big-reads'
import { DEFAULT_PACE, type Site } from '../sites/site'
import { laneRow } from '../store/lanes'
import { getSeriesListRow, type SeriesListRow } from '../store/series-list'
import type { SignInCodes } from '../access/sign-in-codes'
import { waitingOf } from '../use-cases/series-waiting'
import { laneView, laneViews, seriesRowView, storageViewOf } from './admin-views'

export interface AdminContext {
  core: Core
  shell: 'electron' | 'headless'
  /** Where the sync endpoint listens now, e.g. http://127.0.0.1:4711. */
  listening(): string
  /**
   * Moves the sync endpoint to the bind and port the owner chose, at once (absent: a core without its HTTP
   * server). Throws, leaving it where it was, when the new address cannot be had.
   */
  moveSyncEndpoint?(bind: Settings['syncBind'], port: number | undefined): Promise<void>
  /**
   * One-time codes the Readers' page exchanges for a token (docs/adr/0087-sign-in-links-that-end.md): a new or
   * rotated token's sign-in link carries one. Absent (a core without its HTTP server): the link is the token's own.
   */
  readerCodes?: SignInCodes
  /** The library's export read off the main thread (docs/adr/0093-…); absent: read here. */
  bigReads?: Pick<BigReads, 'exportLibrary'>
}

export type AdminScope = ReturnType<typeof adminScope>

export function adminScope(ctx: AdminContext) {
  const { core } = ctx
  const db = core.store.db
  const now = () => core.clock.now()
  const siteOf = (key: string): Site | undefined => core.registry.get(key)
  // Each Site's own ceiling says when its checks are stale.
  const staleBefore = () => ({
    fallback: now() - DEFAULT_PACE.ceilingMs,
    bySite: Object.fromEntries(core.registry.sites.map((s) => [s.key, now() - s.pace.ceilingMs])),
  })

  /** What each Series waits for needs its Lane's row: read once per answer, for every Lane. */
  const waitingFor = (): Promise<(row: SeriesListRow) => SeriesWaitingView> =>
    waitingOf({ db, registry: core.registry, fetchers: core.fetchers, feeds: core.feeds, now })

  async function seriesRow(key: { site: string; seriesId: string }): Promise<SeriesRowView> {
    const found = await getSeriesListRow(db, key)
    if (!found) throw new AppError('not-found', `no Series ${key.site}/${key.seriesId}`)
    return seriesRowView(found, siteOf(found.site), (await waitingFor())(found))
  }

  async function oneLane(site: string): Promise<LaneView> {
    if (!siteOf(site)) throw new AppError('not-found', `no Site "${site}"`)
    const lanes = await laneViews(core, false)
    const found = lanes.find((l) => l.site === site)
    return found ?? laneView(core, await laneRow(db, site), undefined)
  }

  return {
    ctx,
    core,
    db,
    now,
    siteOf,
    staleBefore,
    waitingFor,
    seriesRow,
    oneLane,
    storageView: () => storageViewOf(core),
  }
}

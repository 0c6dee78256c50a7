/**
 * Acquisition (docs/design.md#the-lane-pass): a Reader bookmarks a Series by URL. The Site comes from the host pin; a new Series
 * is read at once — title and Latest Chapter — whatever the Lane's pause, still host-pinned and still
 * respecting a current refusal. It is a check like any other: it stamps `latest_checked_at` before its
 * fetch, so the acquired Series is not due again until its rest has passed.
 */
import type { Clock } from '../clock'
import type { BrowserHealth } from '../fetch/browser-health'
import { fetcherFor, type Fetchers } from '../fetch/fetcher'
import { checkSeries, type CheckReport } from '../lanes/check'
import type { Log } from '../log'
import { AppError } from '../../shared/errors'
import type { SiteRegistry } from '../sites/registry'
import { addBookmark, readerBookmarks, type ReaderBookmark } from '../store/bookmarks'
import type { Db } from '../store/database'
import { laneRow, recordRefusal } from '../store/lanes'
import type { BookmarkStatus } from '../store/schema'
import { addSeries, getSeries, setSeriesUrl } from '../store/series'

export interface AcquireDeps {
  db: Db
  registry: SiteRegistry
  fetchers: Fetchers
  health: BrowserHealth
  clock: Clock
  log: Log
}

export interface AcquireResult {
  bookmark: ReaderBookmark
  /** The bookmark did not exist before. */
  created: boolean
  /** The check made for a new Series; absent when none was made (known Series, or a refusing Site). */
  check?: CheckReport
}

/** Acquisitions of one Site run one at a time, so a burst of new bookmarks is not a burst of requests. */
const queues = new WeakMap<AcquireDeps, Map<string, Promise<unknown>>>()

export async function bookmarkByUrl(
  deps: AcquireDeps,
  input: { readerId: number; url: string; status?: BookmarkStatus },
): Promise<AcquireResult> {
  const match = deps.registry.resolve(input.url)
  if (!match) throw new AppError('off-pin', `not a Series URL on any known Site's host pin: ${truncate(input.url)}`)
  const { site, seriesId, seriesUrl } = match
  const key = { site: site.key, seriesId }
  const now = deps.clock.now()

  const existing = await getSeries(deps.db, key)
  if (!existing) await addSeries(deps.db, { ...key, seriesUrl, now })
  else if (!existing.series_url) await setSeriesUrl(deps.db, key, seriesUrl, now)
  const created = await addBookmark(deps.db, { ...key, readerId: input.readerId, status: input.status ?? 'reading', now })

  let check: CheckReport | undefined
  if (!existing) check = await serialised(deps, site.key, () => acquire(deps, key))
  const [bookmark] = await readerBookmarks(deps.db, input.readerId, { key })
  return { bookmark: bookmark!, created, ...(check ? { check } : {}) }
}

async function acquire(deps: AcquireDeps, key: { site: string; seriesId: string }): Promise<CheckReport | undefined> {
  const site = deps.registry.get(key.site)!
  const now = deps.clock.now()
  if ((await laneRow(deps.db, site.key)).refuse_until > now) {
    deps.log.info({ site: site.key, series: key.seriesId }, 'acquire: the Site is refusing; the Lane will read it after the backoff')
    return undefined
  }
  const series = (await getSeries(deps.db, key))!
  // Two first bookmarks of one new Series at once: the second finds it read already.
  if (series.latest_checked_at > 0) return undefined
  const report = await checkSeries(deps, site, fetcherFor(site, deps.fetchers), series)
  if (report.outcome === 'refused') await recordRefusal(deps.db, site.key, deps.clock.now() + site.pace.refusalBackoffMs)
  if (report.outcome === 'unreachable') deps.health.markDown(deps.clock.now())
  deps.log.info({ site: site.key, series: key.seriesId, outcome: report.outcome, reason: report.reason }, 'acquire: read a new Series')
  return report
}

function serialised<T>(deps: AcquireDeps, siteKey: string, task: () => Promise<T>): Promise<T> {
  let perSite = queues.get(deps)
  if (!perSite) queues.set(deps, (perSite = new Map()))
  const previous = perSite.get(siteKey) ?? Promise.resolve()
  const next = previous.then(task, task)
  perSite.set(
    siteKey,
    next.catch(() => undefined),
  )
  return next
}

function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s
}

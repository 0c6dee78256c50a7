/**
 * The covers a Site's checks found, fetched by its Lane after a pass's checks (docs/adr/0151-a-cover-is-one-paced-request.md):
 * each on the pacer's turn like any request, after the gate is read again (never past a pause or a refusal),
 * only while the pass has time, at most a few per pass, and only for a Series some Reader still holds. A Lane whose
 * checks fill every pass would never reach them: so a pass takes one wanted cover first, then its checks.
 */
import { fetchImage, type ImageFetcher, type ImageResult } from '../fetch/image-fetcher'
import type { Clock } from '../clock'
import type { Log } from '../log'
import { isCoverHost, parseUrl, type Site } from '../sites/site'
import type { CoverKey, CoverStore } from '../store/covers'
import type { Db } from '../store/database'
import { laneRow } from '../store/lanes'
import { getSeries } from '../store/series'
import { laneGate } from './decisions'
import type { SitePacer } from './pacer'

/** Covers one pass fetches at most: checks come first, so a pass after a big import does not spend its time on images. */
export const MAX_COVERS_PER_PASS = 3

export interface CoverDeps {
  db: Db
  site: Site
  clock: Clock
  log: Log
  pacer: SitePacer
  covers?: CoverStore
  fetchImage?: ImageFetcher
  /** Every cover request, as it ends (the simulation counts them). */
  onCover?(key: CoverKey, result: ImageResult): void
}

export interface CoverRun {
  gap: number
  startedMono: number
  signal: AbortSignal
  /** Whether the pass sent a request already (then maxPassMs is minded before each cover). */
  busy: boolean
  /** At most this many covers (default MAX_COVERS_PER_PASS). */
  limit?: number
  /**
   * The longest a cover waits for the pacer's turn (default 0: only a turn free now). A pass never sits out a
   * whole gap for a cover: the Lane stays free to write its rows and take a Check now.
   */
  maxWaitMs?: number
}

export type CoverEnd = { end: 'done' | 'stop' } | { end: 'refused'; reason: string; retryAfterMs?: number }

/** Fetches the Site's wanted covers while the pass may; says how it ended and how many requests went out. */
export async function fetchCovers(deps: CoverDeps, run: CoverRun): Promise<CoverEnd & { sent: number }> {
  const { covers, site } = deps
  let sent = 0
  if (!covers) return { end: 'done', sent }
  for (let n = 0; n < (run.limit ?? MAX_COVERS_PER_PASS); n++) {
    const wanted = covers.nextWanted(site.key)
    if (!wanted) break
    const url = parseUrl(wanted.url)
    if (!url || !isCoverHost(site, url)) {
      // Nothing is sent off the Site's hosts: kept as tried, so it is not wanted again.
      covers.save(wanted.key, wanted.url, { reason: "the cover is not on the Site's hosts nor its image hosts" }, deps.clock.now())
      continue
    }
    if ((run.busy || sent > 0) && !hasTime(deps, run)) break
    if (deps.pacer.waitFor(site.key, run.gap) > (run.maxWaitMs ?? 0)) break
    const one = await fetchOne(deps, run, wanted)
    if (one === 'closed') break
    if (one === 'passed') continue
    sent++
    if (one.end !== 'done') return { ...one, sent }
  }
  return { end: 'done', sent }
}

function hasTime(deps: CoverDeps, run: CoverRun): boolean {
  const { clock, pacer, site } = deps
  return clock.monotonic() - run.startedMono + pacer.waitFor(site.key, run.gap) < site.pace.maxPassMs
}

/** One cover on the pacer's turn: 'closed' (paused or refusing now), 'passed' (no Reader holds it), or how it ended. */
async function fetchOne(deps: CoverDeps, run: CoverRun, wanted: { key: CoverKey; url: string }): Promise<CoverEnd | 'closed' | 'passed'> {
  const { db, site, clock, pacer, covers } = deps
  const turn = await pacer.turn(site.key, run.gap, run.signal, site.pace.maxPassMs)
  if (!turn) return { end: 'stop' }
  try {
    if (laneGate(await laneRow(db, site.key), clock.now())) return 'closed'
    const series = await getSeries(db, wanted.key)
    if (!series || series.reader_count === 0) {
      covers!.forget(wanted.key)
      return 'passed'
    }
    turn.sent()
    const result = await (deps.fetchImage ?? fetchImage)(wanted.url, site, {
      referer: series.series_url,
      signal: run.signal,
      now: () => clock.now(),
    })
    deps.onCover?.(wanted.key, result)
    if (run.signal.aborted) return { end: 'stop' }
    if (result.kind === 'refused') return { end: 'refused', reason: result.reason, retryAfterMs: result.retryAfterMs }
    covers!.save(wanted.key, wanted.url, result.kind === 'image' ? result : { reason: result.reason }, clock.now())
    deps.log.debug({ site: site.key, series: wanted.key.seriesId, kind: result.kind }, 'lane: cover fetched')
    return { end: 'done' }
  } finally {
    turn.skip()
  }
}

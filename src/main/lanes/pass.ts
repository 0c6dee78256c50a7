/**
 * One Lane pass, exactly in the order of docs/design.md#the-lane-pass. Every exit writes one `poll_passes` row. A pass the app
 * stops mid-loop writes the row of the checks it finished (none → no row, rather than a false stall).
 */
import type { Clock } from '../clock'
import type { BrowserHealth } from '../fetch/browser-health'
import { fetcherFor, type Fetchers } from '../fetch/fetcher'
import type { Log } from '../log'
import type { Site } from '../sites/site'
import type { Db } from '../store/database'
import { laneRow, recordRefusal } from '../store/lanes'
import { insertPass, type PassFigures } from '../store/passes'
import type { PassRow } from '../store/schema'
import { dueSeries, eligibleCount, type DueSeries } from '../store/due'
import type { PassSkip } from '../../shared/skip'
import { checkSeries } from './check'
import { computeGap, laneGate, sleepAfter, wakeDue } from './decisions'

export interface PassDeps {
  db: Db
  site: Site
  fetchers: Fetchers
  /** The browser-down time, shared by every browser Lane. */
  health: BrowserHealth
  clock: Clock
  log: Log
}

/** What a Lane keeps between passes, in memory. */
export interface LaneMemory {
  /** When this Lane last sent a request to its Site (seeded from the newest check stamp at start). */
  lastFetchAt: number
}

export interface NewChapter {
  site: string
  seriesId: string
  title: string
  chapter: number
  label: string
  url: string
}

export interface PassResult {
  /** The row written, or null when the pass was abandoned because the Lane was stopped. */
  row: PassRow | null
  sleepMs: number
  newChapters: NewChapter[]
}

type Counts = Pick<PassFigures, 'checked' | 'refused' | 'unreachable' | 'no_chapter' | 'unfetchable' | 'errors'>
const ZERO: Counts = { checked: 0, refused: 0, unreachable: 0, no_chapter: 0, unfetchable: 0, errors: 0 }

export async function runPass(deps: PassDeps, memory: LaneMemory, signal: AbortSignal): Promise<PassResult> {
  const { db, site, clock, log, health } = deps
  const pace = site.pace
  const startedAt = clock.now()
  const lane = await laneRow(db, site.key)

  const finish = async (
    skip: PassSkip,
    figures: { due: number; gap: number; clamped: boolean; counts: Counts; cutShort?: boolean; fetched?: boolean },
    newChapters: NewChapter[] = [],
  ): Promise<PassResult> => {
    const now = clock.now()
    const row = await insertPass(db, {
      site: site.key,
      started_at: startedAt,
      ended_at: now,
      skip,
      due: figures.due,
      gap: figures.gap,
      clamped: figures.clamped ? 1 : 0,
      ...figures.counts,
    })
    const laneNow = skip === '' ? await laneRow(db, site.key) : lane
    const sleepMs = sleepAfter({
      skip,
      now,
      pace,
      lane: laneNow,
      browserDownUntil: health.downUntil(),
      cutShort: figures.cutShort ?? false,
      fetched: figures.fetched ?? false,
    })
    if (skip) log.debug({ site: site.key, skip, sleepMs }, 'lane: pass skipped')
    return { row, sleepMs, newChapters }
  }
  // An exit before the figures are computed: its own gap is 0, so the store carries the last ones forward.
  const skipped = (skip: PassSkip) => finish(skip, { due: 0, gap: 0, clamped: false, counts: ZERO })

  // 1. The owner's pause, then the Site's refusal.
  const gate = laneGate(lane, startedAt)
  if (gate) return skipped(gate)

  // 2. Browser Sites: the browser went down a moment ago, or there is none and no fallback.
  const fetcher = fetcherFor(site, deps.fetchers)
  const browser = fetcher?.kind === 'browser' ? deps.fetchers.browser : undefined
  if (browser && health.isDown(startedAt)) return skipped('sidecar-down')
  if (!fetcher) return skipped('no-fetcher')

  // 3. The due query.
  let due: DueSeries[]
  try {
    due = await dueSeries(db, site.key, { restCutoff: startedAt - pace.restMs, ceilingCutoff: startedAt - pace.ceilingMs })
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: due query failed')
    return skipped('due-query')
  }
  const forced = due.some((s) => s.forced)

  // 4. A sleeping browser wakes only past the thresholds, or for a forced Series.
  if (browser && !browser.isAwake() && !wakeDue(pace, due, startedAt)) return skipped('asleep')

  // 5. The eligible count, the pace divisor (deliberately blind to force).
  let eligible: number
  try {
    eligible = await eligibleCount(db, site.key)
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: eligible count failed')
    return skipped('eligible-count')
  }
  if (eligible === 0 && !forced) return skipped('nothing-eligible')

  // 6. The gap.
  const { gap, clamped } = computeGap(pace, eligible)

  // 7. The loop.
  const counts = { ...ZERO }
  const newChapters: NewChapter[] = []
  let cutShort = false
  let fetched = false
  // A stop mid-loop keeps what was done: the row of the checks made so far and their New Chapters. A stop
  // before any check leaves no row at all (it would read as a stall).
  const stopped = () =>
    counts.checked + counts.unreachable > 0
      ? finish('', { due: due.length, gap, clamped, counts, cutShort: true, fetched }, newChapters)
      : Promise.resolve<PassResult>({ row: null, sleepMs: 0, newChapters })
  for (const [index, series] of due.entries()) {
    if (signal.aborted) return stopped()
    // A pause or a refusal recorded since the pass began (the owner, or an Acquisition meeting a challenge)
    // ends it before its next request.
    if (index > 0 && laneGate(await laneRow(db, site.key), clock.now())) break
    const wait = Math.max(0, memory.lastFetchAt + gap - clock.now())
    // No new Series once it would start after maxPassMs: the next pass re-reads the due query, so a fresh
    // Check now waits at most about maxPassMs plus a gap. The first is always taken, so a gap longer than
    // maxPassMs still makes progress.
    if (index > 0 && clock.now() + wait - startedAt >= pace.maxPassMs) {
      cutShort = true
      break
    }
    if (wait > 0) await clock.sleep(wait, signal)
    if (signal.aborted) return stopped()

    const check = await checkSeries({ db, clock, log }, site, fetcher, series, signal)
    if (check.outcome === 'aborted' || signal.aborted) return stopped()
    if (check.fetched) {
      memory.lastFetchAt = check.stampedAt
      fetched = true
    }
    log.debug({ site: site.key, series: series.series_id, outcome: check.outcome, reason: check.reason }, 'lane: checked')
    if (check.outcome === 'unreachable') {
      // Not counted in `checked`: the browser, not the Site, failed. The pass returns with an empty skip.
      counts.unreachable++
      health.markDown(clock.now())
      log.warn({ site: site.key, reason: check.reason }, 'lane: browser unreachable')
      break
    }
    counts.checked++
    if (check.outcome === 'refused') {
      counts.refused++
      try {
        await recordRefusal(db, site.key, clock.now() + pace.refusalBackoffMs)
        log.warn({ site: site.key, reason: check.reason }, 'lane: refused; backing off')
      } catch (error) {
        log.error({ site: site.key, err: error }, 'lane: refused, and the refusal could not be recorded')
      }
      break
    }
    if (check.outcome === 'no-chapter') counts.no_chapter++
    else if (check.outcome === 'unfetchable') counts.unfetchable++
    else if (check.outcome === 'error') counts.errors++
    else if (check.latest?.newChapter) {
      const s = check.latest.series
      newChapters.push({
        site: site.key,
        seriesId: s.series_id,
        title: s.title,
        chapter: s.latest_chapter!,
        label: s.latest_chapter_label,
        url: s.latest_chapter_url || s.series_url,
      })
    }
  }

  // 8. The row.
  return finish('', { due: due.length, gap, clamped, counts, cutShort, fetched }, newChapters)
}

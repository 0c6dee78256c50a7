/**
 * One Lane pass, exactly in the order of docs/design.md#the-lane-pass. Every exit writes one `poll_passes`
 * row; a failed read of the store is an exit too (docs/adr/0012-pass-exits.md). A pass the app stops mid-loop
 * writes the row of the checks it finished (none → no row, rather than a false stall). A row the store cannot
 * take (a full disk, a read-only file) is held by the Lane and written, with its own times, before its next
 * row (docs/adr/0045-storage-faults.md).
 */
import type { Clock } from '../clock'
import type { BrowserHealth } from '../fetch/browser-health'
import { fetcherFor, type Fetchers } from '../fetch/fetcher'
import type { Log } from '../log'
import type { PageReader } from '../sites/page-reader'
import type { Site } from '../sites/site'
import type { Db } from '../store/database'
import { dueFigures, dueSeries, eligibleCount, lastCheckedAt, type DueFigures, type DueSeries } from '../store/due'
import { boundLaneTimes, laneRow, recordRefusal } from '../store/lanes'
import { insertPasses, type PassFigures } from '../store/passes'
import type { LaneRow, PassRow } from '../store/schema'
import { repairFutureStamps, stillDue } from '../store/series'
import type { PassSkip } from '../../shared/skip'
import { checkSeries, type CheckReport } from './check'
import { computeGap, dueBound, laneGate, refusalLength, sleepAfter, wakeDue } from './decisions'
import type { SitePacer } from './pacer'

export interface PassDeps {
  db: Db
  site: Site
  fetchers: Fetchers
  /** The browser-down time, shared by every browser Lane. */
  health: BrowserHealth
  /** The spacing of requests per Site, shared with Acquisition. */
  pacer: SitePacer
  clock: Clock
  log: Log
  /** Every check's report, as it ends (the simulation and logs read them). */
  onCheck?(series: DueSeries, report: CheckReport): void
  /** Reads fetched pages (default: on the calling thread). */
  reader?: PageReader
  /** The Lane's rows the store could not take yet; written before this pass's row. */
  unwritten?: UnwrittenPasses
  /** The wall clock against the monotonic one, from pass to pass (an adaptive Lane moves its plans by a step back). */
  wallWatch?: WallWatch
}

/** A drop of the wall clock against the monotonic one by more than this, between two passes, is a step back. */
export const WALL_STEP_MS = 60_000

/**
 * Sees the wall clock set back between two of a Lane's passes: the wall clock's lead over the monotonic one
 * drops by the step. A rise says nothing (a machine that slept looks the same), so only drops are reported.
 */
export class WallWatch {
  #lead: number | undefined

  /** How far the wall clock was set back since the last reading, or 0. */
  steppedBack(wall: number, monotonic: number): number {
    const lead = wall - monotonic
    // The first reading has nothing to compare with: no step.
    const back = (this.#lead ?? lead) - lead
    this.#lead = lead
    return back > WALL_STEP_MS ? back : 0
  }
}

/**
 * Pass rows a Lane could not write (the store refused them), oldest first, written before the Lane's next row
 * so each keeps its true times and carry-forward reads the row before it (docs/adr/0045-storage-faults.md).
 * Bounded: past `limit` rows the second-oldest goes, so the first (when the trouble began) and the newest stay.
 */
export class UnwrittenPasses {
  readonly rows: PassFigures[] = []
  /** Rows let go because more than `limit` were held. */
  dropped = 0

  constructor(readonly limit = 100) {}

  hold(row: PassFigures): void {
    this.rows.push(row)
    if (this.rows.length > this.limit) {
      this.rows.splice(1, 1)
      this.dropped++
    }
  }

  clear(): void {
    this.rows.length = 0
    this.dropped = 0
  }
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
  /** The row written, or null when the pass was abandoned because the Lane was stopped, or the store refused it. */
  row: PassRow | null
  /** The row the store could not take: held by the Lane and written before its next one. */
  unwritten?: PassFigures
  sleepMs: number
  newChapters: NewChapter[]
}

/** How many times a pass reads more due Series after passing over all it read (bounds the pass's reads). */
const MAX_REFILLS = 3

type Counts = Pick<PassFigures, 'checked' | 'refused' | 'unreachable' | 'no_chapter' | 'unfetchable' | 'errors'>
const ZERO: Counts = { checked: 0, refused: 0, unreachable: 0, no_chapter: 0, unfetchable: 0, errors: 0 }

interface Figures {
  due: number
  gap: number
  clamped: boolean
  counts: Counts
  cutShort?: boolean
  fetched?: boolean
}

export async function runPass(deps: PassDeps, signal: AbortSignal): Promise<PassResult> {
  const { db, site, clock, log, health, pacer } = deps
  const pace = site.pace
  const startedAt = clock.now()
  // maxPassMs is measured on the monotonic clock: a pass that began before a wall clock step still ends on time.
  const startedMono = clock.monotonic()

  const finish = async (
    skip: PassSkip,
    figures: Figures,
    lane: LaneRow | undefined,
    newChapters: NewChapter[] = [],
  ): Promise<PassResult> => {
    const now = clock.now()
    const pass: PassFigures = {
      site: site.key,
      started_at: startedAt,
      ended_at: now,
      skip,
      due: figures.due,
      gap: figures.gap,
      clamped: figures.clamped ? 1 : 0,
      ...figures.counts,
    }
    const row = await writeRow(deps, pass)
    let laneNow = lane
    // Stryker disable next-line all: the sleep reads the Lane row only after 'paused' or 'refusing', whose exits always pass the row they read
    if (skip === '' || !laneNow) laneNow = await laneRow(db, site.key).catch(() => undefined)
    const sleepMs = sleepAfter({
      skip,
      now,
      pace,
      // Stryker disable next-line ObjectLiteral: as above, no exit without a row reads it
      lane: laneNow ?? { paused_until: 0, refuse_until: 0 },
      browserDownForMs: health.downForMs(),
      // Stryker disable next-line BooleanLiteral: only the empty-skip exit reads it, and its figures always carry it
      cutShort: figures.cutShort ?? false,
      // Stryker disable next-line BooleanLiteral: only the empty-skip exit reads it, and its figures always carry it
      fetched: figures.fetched ?? false,
    })
    // Stryker disable next-line ConditionalExpression: guards a log line only
    if (skip) log.debug({ site: site.key, skip, sleepMs }, 'lane: pass skipped')
    return { row, sleepMs, newChapters, ...(row ? {} : { unwritten: pass }) }
  }
  // An exit before the figures are computed: its own gap is 0, so the store carries the last ones forward.
  const skipped = (skip: PassSkip, lane?: LaneRow) => finish(skip, { due: 0, gap: 0, clamped: false, counts: ZERO }, lane)

  // 1. The owner's pause, then the Site's refusal. A Lane row that cannot be read is a store that cannot
  // answer the pass's questions: the same exit as a failed due query.
  let lane: LaneRow
  try {
    lane = await laneRow(db, site.key)
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: the Lane row could not be read')
    return skipped('due-query')
  }
  try {
    lane = await keepTimesBounded(deps, lane, startedAt)
  } catch (error) {
    // The row read says what the owner asked: a paused Lane's exit stays `paused`, not a store fault.
    log.error({ site: site.key, err: error }, 'lane: the stamps ahead of the clock could not be repaired')
    return skipped(laneGate(lane, startedAt) ?? 'due-query', lane)
  }
  const gate = laneGate(lane, startedAt)
  if (gate) return skipped(gate, lane)

  // 2. Browser Sites: the browser went down a moment ago, or there is none and no fallback.
  const fetcher = fetcherFor(site, deps.fetchers)
  const browser = fetcher?.kind === 'browser' ? deps.fetchers.browser : undefined
  if (browser && health.isDown()) return skipped('sidecar-down', lane)
  if (!fetcher) return skipped('no-fetcher', lane)

  // 3. The due query: first how many are due (the figure), then, once the gap is known, only as many as the
  // pass can check (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md).
  const cutoffs = {
    restCutoff: startedAt - pace.restMs,
    ceilingCutoff: startedAt - pace.ceilingMs,
    // An adaptive Site's Series are due by their planned check (docs/adr/0014-freshness-per-request.md).
    ...(pace.cadence === 'adaptive' ? { plannedBy: startedAt } : {}),
    // One Reader's flood is served after every other Reader's Series (docs/adr/0081-one-reader-bounded.md).
    restCapacity: Math.floor(pace.restMs / pace.minGapMs),
  }
  let figures: DueFigures
  try {
    figures = await dueFigures(db, site.key, cutoffs)
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: due query failed')
    return skipped('due-query', lane)
  }
  const forced = figures.forced > 0

  // 4. A sleeping browser wakes only past the thresholds, or for a forced Series.
  if (browser && !browser.isAwake() && !wakeDue(pace, figures, startedAt)) return skipped('asleep', lane)

  // 5. The eligible count, the pace divisor (deliberately blind to force).
  let eligible: number
  try {
    eligible = await eligibleCount(db, site.key)
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: eligible count failed')
    return skipped('eligible-count', lane)
  }
  if (eligible === 0 && !forced) return skipped('nothing-eligible', lane)

  // 6. The gap.
  const { gap, clamped } = computeGap(pace, eligible)

  let due: DueSeries[] = []
  const bound = dueBound(pace, gap)
  // Stryker disable next-line ConditionalExpression,EqualityOperator: with nothing due the read returns nothing; the guard only saves it
  if (figures.due > 0) {
    try {
      due = await dueSeries(db, site.key, cutoffs, bound, figures)
    } catch (error) {
      log.error({ site: site.key, err: error }, 'lane: due query failed')
      return skipped('due-query', lane)
    }
    // Fewer than asked for is the whole due set as it is now: a Series counted a moment ago was checked since
    // (by an Acquisition), or one came due since (a Check now). The row counts what the pass found due, not what
    // the count saw; a full read says only that at least that many are due (docs/adr/0064-what-a-refill-counts.md).
    figures = { ...figures, due: due.length < bound ? due.length : Math.max(figures.due, due.length) }
  }

  // 7. The loop.
  const counts = { ...ZERO }
  const newChapters: NewChapter[] = []
  let cutShort = false
  let fetched = false
  /** A refusal the store could not take: the Lane still waits it out. */
  let unrecordedRefusalMs = 0
  /**
   * Due Series the loop passed over because they stopped being due (orphaned, emptied, Finished, or checked by
   * an Acquisition since the due query): not counted in the row's `due`, which would otherwise read as a stall.
   */
  let passedOver = 0
  let refills = 0
  const measured = (): Figures => ({ due: figures.due - passedOver, gap, clamped, counts, cutShort, fetched })
  // Stryker disable next-line ArithmeticOperator: an unreachable browser ends the loop, so `unreachable` is 0 whenever this is asked
  const checksMade = () => counts.checked + counts.unreachable > 0
  // A stop mid-loop keeps what was done: the row of the checks made so far and their New Chapters. A stop
  // before any check leaves no row at all (it would read as a stall; docs/adr/0012-pass-exits.md).
  const stopped = () =>
    checksMade()
      ? // Stryker disable next-line BooleanLiteral: a stopped pass's sleep is never slept (the Lane's loop ends on the same abort)
        finish('', { ...measured(), cutShort: true }, undefined, newChapters)
      : Promise.resolve<PassResult>({ row: null, sleepMs: 0, newChapters })

  /** Whether the loop took every due Series it read (no exit, no maxPassMs). */
  let ranOut = true
  for (const series of due) {
    // Stryker disable next-line ConditionalExpression: the pacer answers an aborted signal with no turn, the same exit just below
    if (signal.aborted) return stopped()
    // No new Series once it would start after maxPassMs: the next pass re-reads the due query, so a fresh
    // Check now waits at most about maxPassMs plus a gap. The first checked is always taken (one passed over
    // does not count), so a gap longer than maxPassMs still makes progress.
    if (checksMade() && clock.monotonic() - startedMono + pacer.waitFor(site.key, gap) >= pace.maxPassMs) {
      cutShort = true
      // Stryker disable next-line BooleanLiteral: cutShort is already set, which is all ranOut would set
      ranOut = false
      break
    }
    const turn = await pacer.turn(site.key, gap, signal)
    if (!turn) return stopped()
    let report: CheckReport | undefined
    try {
      // The gate, read after the wait and just before the request: a Pause pressed or a refusal recorded (by an
      // Acquisition) during the wait stops the pass before it sends anything.
      let laneNow: LaneRow
      try {
        laneNow = await laneRow(db, site.key)
        await followWallStep(deps)
      } catch (error) {
        log.error({ site: site.key, err: error }, 'lane: the Lane row could not be read mid-pass')
        if (checksMade()) {
          ranOut = false
          break
        }
        return finish('due-query', measured(), lane, newChapters)
      }
      const closed = laneGate(laneNow, clock.now())
      if (closed) {
        if (checksMade()) {
          ranOut = false
          break
        }
        return finish(closed, measured(), laneNow, newChapters)
      }
      // Still due for the reasons the due query gave? A Series orphaned, emptied or Finished since is not fetched.
      let url: string | null
      try {
        url = await stillDue(db, { site: site.key, seriesId: series.series_id }, series.latest_checked_at)
      } catch (error) {
        log.error({ site: site.key, err: error }, 'lane: could not re-read a due Series')
        if (checksMade()) {
          ranOut = false
          break
        }
        return finish('due-query', measured(), lane, newChapters)
      }
      if (url === null) {
        passedOver++
        // Every Series read so far went meanwhile and more are due: read the next ones, so the pass checks what
        // is still due instead of ending with nothing checked (a row that reads as a stall).
        if (series === due.at(-1) && !checksMade() && due.length < figures.due && refills < MAX_REFILLS) {
          refills++
          let more: DueSeries[]
          try {
            // Every Series read so far was passed over, so none of them is due again unless pressed Check now
            // since: then it is taken, like any other (docs/adr/0064-what-a-refill-counts.md).
            more = await dueSeries(db, site.key, cutoffs, bound)
          } catch (error) {
            // Nothing checked yet: the same exit as a failed due query, not a row that reads as a stall.
            log.error({ site: site.key, err: error }, 'lane: due query failed')
            return finish('due-query', measured(), lane, newChapters)
          }
          // A Series that came due after the count (a Check now, a new Bookmark) is due all the same: the row
          // never counts fewer due than the pass checked (docs/adr/0064-what-a-refill-counts.md). A read shorter
          // than the bound is the whole due set now, as after the first read: the Series counted but gone
          // meanwhile (read by an Acquisition) are not due, or the row would read as a stall
          // (docs/adr/0083-a-short-refill-is-the-whole-due-set.md).
          const dueNow = passedOver + more.length
          figures = { ...figures, due: more.length < bound ? dueNow : Math.max(figures.due, dueNow) }
          due.push(...more)
        }
        continue
      }
      report = await checkSeries(
        { db, clock, log, beforeRequest: () => turn.sent(), ...(deps.reader ? { reader: deps.reader } : {}) },
        site,
        fetcher,
        { site: series.site, series_id: series.series_id, series_url: url, previous_checked_at: series.latest_checked_at },
        signal,
      )
    } finally {
      turn.skip()
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: a check ends 'aborted' only when the signal is, so the signal alone decides
    if (report.outcome === 'aborted' || signal.aborted) return stopped()
    if (report.fetched) fetched = true
    deps.onCheck?.(series, report)
    log.debug({ site: site.key, series: series.series_id, outcome: report.outcome, reason: report.reason }, 'lane: checked')
    if (report.storageUnavailable) {
      // The store cannot take a stamp, so no check can be made (nothing was sent): the pass ends here, and its
      // row waits with the Lane until the store takes writes again.
      counts.checked++
      counts.errors++
      break
    }
    if (report.outcome === 'unreachable') {
      // Not counted in `checked`: the browser, not the Site, failed. The pass returns with an empty skip.
      counts.unreachable++
      health.markDown()
      log.warn({ site: site.key, reason: report.reason }, 'lane: browser unreachable')
      // Stryker disable next-line BooleanLiteral: a check that reached the fetcher has fetched, so the Lane goes straight on either way
      ranOut = false
      break
    }
    counts.checked++
    if (report.outcome === 'refused') {
      counts.refused++
      const length = refusalLength(pace, report.retryAfterMs)
      const until = clock.now() + length.ms
      try {
        await recordRefusal(db, site.key, until, length.ms)
        log.warn(
          {
            site: site.key,
            reason: report.reason,
            until,
            backoffMs: length.ms,
            ...(report.retryAfterMs !== undefined ? { retryAfterMs: report.retryAfterMs } : {}),
          },
          length.capped
            ? `lane: refused; the Site asked for ${Math.round(report.retryAfterMs! / 3_600_000)} h, backing off for the longest the app waits (a day)`
            : 'lane: refused; backing off',
        )
      } catch (error) {
        // Not recorded, still honoured: this Lane sleeps the refusal out (a restart forgets it).
        unrecordedRefusalMs = length.ms
        log.error(
          { site: site.key, err: error, backoffMs: length.ms },
          'lane: refused, and the refusal could not be recorded; the Lane sleeps it out',
        )
      }
      // Stryker disable next-line BooleanLiteral: a refusal is an answer to a request, so the Lane goes straight on either way
      ranOut = false
      break
    }
    if (report.outcome === 'no-chapter') counts.no_chapter++
    else if (report.outcome === 'unfetchable') counts.unfetchable++
    else if (report.outcome === 'error') counts.errors++
    else if (
      // Stryker disable next-line OptionalChaining: the only outcome left here with a latest move is 'chapter', which always has one
      report.latest?.newChapter
    ) {
      const s = report.latest.series
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

  // Every Series read was taken and more are due: straight on to the next pass, as after maxPassMs.
  if (ranOut && due.length < figures.due) cutShort = true

  // 8. The row.
  const result = await finish('', measured(), undefined, newChapters)
  return unrecordedRefusalMs ? { ...result, sleepMs: Math.max(result.sleepMs, unrecordedRefusalMs) } : result
}

/**
 * Writes the pass's row after the rows the Lane holds. When the store refuses, the row joins them (null is
 * returned): the pass still ends, and the Lane writes them all, in order, once the store takes writes.
 */
async function writeRow(deps: PassDeps, pass: PassFigures): Promise<PassRow | null> {
  const { db, log, unwritten } = deps
  const held = unwritten?.rows.length ?? 0
  try {
    const rows = await insertPasses(db, [...(unwritten?.rows ?? []), pass])
    if (held) {
      log.warn(
        { site: pass.site, written: held, dropped: unwritten!.dropped },
        'lane: the pass rows held while the store could not take them are written',
      )
      unwritten!.clear()
    }
    return rows.at(-1)!
  } catch (error) {
    unwritten?.hold(pass)
    // Loud once; every further pass of the outage only adds to what is held.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: chooses between two log lines
    if (held === 0)
      log.error({ site: pass.site, err: error }, 'lane: the pass row could not be written; the Lane keeps it and writes it later')
    else log.debug({ site: pass.site, held: held + 1 }, 'lane: the pass row is held')
    return null
  }
}

/**
 * Keeps every wait bounded when the wall clock was set back (docs/adr/0011-time-and-the-wall-clock.md): stamps
 * recorded ahead of `now` are brought back, and a pause or refusal never lasts longer from `now` than the
 * longest the app ever sets. Costs one index seek when the clock behaved.
 */
async function keepTimesBounded(deps: PassDeps, lane: LaneRow, now: number): Promise<LaneRow> {
  const { db, site, log } = deps
  const steppedBackMs = wallSteppedBack(deps)
  // Stryker disable next-line ConditionalExpression,EqualityOperator: repairing with no stamp ahead of now changes nothing (only a log line)
  if (steppedBackMs > 0 || (await lastCheckedAt(db, site.key)) > now) {
    const repaired = await repairFutureStamps(db, site.key, now, steppedBackMs)
    log.warn({ site: site.key, repaired, steppedBackMs }, 'lane: the wall clock was set back; stamps ahead of it were brought back to now')
  }
  const bounded = await boundLaneTimes(db, lane, now, site.pace.refusalBackoffMs)
  return bounded ?? lane
}

/**
 * How far the wall clock was set back since the Lane last looked, for an adaptive Lane (it plans checks ahead on
 * the wall clock, so a step back moves those plans with it); 0 for a fixed one or without a step.
 */
function wallSteppedBack(deps: PassDeps): number {
  const { clock, site } = deps
  const seen = deps.wallWatch?.steppedBack(clock.now(), clock.monotonic()) ?? 0
  return site.pace.cadence === 'adaptive' ? seen : 0
}

/**
 * Before each check of an adaptive Lane: a wall clock set back since the last look moves the plans made before it
 * now, so the checks this pass plans on the new clock are not moved again at the next pass.
 */
async function followWallStep(deps: PassDeps): Promise<void> {
  const steppedBackMs = wallSteppedBack(deps)
  if (steppedBackMs === 0) return
  const repaired = await repairFutureStamps(deps.db, deps.site.key, deps.clock.now(), steppedBackMs)
  deps.log.warn(
    { site: deps.site.key, repaired, steppedBackMs },
    'lane: the wall clock was set back mid-pass; planned checks ahead of it were brought back with it',
  )
}

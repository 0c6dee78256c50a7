/**
 * One Lane pass, exactly in the order of docs/design.md#the-lane-pass. Every exit writes one `poll_passes`
 * row; a failed read of the store is an exit too (docs/adr/0012-pass-exits.md). A pass the app stops mid-loop
 * writes the row of the checks it finished (none → no row, rather than a false stall). A row the store cannot
 * take (a full disk, a read-only file) is held by the Lane and written, with its own times, before its next
 * row (docs/adr/0045-storage-faults.md).
 */
import type { Clock } from '../clock'
import type { BrowserHealth } from '../fetch/browser-health'
import { fetcherFor, type Fetcher, type Fetchers } from '../fetch/fetcher'
import { troubleOver, warnOnce, type Log } from '../log'
import type { PageReader } from '../sites/page-reader'
import type { Site } from '../sites/site'
import type { Db } from '../store/database'
import { dueFigures, dueSeries, eligibleCount, lastCheckedAt, type DueCutoffs, type DueFigures, type DueSeries } from '../store/due'
import { boundLaneTimes, laneRow, recordRefusal } from '../store/lanes'
import { insertPasses, type PassFigures } from '../store/passes'
import type { LaneRow, PassRow } from '../store/schema'
import { repairFutureStamps, stillDue } from '../store/series'
import { ageWords } from '../../shared/format'
import type { PassSkip } from '../../shared/skip'
import { checkSeries, type CheckReport } from './check'
import { holdCovered, readFeed, type FeedReadOutcome, type FeedWatch } from './feed'
import { fetchCovers, type CoverDeps, type CoverRun } from './covers'
import { computeGap, dueBound, laneGate, refusalLength, sleepAfter, wakeDue } from './decisions'
import type { SitePacer } from './pacer'

export interface PassDeps extends Pick<CoverDeps, 'covers' | 'fetchImage' | 'onCover'> {
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
  /** An adaptive Site's updates page, when its family has one (docs/adr/0165-site-feeds.md). */
  feed?: FeedWatch
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

/** What a pass's row and the sleep after it are made of. */
interface Figures {
  due: number
  gap: number
  clamped: boolean
  counts: Counts
  cutShort: boolean
  fetched: boolean
}

/** An exit before the figures are computed: its own gap is 0, so the store carries the last ones forward. */
const NO_FIGURES: Figures = { due: 0, gap: 0, clamped: false, counts: ZERO, cutShort: false, fetched: false }

/** A Lane row that could not be read at the end of a pass: neither paused nor refusing. */
const NO_LANE = { paused_until: 0, refuse_until: 0 }

/** A pass that ends with a skip, and the Lane row it read (when it read one). */
interface Exit {
  exit: PassSkip
  lane?: LaneRow
}

/** Steps 1–6 of the pass and its first read of the due Series: what the loop works from. */
interface Plan {
  lane: LaneRow
  fetcher: Fetcher
  cutoffs: DueCutoffs
  gap: number
  clamped: boolean
  /** How many due Series the pass reads at a time. */
  bound: number
  /** How many the pass found due (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md). */
  due: number
  series: DueSeries[]
}

/**
 * What one Series leaves the loop to do: take the next, end the loop (its row follows), stop (the app stopped
 * the Lane), or leave the pass with a skip.
 */
type Step = 'next' | 'end' | 'stop' | Exit

/**
 * One pass as a pipeline (docs/adr/0101-functions-read-at-once.md): the plan (steps 1–6) or its exit, each due
 * Series checked in turn, and one row for whatever ended it.
 */
export async function runPass(deps: PassDeps, signal: AbortSignal): Promise<PassResult> {
  const startedAt = deps.clock.now()
  // maxPassMs is measured on the monotonic clock: a pass that began before a wall clock step still ends on time.
  const startedMono = deps.clock.monotonic()
  const end = new PassEnd(deps, startedAt)

  const plan = await planPass(deps, startedAt, signal)
  if ('exit' in plan) return end.write(plan.exit, NO_FIGURES, plan.lane)

  // 7. The loop. A cover waits for a pass's spare time (after its checks); one that waited a whole ceiling (a Lane
  // whose checks fill every pass) takes the pass's first turn instead (docs/adr/0151-a-cover-is-one-paced-request.md).
  const tally = new Tally(plan)
  if (coverOverdue(deps, startedAt)) {
    const first = await coversStep(deps, tally, { gap: plan.gap, startedMono, signal, busy: false, limit: 1, maxWaitMs: Infinity })
    if (first === 'stop') return end.stopped(tally)
  }
  const queue = new DueQueue(deps, plan, tally)
  const loop: Loop = { deps, plan, tally, queue, signal, startedMono }
  for (const series of queue) {
    const step = await checkOne(loop, series)
    if (step === 'next') continue
    if (step === 'end') break
    return step === 'stop' ? end.stopped(tally) : end.write(step.exit, tally.figures(), step.lane, tally.newChapters)
  }
  // Every Series read was taken and more are due: straight on to the next pass, as after maxPassMs.
  if (!tally.stoppedEarly && queue.length < tally.due) tally.cutShort = true

  // 7b. The covers the checks found, on the same pace (docs/adr/0151-a-cover-is-one-paced-request.md).
  // A pass that checked nothing may wait for the turn as long as the Lane would sleep before its next pass anyway.
  const maxWaitMs = tally.checksMade() ? 0 : deps.site.pace.idleRequeryMs
  if (
    !tally.stoppedEarly &&
    (await coversStep(deps, tally, { gap: plan.gap, startedMono, signal, busy: tally.fetched, maxWaitMs })) === 'stop'
  )
    return end.stopped(tally)

  // 8. The row.
  const result = await end.write('', tally.figures(), undefined, tally.newChapters)
  return tally.unrecordedRefusalMs ? { ...result, sleepMs: Math.max(result.sleepMs, tally.unrecordedRefusalMs) } : result
}

/** The one writer of a pass's row, and of the sleep after it, for every exit. */
class PassEnd {
  constructor(
    private readonly deps: PassDeps,
    private readonly startedAt: number,
  ) {}

  /** The row of a pass that ends here, with `lane` the Lane row the exit read (none: read it now). */
  async write(skip: PassSkip, figures: Figures, lane: LaneRow | undefined, newChapters: NewChapter[] = []): Promise<PassResult> {
    const { db, site, clock, log, health } = this.deps
    const now = clock.now()
    const pass: PassFigures = {
      site: site.key,
      started_at: this.startedAt,
      ended_at: now,
      skip,
      due: figures.due,
      gap: figures.gap,
      clamped: figures.clamped ? 1 : 0,
      ...figures.counts,
    }
    const row = await writeRow(this.deps, pass)
    // A pass that ran its loop reads the row again: a check may have recorded a refusal since.
    const laneNow = lane ?? (await laneRow(db, site.key).catch(() => undefined))
    const sleepMs = sleepAfter({
      skip,
      now,
      pace: site.pace,
      lane: laneNow ?? NO_LANE,
      browserDownForMs: health.downForMs(),
      cutShort: figures.cutShort,
      fetched: figures.fetched,
    })
    if (skip) log.debug({ site: site.key, skip, sleepMs }, 'lane: pass skipped')
    return { row, sleepMs, newChapters, unwritten: row ? undefined : pass }
  }

  /**
   * A stop mid-loop keeps what was done: the row of the checks made so far and their New Chapters. A stop
   * before any check leaves no row at all (it would read as a stall; docs/adr/0012-pass-exits.md).
   */
  stopped(tally: Tally): Promise<PassResult> {
    if (!tally.checksMade()) return Promise.resolve({ row: null, sleepMs: 0, newChapters: tally.newChapters })
    return this.write('', { ...tally.figures(), cutShort: true }, undefined, tally.newChapters)
  }
}

/** Steps 1–6 of the pass, then the first read of the due Series: a plan, or the pass's one exit. */
async function planPass(deps: PassDeps, startedAt: number, signal?: AbortSignal): Promise<Plan | Exit> {
  const { db, site, log, health } = deps
  const pace = site.pace
  const lane = await openLane(deps, startedAt)
  if ('exit' in lane) return lane

  // 2. Browser Sites: the browser went down a moment ago, or there is none and no fallback.
  const fetcher = fetcherFor(site, deps.fetchers)
  const browser = fetcher?.kind === 'browser' ? deps.fetchers.browser : undefined
  if (browser && health.isDown()) return { exit: 'sidecar-down', lane }
  if (!fetcher) return { exit: 'no-fetcher', lane }

  // 3. The due query: first how many are due (the figure), then, once the gap is known, only as many as the
  // pass can check (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md).
  const cutoffs = dueCutoffs(pace, startedAt)
  let figures: DueFigures
  try {
    figures = await dueFigures(db, site.key, cutoffs)
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: due query failed')
    return { exit: 'due-query', lane }
  }
  const forced = figures.forced > 0

  // 4. A sleeping browser wakes only past the thresholds, or for a forced Series.
  if (browser && !browser.isAwake() && !wakeDue(pace, figures, startedAt)) return { exit: 'asleep', lane }

  // 5. The eligible count, the pace divisor (deliberately blind to force).
  let eligible: number
  try {
    eligible = await eligibleCount(db, site.key)
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: eligible count failed')
    return { exit: 'eligible-count', lane }
  }
  if (eligible === 0 && !forced) return { exit: 'nothing-eligible', lane }

  // 6. The gap.
  const { gap, clamped } = computeGap(pace, eligible)
  const bound = dueBound(pace, gap)
  // 6b. The Site's updates page, when its time came: it plans Series now or later before the due set is read.
  const fed = await feedFirst(deps, fetcher, gap, signal)
  if (fed === 'refusing' || fed === 'paused') return { exit: fed, lane }
  if (fed === 'read' || fed === 'held') {
    try {
      figures = await dueFigures(db, site.key, cutoffs)
    } catch (error) {
      log.error({ site: site.key, err: error }, 'lane: due query failed')
      return { exit: 'due-query', lane }
    }
  }
  if (figures.due === 0) return { lane, fetcher, cutoffs, gap, clamped, bound, due: 0, series: [] }
  let series: DueSeries[]
  try {
    series = await dueSeries(db, site.key, cutoffs, bound, figures)
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: due query failed')
    return { exit: 'due-query', lane }
  }
  // Fewer than asked for is the whole due set as it is now: a Series counted a moment ago was checked since
  // (by an Acquisition), or one came due since (a Check now). The row counts what the pass found due, not what
  // the count saw; a full read says only that at least that many are due (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md).
  const due = series.length < bound ? series.length : Math.max(figures.due, series.length)
  return { lane, fetcher, cutoffs, gap, clamped, bound, due, series }
}

/** What makes a Series due at `now` (the wall clock): the due query's cutoffs. */
function dueCutoffs(pace: Site['pace'], now: number): DueCutoffs {
  return {
    restCutoff: now - pace.restMs,
    ceilingCutoff: now - pace.ceilingMs,
    // An adaptive Site's Series are due by their planned check (docs/adr/0014-freshness-per-request.md).
    plannedBy: pace.cadence === 'adaptive' ? now : undefined,
    // One Reader's flood is served after every other Reader's Series (docs/adr/0081-one-reader-bounded.md).
    restCapacity: Math.floor(pace.restMs / pace.minGapMs),
  }
}

/**
 * An adaptive Site's updates page, read on the Lane's turn like a check's request and behind the same gate (a
 * Pause pressed or a refusal recorded during the wait sends nothing); a refusal it meets is recorded as a check's.
 */
async function feedFirst(
  deps: PassDeps,
  fetcher: Fetcher,
  gap: number,
  signal?: AbortSignal,
): Promise<FeedReadOutcome | PassSkip | 'none' | 'held'> {
  const { db, site, clock, pacer, feed, log } = deps
  if (!feed || site.pace.cadence !== 'adaptive' || signal?.aborted) return 'none'
  if (!feed.due(clock.now())) {
    const held = await holdCovered(db, site, feed, clock.now()).catch((error: unknown) => {
      log.error({ site: site.key, err: error }, 'lane: the Series the updates page covers could not be held')
      return 0
    })
    return held > 0 ? 'held' : 'none'
  }
  const turn = await pacer.turn(site.key, gap, signal, site.pace.maxPassMs)
  if (!turn) return 'none'
  try {
    const gate = laneGate(await laneRow(db, site.key), clock.now())
    if (gate) return gate
    const read = await readFeed(
      { db, site, fetcher, log, watch: feed, now: () => clock.now(), monotonic: () => clock.monotonic(), beforeRequest: () => turn.sent() },
      signal,
    )
    if (read.outcome !== 'refused') return read.outcome
    const { ms } = refusalLength(site.pace, read.retryAfterMs)
    await recordRefusal(db, site.key, clock.now() + ms, ms)
    return 'refusing'
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: the updates page could not be read')
    return 'none'
  } finally {
    turn.skip()
  }
}

/**
 * 1. The owner's pause, then the Site's refusal. A Lane row that cannot be read is a store that cannot answer
 * the pass's questions: the same exit as a failed due query.
 */
async function openLane(deps: PassDeps, startedAt: number): Promise<LaneRow | Exit> {
  const { db, site, log } = deps
  let lane: LaneRow
  try {
    lane = await laneRow(db, site.key)
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: the Lane row could not be read')
    return { exit: 'due-query' }
  }
  try {
    lane = await keepTimesBounded(deps, lane, startedAt)
  } catch (error) {
    // The row read says what the owner asked: a paused Lane's exit stays `paused`, not a store fault.
    log.error({ site: site.key, err: error }, 'lane: the stamps ahead of the clock could not be repaired')
    return { exit: laneGate(lane, startedAt) ?? 'due-query', lane }
  }
  const gate = laneGate(lane, startedAt)
  return gate ? { exit: gate, lane } : lane
}

/** What the pass has done so far: the one place its counts and flags are kept. */
class Tally {
  readonly counts: Counts = { ...ZERO }
  readonly newChapters: NewChapter[] = []
  /** How many the pass found due; a refill may raise it (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md). */
  due: number
  /**
   * Due Series the loop passed over because they stopped being due (orphaned, emptied, Finished, or checked by
   * an Acquisition since the due query): not counted in the row's `due`, which would otherwise read as a stall.
   */
  passedOver = 0
  refills = 0
  /** Series were left due: the Lane goes straight on to its next pass. */
  cutShort = false
  /** A request went out: the Lane goes straight on to its next pass. */
  fetched = false
  /** The loop ended before taking every due Series it read (an exit, a refusal, an unreachable browser). */
  stoppedEarly = false
  /** A refusal the store could not take: the Lane still waits it out. */
  unrecordedRefusalMs = 0

  constructor(private readonly plan: Plan) {
    this.due = plan.due
  }

  figures(): Figures {
    const { gap, clamped } = this.plan
    return { due: this.due - this.passedOver, gap, clamped, counts: this.counts, cutShort: this.cutShort, fetched: this.fetched }
  }

  /** Whether a check was made (an unreachable browser ends the loop, so only `checked` can be asked about). */
  checksMade(): boolean {
    return this.counts.checked > 0
  }
}

/** The due Series the pass read, in order; passing over all of them reads more (up to MAX_REFILLS times). */
class DueQueue {
  readonly #series: DueSeries[]

  constructor(
    private readonly deps: PassDeps,
    private readonly plan: Plan,
    private readonly tally: Tally,
  ) {
    this.#series = [...plan.series]
  }

  get length(): number {
    return this.#series.length
  }

  /** Every Series read, those a refill adds during the walk included. */
  *[Symbol.iterator](): Iterator<DueSeries> {
    yield* this.#series
  }

  /**
   * A Series that is no longer due. When every Series read so far went meanwhile and more are due, the next ones
   * are read, so the pass checks what is still due instead of ending with nothing checked (a row that reads as
   * a stall).
   */
  async passOver(series: DueSeries): Promise<Step> {
    const { tally, plan } = this
    tally.passedOver++
    if (series !== this.#series.at(-1) || tally.checksMade()) return 'next'
    if (this.#series.length >= tally.due || tally.refills >= MAX_REFILLS) return 'next'
    tally.refills++
    let more: DueSeries[]
    try {
      // Every Series read so far was passed over, so none of them is due again unless pressed Check now
      // since: then it is taken, like any other (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md).
      more = await dueSeries(this.deps.db, this.deps.site.key, plan.cutoffs, plan.bound)
    } catch (error) {
      this.deps.log.error({ site: this.deps.site.key, err: error }, 'lane: due query failed')
      return readFailed(tally, plan)
    }
    // A Series that came due after the count (a Check now, a new Bookmark) is due all the same: the row never
    // counts fewer due than the pass checked (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md). A read shorter than the
    // bound is the whole due set now, as after the first read: the Series counted but gone meanwhile (read by an
    // Acquisition) are not due, or the row would read as a stall (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md).
    const dueNow = tally.passedOver + more.length
    tally.due = more.length < plan.bound ? dueNow : Math.max(tally.due, dueNow)
    this.#series.push(...more)
    return 'next'
  }
}

interface Loop {
  deps: PassDeps
  plan: Plan
  tally: Tally
  queue: DueQueue
  signal: AbortSignal
  startedMono: number
}

/** A store that could not answer mid-pass: the row of the checks made, or (none yet) a `due-query` exit. */
function readFailed(tally: Tally, plan: Plan): Step {
  return endOr(tally, { exit: 'due-query', lane: plan.lane })
}

/** An exit mid-pass once checks were made ends the loop instead: its row keeps them. */
function endOr(tally: Tally, exit: Exit): Step {
  if (!tally.checksMade()) return exit
  tally.stoppedEarly = true
  return 'end'
}

/** Checks one due Series, on the pacer's turn. */
async function checkOne(loop: Loop, series: DueSeries): Promise<Step> {
  const { deps, plan, tally, signal } = loop
  const { clock, pacer, site } = deps
  if (signal.aborted) return 'stop'
  // No new Series once it would start after maxPassMs: the next pass re-reads the due query, so a fresh
  // Check now waits at most about maxPassMs plus a gap. The first checked is always taken (one passed over
  // does not count), so a gap longer than maxPassMs still makes progress.
  if (tally.checksMade() && clock.monotonic() - loop.startedMono + pacer.waitFor(site.key, plan.gap) >= site.pace.maxPassMs) {
    tally.cutShort = true
    return 'end'
  }
  const turn = await pacer.turn(site.key, plan.gap, signal, site.pace.maxPassMs)
  if (!turn) return 'stop'
  let report: CheckReport
  try {
    const url = await stillDueNow(loop, series)
    if (typeof url !== 'string') return url.step
    report = await checkSeries(
      { db: deps.db, clock, log: deps.log, beforeRequest: () => turn.sent(), reader: deps.reader, covers: deps.covers },
      site,
      plan.fetcher,
      { site: series.site, series_id: series.series_id, series_url: url, previous_checked_at: series.latest_checked_at },
      signal,
    )
  } finally {
    turn.skip()
  }
  return tallyCheck(loop, series, report)
}

/**
 * The gate, read after the wait and just before the request (a Pause pressed or a refusal recorded by an
 * Acquisition during the wait stops the pass before it sends anything), then whether the Series is still due
 * for the reasons the due query gave: its URL, or what the loop does instead.
 */
async function stillDueNow(loop: Loop, series: DueSeries): Promise<string | { step: Step }> {
  const { deps, plan, tally } = loop
  const { db, site, log } = deps
  let laneNow: LaneRow
  try {
    laneNow = await laneRow(db, site.key)
    // A wall clock set back moved the stamps and plans back by the step: the cutoffs the pass read its due Series
    // with are the old clock's, and a refill read with them would take a Series inside its rest as due.
    if ((await followWallStep(deps)) > 0) plan.cutoffs = dueCutoffs(site.pace, deps.clock.now())
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: the Lane row could not be read mid-pass')
    return { step: readFailed(tally, plan) }
  }
  const closed = laneGate(laneNow, deps.clock.now())
  if (closed) return { step: endOr(tally, { exit: closed, lane: laneNow }) }
  // A Series orphaned, emptied or Finished since is not fetched.
  let url: string | null
  try {
    url = await stillDue(db, { site: site.key, seriesId: series.series_id }, series.latest_checked_at)
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: could not re-read a due Series')
    return { step: readFailed(tally, plan) }
  }
  return url ?? { step: await loop.queue.passOver(series) }
}

/** Counts one check's outcome: the next Series, or the end of the loop. */
async function tallyCheck(loop: Loop, series: DueSeries, report: CheckReport): Promise<Step> {
  const { deps, tally } = loop
  const { site, log, health } = deps
  const { counts } = tally
  // A check the stop interrupted recorded nothing. One the stop met only after it ended (while it stored its
  // chapter) is kept whole: its New Chapter is stored and waits for a digest, so the pass reports it, then stops.
  if (report.outcome === 'aborted') return 'stop'
  if (report.fetched) tally.fetched = true
  deps.onCheck?.(series, report)
  log.debug({ site: site.key, series: series.series_id, outcome: report.outcome, reason: report.reason }, 'lane: checked')
  if (report.storageUnavailable) {
    // The store cannot take a stamp, so no check can be made (nothing was sent): the pass ends here, and its
    // row waits with the Lane until the store takes writes again.
    counts.checked++
    counts.errors++
    return 'end'
  }
  if (report.outcome === 'unreachable') {
    // Not counted in `checked`: the browser, not the Site, failed. The pass returns with an empty skip.
    counts.unreachable++
    health.markDown()
    warnOnce(
      log,
      `browser:${site.key}`,
      { site: site.key, reason: report.reason },
      `lane ${site.name}: the browser that reads this Site cannot be reached (${report.reason || 'no reason given'}); its checks wait for it`,
    )
    tally.stoppedEarly = true
    return 'end'
  }
  counts.checked++
  if (report.fetched) troubleOver(log, `browser:${site.key}`, { site: site.key }, `lane ${site.name}: the browser reads this Site again`)
  if (report.outcome !== 'refused' && report.fetched)
    troubleOver(log, `refused:${site.key}`, { site: site.key }, `lane ${site.name}: the Site answers again after refusing`)
  if (report.outcome === 'refused') {
    counts.refused++
    await backOff(deps, tally, report)
    tally.stoppedEarly = true
    return 'end'
  }
  if (report.outcome === 'no-chapter') counts.no_chapter++
  else if (report.outcome === 'unfetchable') counts.unfetchable++
  else if (report.outcome === 'error') counts.errors++
  else if (report.latest?.newChapter) {
    const s = report.latest.series
    tally.newChapters.push({
      site: site.key,
      seriesId: s.series_id,
      title: s.title,
      chapter: s.latest_chapter!,
      label: s.latest_chapter_label,
      url: s.latest_chapter_url || s.series_url,
    })
  }
  return loop.signal.aborted ? 'stop' : 'next'
}

/** Whether the Site's oldest wanted cover has waited a whole ceiling for spare time. */
function coverOverdue(deps: PassDeps, now: number): boolean {
  const oldest = deps.covers?.nextWanted(deps.site.key)
  return oldest !== undefined && now - oldest.at >= deps.site.pace.ceilingMs
}

/** Fetches wanted covers (lanes/covers.ts); a refusal backs the Lane off and ends the pass's requests. */
async function coversStep(deps: PassDeps, tally: Tally, run: CoverRun): Promise<'next' | 'stop'> {
  if (tally.stoppedEarly) return 'next'
  let covered: Awaited<ReturnType<typeof fetchCovers>>
  try {
    covered = await fetchCovers(deps, run)
  } catch (error) {
    // The store could not be read (a locked file): the covers wait for a later pass; this one still writes its row.
    deps.log.warn({ site: deps.site.key, err: error }, 'lane: covers left for a later pass: the store could not be read')
    return 'next'
  }
  if (covered.sent > 0) tally.fetched = true
  if (covered.end === 'stop') return 'stop'
  if (covered.end === 'refused') {
    await backOff(deps, tally, covered)
    tally.stoppedEarly = true
  }
  return 'next'
}

/** A refusal: recorded for every Lane and Acquisition, or (the store refused too) slept out by this Lane. */
async function backOff(deps: PassDeps, tally: Tally, report: Pick<CheckReport, 'reason' | 'retryAfterMs'>): Promise<void> {
  const { db, site, clock, log } = deps
  const length = refusalLength(site.pace, report.retryAfterMs)
  const until = clock.now() + length.ms
  try {
    await recordRefusal(db, site.key, until, length.ms)
    const event = length.capped ? 'lane-refused-capped' : 'lane-refused'
    const fields = { event, site: site.key, reason: report.reason, until, backoffMs: length.ms, retryAfterMs: report.retryAfterMs }
    const why = report.reason || 'no reason given'
    warnOnce(
      log,
      `refused:${site.key}`,
      fields,
      length.capped
        ? `lane ${site.name}: the Site refused (${why}) and asked for ${Math.round(report.retryAfterMs! / 3_600_000)} h; backing off for the longest the app waits (a day)`
        : `lane ${site.name}: the Site refused (${why}); backing off ${ageWords(length.ms)} at a time, said once until it answers again`,
    )
  } catch (error) {
    // Not recorded, still honoured: this Lane sleeps the refusal out (a restart forgets it).
    tally.unrecordedRefusalMs = length.ms
    log.error(
      { site: site.key, err: error, backoffMs: length.ms },
      'lane: refused, and the refusal could not be recorded; the Lane sleeps it out',
    )
  }
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
  if (steppedBackMs > 0 || (await lastCheckedAt(db, site.key)) > now) {
    const repaired = await repairFutureStamps(db, site.key, now, steppedBackMs)
    log.warn({ site: site.key, repaired, steppedBackMs }, 'lane: the wall clock was set back; stamps ahead of it were brought back to now')
  }
  const bounded = await boundLaneTimes(db, lane, now, site.pace.refusalBackoffMs)
  return bounded ?? lane
}

/**
 * How far the wall clock was set back since the Lane last looked, for an adaptive Lane (it plans checks ahead on
 * the wall clock, so a step back moves those plans with it, and its updates page's reads and coverage); 0 for a
 * fixed one or without a step.
 */
function wallSteppedBack(deps: PassDeps): number {
  const { clock, site } = deps
  const seen = deps.wallWatch?.steppedBack(clock.now(), clock.monotonic()) ?? 0
  if (site.pace.cadence !== 'adaptive') return 0
  deps.feed?.steppedBack(seen)
  return seen
}

/**
 * Before each check of an adaptive Lane: a wall clock set back since the last look moves the plans made before it
 * now, so the checks this pass plans on the new clock are not moved again at the next pass. Returns the step (0: none).
 */
async function followWallStep(deps: PassDeps): Promise<number> {
  const steppedBackMs = wallSteppedBack(deps)
  if (steppedBackMs === 0) return 0
  const repaired = await repairFutureStamps(deps.db, deps.site.key, deps.clock.now(), steppedBackMs)
  deps.log.warn(
    { site: deps.site.key, repaired, steppedBackMs },
    'lane: the wall clock was set back mid-pass; planned checks ahead of it were brought back with it',
  )
  return steppedBackMs
}

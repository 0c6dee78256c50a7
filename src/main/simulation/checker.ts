/**
 * The invariants, each a named rule checked over the event log (docs/adr/0021-simulation-invariants.md says what
 * each means and the tolerance each timing rule allows). Pure: the same log gives the same violations, so
 * every rule is tested by feeding it a log that breaks it on purpose.
 *
 * Time bases: pace (gaps, the time a Check now or a new chapter may wait, a Lane's silence) is measured on
 * monotonic time; what the store decides (a pause or a refusal in force, the rest between two checks) is
 * judged on the wall time the app saw, since a wall-clock step changes what the store sees but not the pace.
 */
import { RETRY_AFTER_CAP_MS } from '../lanes/decisions'
import type { Pace } from '../sites/site'
import { KEEP_NEWEST } from '../store/chapters'
import type { PassRow } from '../store/schema'
import { isFeedUrl } from './sim-feeds'
import { checkReaderRules, READER_RULES } from './checker-readers'
import { siteEditsAsServed } from './site-edits'
import { checkSearchRules, moveAllowance, moveAllowances, SEARCH_RULES } from './checker-search'
import {
  DB_FAULT_MARK,
  FAULT_OUTCOME,
  type ActionEvent,
  type CheckEvent,
  type LaneEvent,
  type NotifyEvent,
  type PassEvent,
  type RefusalEvent,
  type ReleaseEvent,
  type RequestEvent,
  type SimEvent,
} from './events'

export const RULES = [
  'one-row-per-pass',
  'counts-add-up',
  'error-needs-fault',
  'closed-lane-silent',
  'min-gap',
  'rest',
  'check-now-served',
  'detection-bound',
  'no-new-chapter-unchanged',
  'latest-never-down',
  'proof-of-life',
  'parsed-as-served',
  'actions-succeed',
  'fair-share',
  'chapters-as-served',
  'refusal-respected',
  'finished-not-polled',
  'latest-recorded',
  'gap-kept',
  'acquisition-paced',
  'one-message-per-reader-per-pass',
  'site-edits-as-served',
  ...READER_RULES,
  ...SEARCH_RULES,
] as const
export type RuleName = (typeof RULES)[number]

export interface SiteFacts {
  pace: Pace
  browser: boolean
  /** The longest one check may take (its requests' timeouts, a wait for the browser's tab). */
  checkSlackMs: number
}

export interface CheckerConfig {
  /** Monotonic end of the run: deadlines past it are not judged. */
  end: number
  sites: Record<string, SiteFacts>
  /** How long the browser counts as down after it was unreachable (BrowserHealth's window). */
  browserDownMs?: number
}

export interface Violation {
  rule: RuleName
  seq: number
  mono: number
  site?: string
  series?: string
  message: string
}

export interface UnexplainedError {
  seq: number
  mono: number
  site: string
  series: string
  caller: string
  outcome: string
  reason: string
}

/** One published chapter the app was expected to find, and when (monotonic) it did. */
export interface Detection {
  site: string
  series: string
  chapter: number
  publishedAt: number
  detectedAt: number | null
  /** The latest the rule allowed, or null when it is past the end of the run. */
  deadline: number | null
}

export interface CheckerResult {
  violations: Violation[]
  unexplainedErrors: UnexplainedError[]
  detections: Detection[]
}

const DEFAULT_BROWSER_DOWN_MS = 180_000

type Interval = readonly [number, number]

/** Facts derived once from the log and shared by the rules. */
class Index {
  readonly steps: ActionEvent[]
  readonly lanesStopped: Interval[] = []
  readonly laneEvents = new Map<string, LaneEvent[]>()
  readonly browserDown: Interval[] = []
  readonly firstRequests = new Map<string, RequestEvent[]>()
  readonly checksBySeries = new Map<string, CheckEvent[]>()
  readonly pressesBySeries = new Map<string, ActionEvent[]>()
  readonly sightingsBySeries = new Map<string, ActionEvent[]>()
  readonly finishes = new Map<string, ActionEvent[]>()
  readonly passesBySite = new Map<string, PassEvent[]>()
  readonly dbFaults: Array<{ seq: number; mono: number }> = []

  constructor(
    readonly events: readonly SimEvent[],
    readonly config: CheckerConfig,
  ) {
    this.steps = events.filter((e): e is ActionEvent => e.type === 'action' && e.action === 'clock-step')
    let stoppedAt: number | null = null
    for (const e of events) {
      if (e.type === 'action') stoppedAt = this.#indexAction(e, stoppedAt)
      else if (e.type === 'lane') push(this.laneEvents, e.site, e)
      else if (e.type === 'request' && e.first) push(this.firstRequests, e.series, e)
      else if (e.type === 'check') {
        push(this.checksBySeries, e.series, e)
        // The browser-down window is a wait, so it runs on monotonic time.
        if (e.outcome === 'unreachable') this.browserDown.push([e.mono, e.mono + (config.browserDownMs ?? DEFAULT_BROWSER_DOWN_MS)])
      } else if (e.type === 'pass') push(this.passesBySite, e.site, e)
      else if (e.type === 'db-fault') this.dbFaults.push(e)
    }
    if (stoppedAt !== null) this.lanesStopped.push([stoppedAt, Infinity])
  }

  /** Files one action: the Lanes stopped (returns since when) or started again, and a press, Sighting or Finish that worked. */
  #indexAction(e: ActionEvent, stoppedAt: number | null): number | null {
    if (e.result === 'ok' && e.series) {
      // Accepting a move checks the Series at its new place at the Lane's next turn, as a Check now does.
      if (e.action === 'check-now' || e.action === 'accept-move') push(this.pressesBySeries, e.series, e)
      if (e.action === 'sighting') push(this.sightingsBySeries, e.series, e)
      if (e.action === 'finish') push(this.finishes, e.series, e)
    }
    if (e.action === 'lanes-stop' && stoppedAt === null) return e.mono
    if (e.action === 'lanes-start' && stoppedAt !== null) {
      this.lanesStopped.push([stoppedAt, e.mono])
      return null
    }
    return stoppedAt
  }

  /** Whether a database fault was injected from `mono` up to the event `seq`. */
  dbFaultWithin(mono: number, seq: number): boolean {
    return this.dbFaults.some((f) => f.mono >= mono && f.seq < seq)
  }

  facts(site: string): SiteFacts {
    const facts = this.config.sites[site]
    if (!facts) throw new Error(`simulation checker: no facts for Site "${site}"`)
    return facts
  }

  /** The wall clock's offset from monotonic time at `mono`. */
  offsetAt(mono: number): number {
    let offset = 0
    for (const step of this.steps) if (step.mono <= mono) offset += step.stepMs ?? 0
    return offset
  }

  /** How far the wall clock was stepped forward within (from, to] (monotonic): a wait on it ends that much sooner. */
  forwardWithin(from: number, to: number): number {
    return this.steps.reduce((sum, s) => sum + (s.mono > from && s.mono <= to ? Math.max(0, s.stepMs ?? 0) : 0), 0)
  }

  /** The latest the wall clock read within [from, to] (monotonic). */
  maxWallWithin(from: number, to: number): number {
    let high = to + this.offsetAt(to)
    for (const step of this.steps) if (step.mono > from && step.mono <= to) high = Math.max(high, step.mono + this.offsetAt(step.mono - 1))
    return high
  }

  /** The parts of [from, to) (monotonic) during which the wall clock reads below `wall`. */
  whileWallBelow(wall: number, from: number, to: number): Interval[] {
    const cuts = [from, ...this.steps.map((s) => s.mono).filter((m) => m > from && m < to), to]
    const out: Interval[] = []
    for (let i = 0; i + 1 < cuts.length; i++) {
      const a = cuts[i]!
      const b = cuts[i + 1]!
      const end = Math.min(b, wall - this.offsetAt(a))
      if (end > a) out.push([a, end])
    }
    return out
  }

  /** When the Lane of `site` was closed (paused or refusing, by the store's reading of the wall clock). */
  closedIntervals(site: string, which: 'paused' | 'refusing' | 'either' = 'either'): Interval[] {
    const lanes = this.laneEvents.get(site) ?? []
    const out: Interval[] = []
    lanes.forEach((lane, i) => {
      const until =
        which === 'paused' ? lane.pausedUntil : which === 'refusing' ? lane.refuseUntil : Math.max(lane.pausedUntil, lane.refuseUntil)
      out.push(...this.whileWallBelow(until, lane.mono, lanes[i + 1]?.mono ?? Infinity))
    })
    return out
  }

  readonly #unavailable = new Map<string, Interval[]>()

  /** Every window in which a Lane of `site` could not be expected to work. */
  unavailable(site: string): Interval[] {
    let found = this.#unavailable.get(site)
    if (!found) {
      found = [...this.closedIntervals(site), ...this.lanesStopped, ...(this.facts(site).browser ? this.browserDown : [])]
      this.#unavailable.set(site, found)
    }
    return found
  }

  /** The Lane row in force just before `seq`. */
  laneBefore(site: string, seq: number): LaneEvent | undefined {
    const lanes = this.laneEvents.get(site) ?? []
    return lanes[lastBefore(lanes, seq)]
  }

  /** The gap the Lane of `site` used last before `seq` (its last pass row's, carried forward by skips), or its pace's longest. */
  gapBefore(site: string, seq: number): number {
    const passes = this.passesBySite.get(site) ?? []
    for (let i = lastBefore(passes, seq); i >= 0; i--) {
      const gap = passes[i]!.row?.gap ?? 0
      if (gap > 0) return gap
    }
    return this.facts(site).pace.maxGapMs
  }
}

/** The index of the last event in `list` (ordered by seq) before `seq`, or -1. */
function lastBefore(list: ReadonlyArray<{ seq: number }>, seq: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid]!.seq < seq) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

const overlaps = (intervals: readonly Interval[], from: number, to: number) => intervals.some(([a, b]) => a < to && b > from)
const overlapLength = (intervals: readonly Interval[], from: number, to: number) =>
  intervals.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0)
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`

type Rule = (index: Index, out: Violation[]) => void

/** A pass that failed writing its own row (the row insert, or the Lane row it makes sure of first). */
const rowWriteFault = (message: string) =>
  message.includes(DB_FAULT_MARK) && /on (insert into|select from) poll_passes$|on insert into poll_lanes$/.test(message)

const at = (e: { seq: number; mono: number }) => ({ seq: e.seq, mono: e.mono })

/**
 * Every pass exit writes one row. The exits without one: a stop before the pass's first check ended, and a
 * pass whose row write itself met an injected database fault (there is nothing left to write it with).
 */
const oneRowPerPass: Rule = (index, out) => {
  let stopping = false
  for (const e of index.events) {
    if (e.type === 'action' && e.action === 'lanes-stop') stopping = true
    if (e.type === 'action' && e.action === 'lanes-start') stopping = false
    if (e.type === 'pass' && e.row === null && !stopping)
      out.push({ rule: 'one-row-per-pass', ...at(e), site: e.site, message: 'a pass ended with no row while the Lanes were running' })
    if (e.type === 'pass-failed' && !rowWriteFault(e.message))
      out.push({ rule: 'one-row-per-pass', ...at(e), site: e.site, message: `a pass failed and wrote no row: ${e.message}` })
  }
}

/**
 * Each row's counts are the checks its pass made. A skipped row checked nothing itself: it carries the last
 * row's figures forward, or states the ones it measured before it met the skip, with checked 0.
 */
const countsAddUp: Rule = (index, out) => {
  const open = new Map<string, CheckEvent[]>()
  const previous = new Map<string, PassEvent>()
  for (const e of index.events) {
    if (e.type === 'check' && e.caller === 'lane') push(open, e.site, e)
    if (e.type === 'pass-failed') open.delete(e.site)
    if (e.type !== 'pass') continue
    const checks = open.get(e.site) ?? []
    open.delete(e.site)
    const row = e.row
    if (!row) continue
    const problems = row.skip ? skippedRowProblems(row, checks, previous.get(e.site)?.row) : workedRowProblems(row, checks)
    for (const message of problems) out.push({ rule: 'counts-add-up', ...at(e), site: e.site, message: `row ${row.id}: ${message}` })
    previous.set(e.site, e)
  }
}

/** counts-add-up for a skipped row: no checks, no outcome counts, and its figures carried or measured. */
function skippedRowProblems(row: PassRow, checks: readonly CheckEvent[], prev: PassRow | null | undefined): string[] {
  const problems: string[] = []
  if (checks.length) problems.push(`skip "${row.skip}" but the pass made ${checks.length} check(s)`)
  if (row.refused + row.unreachable + row.no_chapter + row.unfetchable + row.errors > 0)
    problems.push(`skip "${row.skip}" with outcome counts`)
  // Carried forward from the row before, or measured by this pass before it met the skip (a pause found by
  // the gate mid-pass): then it checked nothing, and says so.
  const carried = prev && row.due === prev.due && row.gap === prev.gap && row.clamped === prev.clamped && row.checked === prev.checked
  const measured = row.gap > 0 && row.checked === 0
  if (prev && !carried && !measured)
    problems.push(
      `skip "${row.skip}" with due/gap/clamped/checked ${row.due}/${row.gap}/${row.clamped}/${row.checked}: neither the previous row's ${prev.due}/${prev.gap}/${prev.clamped}/${prev.checked} nor its own (checked 0)`,
    )
  return problems
}

/** counts-add-up for a worked row: each outcome count is its pass's checks', and something due was tried. */
function workedRowProblems(row: PassRow, checks: readonly CheckEvent[]): string[] {
  const problems: string[] = []
  const count = (o: string) => checks.filter((c) => c.outcome === o).length
  const expected = {
    checked: checks.filter((c) => c.outcome !== 'unreachable').length,
    refused: count('refused'),
    unreachable: count('unreachable'),
    no_chapter: count('no-chapter'),
    unfetchable: count('unfetchable'),
    errors: count('error'),
  }
  for (const [field, n] of Object.entries(expected)) {
    const stored = row[field as keyof typeof expected]
    if (stored !== n) problems.push(`${field} is ${stored}, the pass's checks say ${n}`)
  }
  if (row.checked > row.due) problems.push(`checked ${row.checked} > due ${row.due}`)
  // A worked pass takes the first due Series it reads, so due with nothing tried is a stall (or a due figure
  // that counted Series the pass passed over).
  if (row.due > 0 && row.checked + row.unreachable === 0) problems.push(`due ${row.due} but nothing checked or tried`)
  return problems
}

/** A check fails only where a fault was injected into its requests, and a row counts no more failures than its pass met. */
const errorNeedsFault = (index: Index, out: Violation[], unexplained: UnexplainedError[]) => {
  for (const e of index.events) {
    if (e.type !== 'check' || e.outcome === 'chapter' || e.outcome === 'aborted') continue
    if (e.faults.some((f) => FAULT_OUTCOME[f] === e.outcome && (f !== 'database' || index.dbFaultWithin(e.startMono, e.seq)))) continue
    unexplained.push({ seq: e.seq, mono: e.mono, site: e.site, series: e.series, caller: e.caller, outcome: e.outcome, reason: e.reason })
    out.push({
      rule: 'error-needs-fault',
      ...at(e),
      site: e.site,
      series: e.series,
      message: `${e.caller} check counted "${e.outcome}" (${e.reason}) with ${e.faults.length ? `only ${e.faults.join(', ')} injected` : 'no fault injected'}`,
    })
  }
  const faulted = new Map<string, number>()
  for (const e of index.events) {
    if (e.type === 'request' && e.caller === 'lane' && e.fault) faulted.set(e.site, (faulted.get(e.site) ?? 0) + 1)
    // A database fault is not tied to a Site: it may explain a failure in any Lane's pass.
    if (e.type === 'db-fault') for (const site of Object.keys(index.config.sites)) faulted.set(site, (faulted.get(site) ?? 0) + 1)
    if (e.type === 'pass-failed') faulted.delete(e.site)
    if (e.type !== 'pass') continue
    const met = faulted.get(e.site) ?? 0
    faulted.delete(e.site)
    const row = e.row
    if (!row || row.skip) continue
    const failures = row.refused + row.unreachable + row.no_chapter + row.unfetchable + row.errors
    if (failures > met)
      out.push({
        rule: 'error-needs-fault',
        ...at(e),
        site: e.site,
        message: `row ${row.id} counts ${failures} failed check(s); its pass met ${met} injected fault(s)`,
      })
  }
}

/**
 * No check starts while its Lane is closed — paused or refusing — whoever asks, Acquisition included (a paused
 * Site is one the owner asked the app to leave alone). A pause is judged from the owner's side: from the moment
 * the simulation pressed Pause, for the duration it chose, until it pressed Pause or Resume again — less any
 * step forward of the wall clock meanwhile (the store keeps the pause's end as a wall time). A refusal the app
 * stored is judged against the Lane row in force, on the wall time the request went out at; what the Site
 * itself asked for is refusal-respected's.
 */
const closedLaneSilent: Rule = (index, out) => {
  const pauses = new Map<string, ActionEvent>()
  for (const e of index.events) {
    if (e.type === 'action' && e.result === 'ok' && e.site && (e.action === 'pause' || e.action === 'resume')) {
      if (e.action === 'pause' && e.durationMs) pauses.set(e.site, e)
      else pauses.delete(e.site)
    }
    if (e.type !== 'request' || !paced(e)) continue
    const lane = index.laneBefore(e.site, e.seq)
    if (lane && lane.refuseUntil > e.wall)
      out.push({
        rule: 'closed-lane-silent',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `${e.caller} request ${minutes(lane.refuseUntil - e.wall)} before the refusal backoff ends`,
      })
    const pause = pauses.get(e.site)
    const left = pause ? pause.mono + pause.durationMs! - index.forwardWithin(pause.mono, e.mono) - e.mono : 0
    if (pause && e.mono > pause.mono && left > 0)
      out.push({
        rule: 'closed-lane-silent',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `${e.caller} request ${minutes(left)} before the pause pressed ${minutes(e.mono - pause.mono)} earlier ends`,
      })
  }
}

/** A request that takes a turn of its Site's pace: a check's first, a title search, a cover. */
const paced = (e: RequestEvent) => e.first || e.kind === 'search' || e.kind === 'cover'

/** Each paced request with the one to the same Site before it, whoever sent either. */
function* requestPairs(index: Index): Generator<[RequestEvent, RequestEvent]> {
  const last = new Map<string, RequestEvent>()
  for (const e of index.events) {
    if (e.type !== 'request' || !paced(e)) continue
    const prev = last.get(e.site)
    last.set(e.site, e)
    if (prev) yield [prev, e]
  }
}

/** Never two checks of one Site closer than its minGapMs, Lane and Acquisition together (monotonic). */
const minGap: Rule = (index, out) => {
  for (const [prev, e] of requestPairs(index)) {
    const gap = e.mono - prev.mono
    const min = index.facts(e.site).pace.minGapMs
    if (gap < min)
      out.push({
        rule: 'min-gap',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `${prev.caller} then ${e.caller} request ${gap} ms apart (minGapMs ${min})`,
      })
  }
}

/**
 * No Series checked twice within its rest (half of it on an adaptive Site) unless a Check now came between. Allowed when either clock says the
 * rest had passed: monotonic time, or the wall clock at any moment in between (the store decided it was due
 * then; a step back since does not make that decision wrong).
 */
const rest: Rule = (index, out) => {
  // A read of the Site's updates page between two checks may have sighted the Series: a Sighting from the Site is
  // checked at once (docs/adr/0165-site-feeds.md).
  const feedReads = siteFeedReads(index.events)
  const seeds = new Map<string, { mono: number; wall: number; seq: number }>()
  for (const e of index.events)
    if (e.type === 'seed' && e.checkedAt > 0) seeds.set(e.series, { mono: e.checkedAt, wall: e.checkedAt, seq: e.seq })
  for (const [series, requests] of index.firstRequests) {
    if (!series) continue
    const facts = index.facts(requests[0]!.site)
    // An adaptive Site checks a Series inside its expected window at half the rest, never sooner
    // (docs/adr/0014-freshness-per-request.md).
    const shortest = facts.pace.cadence === 'adaptive' ? facts.pace.restMs / 2 : facts.pace.restMs
    const limit = shortest - facts.checkSlackMs
    const presses = index.pressesBySeries.get(series) ?? []
    const pages = feedReads.get(requests[0]!.site) ?? []
    let prev: { mono: number; wall: number; seq: number } | undefined = seeds.get(series)
    for (const e of requests) {
      if (
        prev &&
        e.mono - prev.mono < limit &&
        index.maxWallWithin(prev.mono, e.mono) - prev.wall < limit &&
        !presses.some((p) => p.seq > prev!.seq && p.seq < e.seq) &&
        !pages.some((seq) => seq > prev!.seq && seq < e.seq)
      )
        out.push({
          rule: 'rest',
          ...at(e),
          site: e.site,
          series,
          message: `${e.caller} check ${minutes(e.mono - prev.mono)} after the last one (${facts.pace.cadence === 'adaptive' ? 'inside a window, half the rest' : 'rest'} ${minutes(shortest)}), not forced`,
        })
      prev = e
    }
  }
}

/** The ledger's reads of each Site's updates page (requests of no Series to its page's URL; sim-feeds.ts), by seq. */
function siteFeedReads(events: readonly SimEvent[]): Map<string, number[]> {
  const reads = new Map<string, number[]>()
  for (const e of events)
    if (e.type === 'request' && e.series === '' && isFeedUrl(e.url)) reads.set(e.site, [...(reads.get(e.site) ?? []), e.seq])
  return reads
}

/** A Check now is served within maxPassMs + gap of the press (plus one check's slack), unless its Lane was paused, refusing or down. */
/** How many Acquisitions' first requests the Site saw from `from` up to `to`. */
function acquisitionsBetween(index: Index, site: string, from: number, to: number): number {
  let n = 0
  for (const requests of index.firstRequests.values())
    for (const r of requests) if (r.caller === 'acquisition' && r.site === site && r.mono > from && r.mono < to) n++
  return n
}

const checkNowServed: Rule = (index, out) => {
  for (const presses of index.pressesBySeries.values()) {
    for (const press of presses) {
      const site = press.site!
      const facts = index.facts(site)
      const gap = index.gapBefore(site, press.seq)
      const bound = press.mono + facts.pace.maxPassMs + gap + facts.checkSlackMs
      if (bound > index.config.end) continue
      if (overlaps(index.unavailable(site), press.mono, bound)) continue
      const request = index.firstRequests.get(press.series!)?.find((r) => r.seq > press.seq)
      const check = index.checksBySeries.get(press.series!)?.find((c) => c.seq > press.seq)
      const served = Math.min(request?.mono ?? Infinity, check?.startMono ?? Infinity)
      // Acquisitions queued on the Site hold a Lane turn for up to maxPassMs before it goes ahead (docs/adr/0241):
      // the pass's last check may come that much later, and the pressed Series' own turn waits for the Acquisition
      // in progress. Longer is a Lane held behind the queue, which this rule is here to catch.
      const acquisitionTurn = facts.pace.minGapMs + facts.checkSlackMs
      const held = acquisitionsBetween(index, site, press.mono, served) > 0 ? facts.pace.maxPassMs + gap + 2 * acquisitionTurn : 0
      const deadline = bound + held
      if (served > deadline)
        out.push({
          rule: 'check-now-served',
          ...at(press),
          site,
          series: press.series!,
          message: `Check now ${served === Infinity ? 'never served' : `served after ${minutes(served - press.mono)}`}; allowed ${minutes(deadline - press.mono)}${press.pending === false ? ' (the Series did not read as pending after the press)' : ''}`,
        })
    }
  }
}

/**
 * A chapter published on a tracked Series is found within rest + maxPassMs (plus one check's slack) on a
 * healthy Lane — the ceiling instead of the rest on an adaptive Site. The bound grows by what legitimately delays the Series' next check after its last one
 * before the chapter: time its Lane was closed or down or the Lanes stopped; a wall clock stepped back since
 * (the store sees that stamp in the future until the next pass brings it back to now: the step, at most the
 * time from the check to the step plus a pass and a gap — docs/adr/0021); Check nows served first (a gap
 * each); a failed check (it stamped the Series: the next comes a rest later); a Sighting deferral; the
 * browser's wake threshold; a backlog of due Series ahead of it; a Lane with more Series than it can
 * check in a rest; and, for a Series behind others in the due order (more Readers, or held within a share), the
 * rest's leftover turns it shares (placeCyclesOf).
 */
const detectionBound = (index: Index, out: Violation[], detections: Detection[]) => {
  const pressesBySite = new Map<string, ActionEvent[]>()
  for (const presses of index.pressesBySeries.values()) for (const p of presses) push(pressesBySite, p.site!, p)
  const seeds = new Map<string, number>()
  for (const e of index.events) if (e.type === 'seed' && e.checkedAt > 0) seeds.set(e.series, e.checkedAt)
  const placeCycles = placeCyclesOf(index)
  const moves = moveAllowances(index.events)
  for (const e of index.events) {
    if (e.type !== 'release' || !e.tracked) continue
    const release = e as ReleaseEvent
    const facts = index.facts(release.site)
    const pace = facts.pace
    // An adaptive Site lets a Series rest outside its expected window up to the ceiling, never longer
    // (docs/adr/0014-freshness-per-request.md): that is its turn; a fixed Site's is the rest.
    const turn = pace.cadence === 'adaptive' ? pace.ceilingMs : pace.restMs
    // The due order serves a Series after those with more Readers and, held only by Readers over their share, after
    // every other Reader's (docs/adr/0081): it shares what a rest leaves over. When nothing is, its wait has no bound.
    const place = placeCycles.get(release.seq)
    if (place === Infinity) continue
    const cycle = Math.max(turn, release.eligible * pace.minGapMs, place ?? 0)
    const gap = Math.min(pace.maxGapMs, Math.max(pace.minGapMs, Math.round(pace.restMs / Math.max(1, release.eligible))))
    const base = cycle + pace.maxPassMs + facts.checkSlackMs + (facts.browser ? pace.wakeOldestMs : 0)
    const sightings = release.readers === 1 ? (index.sightingsBySeries.get(release.series) ?? []) : []
    const forced = pressesBySite.get(release.site) ?? []
    const checks = index.checksBySeries.get(release.series) ?? []
    const failedChecks = checks.filter((c) => c.outcome !== 'chapter')
    // The Series' last check before the chapter came out: what its next turn is counted from.
    const lastCheck = Math.max(
      seeds.get(release.series) ?? -Infinity,
      ...(index.firstRequests.get(release.series) ?? []).filter((r) => r.seq < release.seq).map((r) => r.mono),
      ...checks.filter((c) => c.seq < release.seq).map((c) => c.startMono),
    )
    const from = Number.isFinite(lastCheck) ? lastCheck : release.mono - cycle
    const releaseTurn = { release, facts, cycle, gap, base, from, sightings, forced, failedChecks }
    const found = checks.find(
      (c) => c.outcome === 'chapter' && c.startMono >= release.mono && c.served !== null && c.served >= release.chapter,
    )
    let deadline = backloggedDeadline(index, releaseTurn, found)
    // A Series its Site moved: the time until the owner accepted the move found again (docs/adr/0186-…).
    deadline += moveAllowance(moves.get(release.series), release, deadline)
    const finishedSoon = (index.finishes.get(release.series) ?? []).some((f) => f.mono >= release.mono && f.mono <= deadline)
    const judged = deadline <= index.config.end && !finishedSoon
    detections.push({
      site: release.site,
      series: release.series,
      chapter: release.chapter,
      publishedAt: release.mono,
      detectedAt: found?.startMono ?? null,
      deadline: judged ? deadline : null,
    })
    if (!judged) continue
    const detectedAt = found?.startMono ?? Infinity
    if (detectedAt > deadline)
      out.push({
        rule: 'detection-bound',
        ...at(release),
        site: release.site,
        series: release.series,
        message: `chapter ${release.chapter} ${found ? `found after ${minutes(detectedAt - release.mono)}` : 'never found'}; allowed ${minutes(deadline - release.mono)}`,
      })
  }
}

/**
 * For each release, the time its Lane takes to come round to the Series in its place of the due order
 * (docs/design.md#the-due-query): the Series another Reader within their share holds before those only over-share
 * Readers hold (docs/adr/0081-one-reader-bounded.md), and in each the Series with more Readers first. A Series
 * ahead takes at most one check a rest (it is due a rest after its last), so the Series level with it share what a
 * rest leaves over — their number × rest ÷ (checks in a rest − the Series ahead), or Infinity when nothing is left
 * over. Series Finished then take no turn. Holdings only grow in a run (bookmarks are added, never removed).
 */
function placeCyclesOf(index: Index): Map<number, number> {
  const holders = new Map<string, Set<number>>()
  const held = new Map<string, Map<number, number>>()
  const finished = new Set<string>()
  const cycles = new Map<number, number>()
  const hold = (site: string, series: string, reader: number) => {
    if (!holders.has(series)) holders.set(series, new Set())
    if (holders.get(series)!.has(reader)) return
    holders.get(series)!.add(reader)
    if (!held.has(site)) held.set(site, new Map())
    held.get(site)!.set(reader, (held.get(site)!.get(reader) ?? 0) + 1)
  }
  for (const e of index.events) {
    if (e.type === 'seed' && e.finished) finished.add(e.series)
    if (e.type === 'seed') for (const reader of e.holders ?? []) hold(e.site, e.series, reader)
    if (e.type === 'action' && e.action === 'bookmark' && e.result === 'ok' && e.reader !== undefined) hold(e.site!, e.series!, e.reader)
    if (e.type === 'action' && e.result === 'ok' && e.series && e.action === 'finish') finished.add(e.series)
    if (e.type === 'action' && e.result === 'ok' && e.series && e.action === 'unfinish') finished.delete(e.series)
    if (e.type !== 'release' || !e.tracked) continue
    const counts = held.get(e.site)
    if (!counts || counts.size === 0) continue
    const pace = index.facts(e.site).pace
    const capacity = Math.floor(pace.restMs / pace.minGapMs)
    const share = capacity / counts.size
    // The Series' place: its group (0 held within a share, 1 only over it), then its Readers, more first.
    const place = (series: string): [number, number] => {
      const readers = holders.get(series) ?? new Set<number>()
      return [[...readers].some((r) => counts.get(r)! <= share) ? 0 : 1, -readers.size]
    }
    const [group, readers] = place(e.series)
    let ahead = 0
    let level = 0
    for (const key of holders.keys()) {
      if (!key.startsWith(`${e.site}/`) || finished.has(key)) continue
      const [g, r] = place(key)
      if (g < group || (g === group && r < readers)) ahead++
      else if (g === group && r === readers) level++
    }
    cycles.set(e.seq, capacity > ahead ? Math.ceil((Math.max(1, level) * pace.restMs) / (capacity - ahead)) : Infinity)
  }
  return cycles
}

/** What one release's detection bound is counted from (see detectionBound). */
interface ReleaseTurn {
  release: ReleaseEvent
  facts: SiteFacts
  /** The Series' turn, stretched to the time its Lane takes to go round its eligible Series. */
  cycle: number
  gap: number
  /** The bound on a healthy Lane. */
  base: number
  /** The Series' last check before the release (or a cycle before it). */
  from: number
  sightings: readonly ActionEvent[]
  /** The Check nows pressed on the release's Site. */
  forced: readonly ActionEvent[]
  failedChecks: readonly CheckEvent[]
}

/**
 * The deadline with the backlog of due Series ahead of it (a gap each, dueBacklog) as one more delay: the time the
 * backlog adds is time in which the Lane may close, a check fail or a clock step back, counted as the others are.
 */
function backloggedDeadline(index: Index, t: ReleaseTurn, found: CheckEvent | undefined): number {
  let backlogMs = 0
  let deadline = delayedDeadline(index, t, 0)
  // The backlog only grows with the deadline (more passes to read), so this ends; the bound on rounds is a guard.
  for (let round = 0; round < 100; round++) {
    const more = Math.max(0, dueBacklog(index, t.release, found, deadline) - 1) * t.gap
    if (more <= backlogMs) break
    backlogMs = more
    deadline = delayedDeadline(index, t, backlogMs)
  }
  return deadline
}

/**
 * The deadline with what delayed the Series on top of the healthy bound and `backlogMs`. A fixpoint: each delay
 * counts up to the deadline, and the delays it adds may move the deadline past more of them.
 */
function delayedDeadline(index: Index, t: ReleaseTurn, backlogMs: number): number {
  const { release, facts, cycle, gap, base, from } = t
  const pace = facts.pace
  const unavailable = index.unavailable(release.site)
  let deadline = release.mono + base + backlogMs
  for (let round = 0; round < 10_000; round++) {
    const wentBack = index.steps
      .filter((s) => (s.stepMs ?? 0) < 0 && s.mono >= from && s.mono <= deadline)
      .reduce((sum, s) => sum + Math.min(-s.stepMs!, s.mono - from + pace.maxPassMs + gap + facts.checkSlackMs), 0)
    // A Sighting counts as the Series' check: it puts the Series' turn a rest after it. The time the Lane could
    // not work, steps back and presses delay whichever turn is the later one, so they come on top of it.
    const turnFrom = t.sightings
      .filter((s) => s.mono >= release.mono - pace.restMs && s.mono <= deadline)
      .reduce((latest, s) => Math.max(latest, s.mono + pace.restMs + gap - cycle), release.mono)
    let next =
      turnFrom +
      base +
      backlogMs +
      overlapLength(unavailable, from, deadline) +
      wentBack +
      t.forced.filter((p) => p.mono >= from && p.mono <= deadline).length * gap
    // A failed check comes on top of whatever made the Series wait for it: a turn again, and on a Site behind a
    // browser the wake threshold again (the browser sleeps until the oldest due Series has waited it).
    const retry = cycle + (facts.browser ? pace.wakeOldestMs : 0)
    next += t.failedChecks.filter((c) => c.startMono >= release.mono && c.startMono <= deadline).length * retry
    if (next <= deadline) break
    deadline = next
  }
  return deadline
}

/**
 * The due query puts Series with more Readers (then the oldest stamps) first: a Series that comes due while
 * others wait is checked after them, a gap each — across as many passes as that takes (a pass ends at maxPassMs
 * and the next reads the due query again). The backlog is the most any pass saw due between the release and the
 * finding check (never found: up to the deadline).
 */
function dueBacklog(index: Index, release: ReleaseEvent, found: CheckEvent | undefined, deadline: number): number {
  const passes = index.passesBySite.get(release.site) ?? []
  const until = found && found.caller === 'lane' ? found.mono : deadline
  return Math.max(
    1,
    found && found.caller === 'lane' ? (passes[lastBefore(passes, found.seq) + 1]?.row?.due ?? 1) : 1,
    ...passes.filter((p) => p.mono >= release.mono && p.mono <= until && p.row && !p.row.skip).map((p) => p.row!.due),
  )
}

/** A New Chapter only for a Series whose Site shows a chapter it had not shown to an earlier successful check. */
const noNewChapterUnchanged: Rule = (index, out) => {
  const highest = new Map<string, number>()
  const beforeCheck = new Map<string, number>()
  for (const e of index.events) {
    if (e.type === 'seed' && e.latest !== null) highest.set(e.series, e.latest)
    if (e.type === 'check' && e.outcome === 'chapter') {
      beforeCheck.set(e.series, highest.get(e.series) ?? -Infinity)
      if (e.served !== null) highest.set(e.series, Math.max(highest.get(e.series) ?? -Infinity, e.served))
    }
    if (e.type !== 'pass') continue
    for (const chapter of e.newChapters) {
      const before = beforeCheck.get(chapter.series) ?? -Infinity
      if (chapter.chapter <= before)
        out.push({
          rule: 'no-new-chapter-unchanged',
          ...at(e),
          site: e.site,
          series: chapter.series,
          message: `New Chapter ${chapter.chapter}, but the Site had already shown ${before} to an earlier check`,
        })
    }
  }
}

/** The Latest Chapter never moves down, except a check correcting a Sighting's raise. */
const latestNeverDown: Rule = (index, out) => {
  const current = new Map<string, { chapter: number | null; source: string }>()
  for (const e of index.events) {
    if (e.type === 'seed') current.set(e.series, { chapter: e.latest, source: e.latest === null ? '' : 'check' })
    if (e.type !== 'latest') continue
    const prev = current.get(e.series)
    current.set(e.series, { chapter: e.chapter, source: e.source })
    if (!prev || prev.chapter === null) continue
    const down = e.chapter === null || e.chapter < prev.chapter
    if (down && !(prev.source === 'sighting' && e.source === 'check'))
      out.push({
        rule: 'latest-never-down',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `Latest Chapter moved down from ${prev.chapter} (${prev.source || 'none'}) to ${e.chapter} (${e.source || 'none'}) after a ${e.after}`,
      })
  }
}

/**
 * Proof of life: a running Lane writes a pass row at least every max(idleRequeryMs, the refusal still to run)
 * + maxPassMs + maxGapMs + one check's slack (monotonic), plus a gap for each Acquisition the Site took meanwhile
 * (a flood of them holds the Lane's turn back, as fairShare allows) and the longest gap for each read of its
 * updates page (the pass reads it on a turn of its own before its checks; docs/adr/0231-…).
 */
const proofOfLife: Rule = (index, out) => {
  for (const site of Object.keys(index.config.sites)) {
    const facts = index.facts(site)
    const pace = facts.pace
    const base = pace.maxPassMs + pace.maxGapMs + facts.checkSlackMs
    let since: { mono: number; seq: number; allowed: number } | null = null
    // An Acquisition takes a turn of the Site's as a check does: a flood of them holds the Lane's next turn back.
    const acquisitions = index.events.filter((e) => e.type === 'request' && e.first && e.caller === 'acquisition' && e.site === site)
    const pageReads = index.events.filter((e) => e.type === 'request' && e.site === site && e.series === '' && isFeedUrl(e.url))
    const within = (list: readonly SimEvent[], from: number, to: number) => list.filter((r) => r.mono >= from && r.mono < to).length
    const turnsTaken = (from: number, to: number) =>
      within(acquisitions, from, to) * pace.minGapMs + within(pageReads, from, to) * pace.maxGapMs
    const judge = (e: { seq: number; mono: number }, what: string) => {
      if (since && e.mono - since.mono > since.allowed + turnsTaken(since.mono, e.mono))
        out.push({
          rule: 'proof-of-life',
          ...at(e),
          site,
          message: `no pass row for ${minutes(e.mono - since.mono)} (allowed ${minutes(since.allowed + turnsTaken(since.mono, e.mono))}) until ${what}`,
        })
    }
    for (const e of index.events) {
      if (e.type === 'action' && e.action === 'lanes-start') since = { mono: e.mono, seq: e.seq, allowed: pace.idleRequeryMs + base }
      else if (e.type === 'action' && e.action === 'lanes-stop') {
        judge(e, 'the Lanes stopped')
        since = null
      } else if (e.type === 'pass' && e.site === site && e.row && since) {
        judge(e, 'this row')
        // The Lane row the pass acted on: the simulation reads it right after a paused or refusing row (seq + 1), the
        // one place a refusal an Acquisition's search or cover recorded shows (they take no snapshot of their own).
        const lane = index.laneBefore(site, e.seq + 2)
        const refusing = e.row.skip === 'refusing' && lane ? Math.max(0, lane.refuseUntil - e.row.ended_at) : 0
        since = { mono: e.mono, seq: e.seq, allowed: Math.max(pace.idleRequeryMs, refusing) + base }
      }
    }
    if (since) judge({ seq: index.events.length, mono: index.config.end }, 'the end of the run')
  }
}

/** A check that found chapters reports the highest chapter the Site served it (the adapters and the parser read it right). */
const parsedAsServed: Rule = (index, out) => {
  for (const e of index.events) {
    if (e.type === 'check' && e.outcome === 'chapter' && e.reported !== e.served)
      out.push({
        rule: 'parsed-as-served',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `reported chapter ${e.reported}, the Site served ${e.served}`,
      })
  }
}

/**
 * A check that found chapters leaves the stored list equal to what the Site served, for the window kept
 * (docs/adr/0072-chapter-lists-kept-in-a-window.md): every one of the newest KEEP_NEWEST chapters it listed is stored
 * and on the Site, and no stored chapter at or above the lowest of them is one the Site did not list.
 */
const chaptersAsServed: Rule = (index, out) => {
  for (const e of index.events) {
    if (e.type !== 'check' || e.outcome !== 'chapter' || !e.listed?.length || !e.stored) continue
    const window = [...new Set(e.listed)].sort((a, b) => b - a).slice(0, KEEP_NEWEST)
    const lowest = window[window.length - 1]!
    const stored = e.stored.filter((n) => n >= lowest)
    const missing = window.filter((n) => !stored.includes(n))
    const extra = stored.filter((n) => !window.includes(n))
    if (missing.length || extra.length)
      out.push({
        rule: 'chapters-as-served',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `stored chapters differ from the ${window.length} served: missing ${missing.join(', ') || 'none'}; not served ${extra.join(', ') || 'none'}`,
      })
  }
}

/** Every owner and Reader action the simulation makes is valid, so each succeeds. */
const actionsSucceed: Rule = (index, out) => {
  for (const e of index.events) {
    // A search the app declined in words (a Reader past the bound, a closed Lane) is the app's answer, not a failure.
    if (e.type === 'action' && e.action === 'search' && e.declined) continue
    if (e.type === 'action' && e.result !== 'ok' && !(e.result.includes(DB_FAULT_MARK) && index.dbFaultWithin(e.mono, e.seq)))
      out.push({
        rule: 'actions-succeed',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `${e.action} failed: ${e.result}`,
      })
  }
}

/**
 * No request from anyone to a Site inside a refusal it answered (the Sites' ledger): from the refusal for the
 * Site's refusal backoff, or for its `Retry-After` when that asked for longer (up to the day the app waits at
 * most, docs/adr/0047) — less any step forward of the wall clock meanwhile (the store keeps the refusal's end as
 * a wall time). A request at the very instant of the refusal was on its way already.
 */
const refusalRespected: Rule = (index, out) => {
  const closed = new Map<string, { until: number; refusal: RefusalEvent }>()
  for (const e of index.events) {
    if (e.type === 'refusal') {
      const length = Math.max(index.facts(e.site).pace.refusalBackoffMs, Math.min(e.askedMs ?? 0, RETRY_AFTER_CAP_MS))
      const prev = closed.get(e.site)
      if (!prev || e.mono + length > prev.until) closed.set(e.site, { until: e.mono + length, refusal: e })
      continue
    }
    if (e.type !== 'request' || !paced(e)) continue
    const c = closed.get(e.site)
    if (!c || e.mono <= c.refusal.mono) continue
    const early = c.until - index.forwardWithin(c.refusal.mono, e.mono) - e.mono
    if (early > 0)
      out.push({
        rule: 'refusal-respected',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `${e.caller} request ${minutes(e.mono - c.refusal.mono)} after the Site refused (${c.refusal.form}${c.refusal.retryAfter ? `, Retry-After: ${c.refusal.retryAfter}` : ''}); ${minutes(early)} too soon`,
      })
  }
}

/**
 * A Finished Series is fetched only after a Check now pressed since its last request. A request just after the
 * Finish (within one check's slack) is one whose pass read the Series as due before, and waited its turn.
 */
const finishedNotPolled: Rule = (index, out) => {
  const finishedAt = new Map<string, number>()
  const lastRequest = new Map<string, number>()
  for (const e of index.events) {
    if (e.type === 'seed' && e.finished) finishedAt.set(e.series, -Infinity)
    else if (e.type === 'action' && e.result === 'ok' && e.series && (e.action === 'finish' || e.action === 'unfinish')) {
      if (e.action === 'finish') finishedAt.set(e.series, e.mono)
      else finishedAt.delete(e.series)
    } else if (e.type === 'request' && e.first && e.series) {
      const since = finishedAt.get(e.series)
      const previous = lastRequest.get(e.series) ?? -1
      lastRequest.set(e.series, e.seq)
      if (since === undefined || e.mono - since <= index.facts(e.site).checkSlackMs) continue
      if ((index.pressesBySeries.get(e.series) ?? []).some((p) => p.seq > previous && p.seq < e.seq)) continue
      out.push({
        rule: 'finished-not-polled',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `${e.caller} fetched a Series Finished ${Number.isFinite(since) ? `${minutes(e.mono - since)} earlier` : 'before the run'}, with no Check now since its last request`,
      })
    }
  }
}

/**
 * New Chapters reach the Readers (docs/adr/0074-…): at most one message per Reader per pass — each digest follows a
 * pass of its Site that found New Chapters, and names each Reader once — none names a Series its Reader did not
 * hold when it was made, and none a Series no pass found new since a digest last named it (toldAgain).
 */
const oneMessagePerReaderPerPass: Rule = (index, out) => {
  const passes = new Map<string, number>()
  const digests = new Map<string, number>()
  // The Series each Site's passes found new since a digest last named them: a digest tells of no other.
  const fresh = new Map<string, Set<string>>()
  const flag = (e: NotifyEvent, message: string) => out.push({ rule: 'one-message-per-reader-per-pass', ...at(e), site: e.site, message })
  for (const e of index.events) {
    if (e.type === 'pass' && e.newChapters.length > 0) {
      passes.set(e.site, (passes.get(e.site) ?? 0) + 1)
      if (!fresh.has(e.site)) fresh.set(e.site, new Set())
      for (const c of e.newChapters) fresh.get(e.site)!.add(c.series)
    }
    if (e.type !== 'notify') continue
    toldAgain(e, fresh, flag)
    const made = (digests.get(e.site) ?? 0) + 1
    digests.set(e.site, made)
    if (e.site && made > (passes.get(e.site) ?? 0))
      flag(e, `digest ${made} of ${e.site} follows only ${passes.get(e.site) ?? 0} passes that found New Chapters`)
    const seen = new Set<number>()
    for (const m of e.messages) {
      if (seen.has(m.reader)) flag(e, `Reader ${m.reader} has two messages in one digest`)
      seen.add(m.reader)
      const notHeld = m.series.filter((s) => !m.held.includes(s))
      if (notHeld.length) flag(e, `Reader ${m.reader} was told of ${notHeld.join(', ')}, which they do not hold`)
    }
  }
}

/**
 * one-message-per-reader-per-pass: a Site's digest names only Series a pass found new since a digest last named
 * them (a digest the store failed to make is made again after the next pass, with what it held); those it names
 * are told. The digest made at a start (no Site) takes what a stop left, of every Site: judged by none.
 */
function toldAgain(e: NotifyEvent, fresh: Map<string, Set<string>>, flag: (e: NotifyEvent, message: string) => void): void {
  const named = new Set(e.messages.flatMap((m) => m.series))
  if (e.site)
    for (const series of named)
      if (!fresh.get(e.site)?.has(series)) flag(e, `a digest told of ${series} again: no pass found a New Chapter of it since`)
  for (const [site, set] of fresh) if (!e.site || site === e.site) for (const series of named) set.delete(series)
}

/**
 * After each successful check the stored Latest Chapter is the highest chapter the Site served that check,
 * fractional part included — unless a higher Sighting stands, or a higher chapter the Site showed an earlier check
 * and has withdrawn since (the Latest Chapter is the highest the app knows). Read from the snapshot taken as the check ended.
 */
const latestRecorded: Rule = (index, out) => {
  const awaiting = new Map<string, CheckEvent>()
  // The highest chapter the Site had shown before each check: a chapter it withdrew since stays the Latest Chapter.
  const shown = new Map<string, number>()
  const shownBefore = new Map<CheckEvent, number>()
  for (const e of index.events) {
    if (e.type === 'seed' && e.latest !== null) shown.set(e.series, e.latest)
    if (e.type === 'check' && e.outcome === 'chapter' && e.served !== null) {
      awaiting.set(e.series, e)
      shownBefore.set(e, shown.get(e.series) ?? -Infinity)
      shown.set(e.series, Math.max(shown.get(e.series) ?? -Infinity, e.served))
    }
    if (e.type !== 'latest' || e.after !== 'check') continue
    const check = awaiting.get(e.series)
    awaiting.delete(e.series)
    if (!check || e.chapter === check.served) continue
    if (e.source === 'sighting' && e.chapter !== null && e.chapter > check.served!) continue
    if (e.source === 'check' && e.chapter !== null && e.chapter > check.served! && e.chapter <= shownBefore.get(check)!) continue
    out.push({
      rule: 'latest-recorded',
      ...at(e),
      site: e.site,
      series: e.series,
      message: `${check.caller} check was served chapter ${check.served}; the store holds ${e.chapter} (${e.source || 'none'})`,
    })
  }
}

/** How much two requests to one Site may come closer than the gap asked for: the simulation's clock fires timers exactly, so rounding only. */
export const GAP_TOLERANCE_MS = 1

/** Each Lane request's gap: the one its pass computed (its row's), for passes that wrote a row. */
function laneRequestGaps(index: Index): Map<number, number> {
  const gaps = new Map<number, number>()
  const open = new Map<string, RequestEvent[]>()
  for (const e of index.events) {
    if (e.type === 'request' && (e.first || e.kind === 'cover') && e.caller === 'lane') push(open, e.site, e)
    else if (e.type === 'pass-failed') open.delete(e.site)
    else if (e.type === 'pass') {
      const gap = e.row?.gap ?? 0
      const requests = gap > 0 ? (open.get(e.site) ?? []) : []
      for (const r of requests) gaps.set(r.seq, gap)
      open.delete(e.site)
    }
  }
  return gaps
}

/**
 * The spacing, judged from the Sites' ledger against the gap each pass computed. gap-kept: a Lane request comes
 * at least its pass's gap after the Site's previous Lane request. acquisition-paced: a Lane request at least its
 * pass's gap after an Acquisition's (the Lane's turn counts from whoever asked last). Both within
 * GAP_TOLERANCE_MS. An Acquisition itself asks for minGapMs (docs/adr/0013): min-gap judges that.
 */
const spacing: Rule = (index, out) => {
  const gaps = laneRequestGaps(index)
  for (const [prev, e] of requestPairs(index)) {
    const apart = e.mono - prev.mono
    // A search (a Reader's, or the app finding a Series again) asks for minGapMs as an Acquisition does.
    const gap = e.caller === 'lane' && e.kind !== 'search' ? gaps.get(e.seq) : undefined
    if (gap === undefined || apart >= gap - GAP_TOLERANCE_MS) continue
    out.push({
      rule: prev.caller === 'lane' && prev.kind !== 'search' ? 'gap-kept' : 'acquisition-paced',
      ...at(e),
      site: e.site,
      series: e.series,
      message: `${prev.caller}${prev.kind ? ` ${prev.kind}` : ''} then lane${e.kind ? ` ${e.kind}` : ''} request ${apart} ms apart; the pass's gap is ${gap} ms`,
    })
  }
}

/** Checks every rule over the log. */
export function checkInvariants(events: readonly SimEvent[], config: CheckerConfig): CheckerResult {
  const index = new Index(events, config)
  const violations: Violation[] = []
  const unexplainedErrors: UnexplainedError[] = []
  const detections: Detection[] = []
  oneRowPerPass(index, violations)
  countsAddUp(index, violations)
  errorNeedsFault(index, violations, unexplainedErrors)
  closedLaneSilent(index, violations)
  minGap(index, violations)
  rest(index, violations)
  checkNowServed(index, violations)
  detectionBound(index, violations, detections)
  noNewChapterUnchanged(index, violations)
  latestNeverDown(index, violations)
  proofOfLife(index, violations)
  parsedAsServed(index, violations)
  actionsSucceed(index, violations)
  fairShare(index, violations)
  chaptersAsServed(index, violations)
  refusalRespected(index, violations)
  finishedNotPolled(index, violations)
  latestRecorded(index, violations)
  spacing(index, violations)
  oneMessagePerReaderPerPass(index, violations)
  for (const { check, message } of siteEditsAsServed(events))
    violations.push({ rule: 'site-edits-as-served', ...at(check), site: check.site, series: check.series, message })
  violations.push(...checkReaderRules(events, config.end))
  violations.push(
    ...checkSearchRules(events, { end: config.end, facts: (site) => index.facts(site), unavailable: (site) => index.unavailable(site) }),
  )
  violations.sort((a, b) => a.seq - b.seq)
  return { violations, unexplainedErrors, detections }
}

/**
 * Fair share (docs/adr/0081-one-reader-bounded.md): one Reader's flood delays the other Readers' Series by at
 * most one rest. A Series held (since before the span) by a Reader within their share of its Site — a rest's
 * checks (rest / minGap) over the Readers holding any of its Series — is checked again within its turn, one rest
 * more for the Series ahead of it, a pass, a gap and the browser's wake threshold, plus a gap per Acquisition on
 * the Site meanwhile. Shares only shrink in a run (bookmarks are added, never removed), so a Reader within it at
 * the end was within it throughout. Judged on spans nothing else explains: no closed Lane, stopped Lanes or
 * browser down, no Check now on the Site, no clock step, no Sighting of the Series, no database fault, never
 * Finished.
 */
const fairShare: Rule = (index, out) => {
  const since = new Map<string, Map<number, number>>()
  const held = new Map<string, Map<number, number>>()
  const hold = (site: string, series: string, reader: number, seq: number) => {
    if (!since.has(series)) since.set(series, new Map())
    if (since.get(series)!.has(reader)) return
    since.get(series)!.set(reader, seq)
    if (!held.has(site)) held.set(site, new Map())
    held.get(site)!.set(reader, (held.get(site)!.get(reader) ?? 0) + 1)
  }
  const acquisitions = new Map<string, number[]>()
  const presses = new Map<string, number[]>()
  const finished = new Set(index.finishes.keys())
  for (const e of index.events) {
    if (e.type === 'seed' && e.finished) finished.add(e.series)
    if (e.type === 'seed') for (const reader of e.holders ?? []) hold(e.site, e.series, reader, e.seq)
    if (e.type === 'action' && e.action === 'bookmark' && e.result === 'ok' && e.reader !== undefined)
      hold(e.site!, e.series!, e.reader, e.seq)
    if (e.type === 'action' && e.action === 'check-now') push(presses, e.site ?? '', e.mono)
    if (e.type === 'request' && e.first && e.caller === 'acquisition') push(acquisitions, e.site, e.mono)
  }
  for (const [series, holders] of since) {
    if (finished.has(series)) continue
    const site = series.slice(0, series.indexOf('/'))
    const facts = index.facts(site)
    const pace = facts.pace
    const counts = held.get(site)!
    const share = Math.floor(pace.restMs / pace.minGapMs) / counts.size
    const fairSince = Math.min(...[...holders].filter(([reader]) => counts.get(reader)! <= share).map(([, seq]) => seq))
    if (!Number.isFinite(fairSince)) continue
    const turn = pace.cadence === 'adaptive' ? pace.ceilingMs : pace.restMs
    const base = turn + pace.restMs + pace.maxPassMs + pace.maxGapMs + facts.checkSlackMs + (facts.browser ? pace.wakeOldestMs : 0)
    // From the Series' last check before it was held within a share (the seed's stamp), or the bookmark that made it so.
    const first = index.events[fairSince]!
    const start = first.type === 'seed' && first.checkedAt > 0 ? first.checkedAt : first.mono
    const checks = (index.firstRequests.get(series) ?? []).filter((r) => r.seq > fairSince)
    const starts = [start, ...checks.map((r) => r.mono)]
    const sightings = (index.sightingsBySeries.get(series) ?? []).map((g) => g.mono)
    for (let i = 0; i < starts.length; i++) {
      const from = starts[i]!
      const to = starts[i + 1] ?? index.config.end
      const within = (list: number[] | undefined, a = from) => (list ?? []).filter((m) => m > a && m < to).length
      const explained =
        overlaps(index.unavailable(site), from, to) ||
        within(presses.get(site)) > 0 ||
        within(sightings, from - pace.restMs) > 0 ||
        index.steps.some((step) => step.mono > from && step.mono < to) ||
        index.dbFaults.some((f) => f.mono > from && f.mono < to)
      const allowed = base + within(acquisitions.get(site)) * pace.minGapMs
      if (explained || to - from <= allowed || (i === starts.length - 1 && from + allowed > index.config.end)) continue
      out.push({
        rule: 'fair-share',
        seq: checks[i]?.seq ?? index.events.length,
        mono: to,
        site,
        series,
        message: `a Series a Reader holds within their share waited ${minutes(to - from)} for a check; allowed ${minutes(allowed)}`,
      })
    }
  }
}

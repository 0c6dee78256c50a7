/**
 * The simulation's report: the figures (requests per Site per day, chapters published against found,
 * detection delay, pass rows by skip, checks by outcome, errors by cause), the invariant violations and the
 * unexplained errors — as JSON for tools, and a short summary for a person. The release model and each
 * published chapter's detection are kept, so two runs (say, two cadence policies) can be compared.
 */
import { DAY, type Cadence, type World } from './catalogue'
import {
  RULES,
  type CheckerConfig,
  type CheckerResult,
  type Detection,
  type RuleName,
  type UnexplainedError,
  type Violation,
} from './checker'
import type { ActionKind, FaultKind, SimEvent } from './events'
import { editsMet } from './site-edits'
import { searchCoverCounts, searchCoverLine, type SearchCoverCounts } from './report-search'

export interface SimulationReport {
  options: { days: number; series: number; sites: number; seed: number; faults: string; actions: string }
  sites: Array<{
    key: string
    name: string
    fetcher: string
    restMs: number
    /** Series of the Site in the catalogue. */
    series: number
    /** Of those, held by a Reader and not Finished at the start (the Lane's eligible count then). */
    eligibleAtStart: number
  }>
  requests: {
    total: number
    byCaller: { lane: number; acquisition: number }
    /** Requests each simulated day (index 0 = day 1), by Site. */
    perSitePerDay: Record<string, number[]>
    /** Lane and Acquisition requests per New Chapter found (null without one). */
    perNewChapter: number | null
  }
  /** Chapters released on Series a Reader held and the owner had not Finished. */
  chaptersPublished: number
  /** Chapters released on Series no Reader held, or Finished ones (not expected to be found). */
  chaptersPublishedUntracked: number
  /** Of those, found by a check. */
  chaptersDetected: number
  /** Of those, not found within the bound the detection rule allows (judged ones only). */
  chaptersMissed: number
  /** Found or not, still within their bound when the run ended. */
  chaptersPendingAtEnd: number
  /** Times the Latest Chapter moved forward by a check (a burst of chapters is one). */
  newChaptersDetected: number
  /** From publication to the check that found it, over found chapters. */
  detectionDelayMs: { p50: number | null; p95: number | null; max: number | null; count: number }
  passRowsBySkip: Record<string, number>
  checks: { total: number; byOutcome: Record<string, number>; byCaller: { lane: number; acquisition: number } }
  errorsByCause: Record<string, number>
  faultsInjected: Record<FaultKind, number>
  /** Of the requests' faults, those injected into an Acquisition's requests. */
  faultsOnAcquisitions: number
  /** The refusals the Sites answered (their ledger), by form, and how many sent a `Retry-After`. */
  refusals: { byForm: Record<string, number>; withRetryAfter: number }
  browserLaunches: number
  /** Reads of the Sites' updates pages (counted in `requests`; docs/adr/0165-site-feeds.md). */
  feedRequests?: number
  /** Title searches, covers and moves (report-search.ts; counted in `requests` too). */
  searchAndCovers: SearchCoverCounts
  actions: Partial<Record<ActionKind, { ok: number; failed: number }>>
  /** Digests of New Chapters made after passes, and the messages in them (one per Reader told). */
  notifications: NotificationCounts
  /** How often the run met each moment a plain run must meet (scenarioMoments, agenda.ts). */
  scenarios: ScenarioCounts
  invariantViolations: Violation[]
  violationsByRule: Record<RuleName, number>
  unexplainedErrors: UnexplainedError[]
  /** Warnings and errors the app logged, by message. */
  logProblems: Record<string, number>
  detections: Detection[]
  /** Each Series' release model and the chapters it released during the run (monotonic ms). */
  series: Array<{
    key: string
    site: string
    schedule: Array<{ from: number; cadence: Cadence }>
    releases: Array<{ chapter: number; at: number }>
  }>
  /** Real time spent (not deterministic; everything else is, for a seed). */
  runtime: { realMs: number; timersFired: number; events: number }
}

export interface ReportInput {
  options: SimulationReport['options']
  world: World
  events: readonly SimEvent[]
  checked: CheckerResult
  config: CheckerConfig
  faultsInjected: Record<FaultKind, number>
  browserLaunches: number
  /** Reads of the Sites' updates pages (counted in `requests`; docs/adr/0165-site-feeds.md). */
  feedRequests?: number
  logProblems: Record<string, number>
  runtime: SimulationReport['runtime']
}

/** The label the report gives a pass row that reached its loop (an empty skip). */
export const WORKED = '(worked)'

/** The figures counted over the event log in one walk (each map's keys in the order the log first met them). */
interface Tally {
  perSitePerDay: Record<string, number[]>
  byCaller: { lane: number; acquisition: number }
  checksByCaller: { lane: number; acquisition: number }
  byOutcome: Record<string, number>
  errorsByCause: Record<string, number>
  passRowsBySkip: Record<string, number>
  actions: SimulationReport['actions']
  newChapters: number
  untracked: number
  faultsOnAcquisitions: number
  refusals: SimulationReport['refusals']
}

export function buildReport(input: ReportInput): SimulationReport {
  const { world, events, checked } = input
  const t = tallyEvents(events, world, Math.ceil(input.options.days))
  const detections = checked.detections
  const delays = detections.filter((d) => d.detectedAt !== null).map((d) => d.detectedAt! - d.publishedAt)
  const violationsByRule = Object.fromEntries(RULES.map((r) => [r, 0])) as Record<RuleName, number>
  for (const v of checked.violations) violationsByRule[v.rule]++
  const totalRequests = t.byCaller.lane + t.byCaller.acquisition
  return {
    options: input.options,
    sites: siteFigures(world),
    requests: {
      total: totalRequests,
      byCaller: t.byCaller,
      perSitePerDay: t.perSitePerDay,
      perNewChapter: t.newChapters ? round(totalRequests / t.newChapters, 1) : null,
    },
    chaptersPublished: detections.length,
    chaptersPublishedUntracked: t.untracked,
    chaptersDetected: delays.length,
    chaptersMissed: detections.filter((d) => d.deadline !== null && (d.detectedAt === null || d.detectedAt > d.deadline)).length,
    chaptersPendingAtEnd: detections.filter((d) => d.deadline === null).length,
    newChaptersDetected: t.newChapters,
    detectionDelayMs: {
      p50: percentile(delays, 0.5),
      p95: percentile(delays, 0.95),
      max: delays.length ? Math.max(...delays) : null,
      count: delays.length,
    },
    passRowsBySkip: t.passRowsBySkip,
    checks: { total: t.checksByCaller.lane + t.checksByCaller.acquisition, byOutcome: t.byOutcome, byCaller: t.checksByCaller },
    errorsByCause: t.errorsByCause,
    faultsInjected: input.faultsInjected,
    faultsOnAcquisitions: t.faultsOnAcquisitions,
    refusals: t.refusals,
    browserLaunches: input.browserLaunches,
    ...(input.feedRequests ? { feedRequests: input.feedRequests } : {}),
    searchAndCovers: searchCoverCounts(events, world),
    actions: t.actions,
    notifications: notificationCounts(events),
    scenarios: {
      ...scenarioCounts(events),
      withdrawnAndBack: world.series.flatMap((x) => x.chapters).filter((c) => c.withdrawn && c.withdrawn.to <= world.end).length,
      ...editsMetCounts(events),
      flooded: floodedCount(events, world),
    },
    invariantViolations: checked.violations,
    violationsByRule,
    unexplainedErrors: checked.unexplainedErrors,
    logProblems: input.logProblems,
    detections,
    series: seriesModels(world),
    runtime: input.runtime,
  }
}

/** Requests per caller and day, checks by outcome and cause, pass rows by skip, releases, refusals and actions. */
function tallyEvents(events: readonly SimEvent[], world: World, days: number): Tally {
  const t: Tally = {
    perSitePerDay: Object.fromEntries(world.sites.map((s) => [s.site.key, Array<number>(days).fill(0)])),
    byCaller: { lane: 0, acquisition: 0 },
    checksByCaller: { lane: 0, acquisition: 0 },
    byOutcome: {},
    errorsByCause: {},
    passRowsBySkip: {},
    actions: {},
    newChapters: 0,
    untracked: 0,
    faultsOnAcquisitions: 0,
    refusals: { byForm: {}, withRetryAfter: 0 },
  }
  for (const e of events) {
    switch (e.type) {
      case 'request': {
        t.byCaller[e.caller]++
        if (e.fault && e.caller === 'acquisition') t.faultsOnAcquisitions++
        const day = Math.min(days - 1, Math.max(0, Math.floor((e.mono - world.start) / DAY)))
        const row = t.perSitePerDay[e.site]
        if (row) row[day]!++
        break
      }
      case 'check':
        t.checksByCaller[e.caller]++
        t.byOutcome[e.outcome] = (t.byOutcome[e.outcome] ?? 0) + 1
        if (e.outcome !== 'chapter' && e.outcome !== 'aborted') {
          const cause = causeOf(e.outcome, e.reason)
          t.errorsByCause[cause] = (t.errorsByCause[cause] ?? 0) + 1
        }
        break
      case 'pass':
        if (e.row) t.passRowsBySkip[e.row.skip || WORKED] = (t.passRowsBySkip[e.row.skip || WORKED] ?? 0) + 1
        t.newChapters += e.newChapters.length
        break
      case 'release':
        if (!e.tracked) t.untracked++
        break
      case 'refusal':
        t.refusals.byForm[e.form] = (t.refusals.byForm[e.form] ?? 0) + 1
        if (e.retryAfter !== null) t.refusals.withRetryAfter++
        break
      case 'action': {
        const tally = (t.actions[e.action] ??= { ok: 0, failed: 0 })
        if (e.result === 'ok') tally.ok++
        else tally.failed++
        break
      }
    }
  }
  return t
}

/** Each Site as the run had it: its rest, its Series, and how many its Lane had to check at the start. */
function siteFigures(world: World): SimulationReport['sites'] {
  return world.sites.map((s) => ({
    key: s.site.key,
    name: s.site.name,
    fetcher: s.site.fetcher,
    restMs: s.site.pace.restMs,
    series: world.series.filter((x) => x.site === s.site.key).length,
    eligibleAtStart: world.series.filter((x) => x.site === s.site.key && x.initiallyHeld && !x.initiallyFinished).length,
  }))
}

/** Each Series' release model and the chapters it released within the run. */
function seriesModels(world: World): SimulationReport['series'] {
  return world.series.map((s) => ({
    key: s.key,
    site: s.site,
    schedule: s.schedule.map((p) => ({ from: p.from, cadence: p.cadence })),
    releases: s.chapters.filter((c) => c.at >= world.start && c.at < world.end).map((c) => ({ chapter: c.number, at: c.at })),
  }))
}

/** A failed check's cause: its outcome and reason with the numbers, hosts and quoted titles taken out. */
export function causeOf(outcome: string, reason: string): string {
  const general = reason
    .replace(/HTTP (\d)\d\d from \S+/g, 'HTTP $1xx')
    .replace(/\d+ ms/g, 'N ms')
    .replace(/https?:\/\/\S+/g, 'URL')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/Retry-After: .*/, 'Retry-After: …')
  return `${outcome}: ${general}`
}

/** Nearest-rank percentile, or null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits

function duration(ms: number | null): string {
  if (ms === null) return '–'
  if (ms < 60_000) return `${(ms / 1000).toFixed(0)} s`
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`
  return `${(ms / 3_600_000).toFixed(1)} h`
}

const tally = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none'

/**
 * What `npm run simulate` exits with: 1 when an invariant was violated or an error went unexplained, unless the
 * person asked for the report only; else 0.
 */
export function exitCodeFor(report: Pick<SimulationReport, 'invariantViolations' | 'unexplainedErrors'>, reportOnly = false): 0 | 1 {
  return !reportOnly && (report.invariantViolations.length > 0 || report.unexplainedErrors.length > 0) ? 1 : 0
}

/** The few lines a person reads after a run. */
export function formatSummary(report: SimulationReport, start: number): string {
  const o = report.options
  const lines: string[] = []
  const when = (mono: number) => {
    const t = mono - start
    const day = Math.floor(t / DAY) + 1
    const clock = new Date(t % DAY).toISOString().slice(11, 16)
    return `day ${day} ${clock}`
  }
  lines.push(
    `simulation: ${o.days} days, ${o.series} Series on ${o.sites} Sites, seed ${o.seed}, faults ${o.faults}, actions ${o.actions} — ${(report.runtime.realMs / 1000).toFixed(1)} s real`,
  )
  const perDay = Object.entries(report.requests.perSitePerDay)
    .map(([site, days]) => `${site} ${Math.round(days.reduce((a, b) => a + b, 0) / Math.max(1, days.length))}`)
    .join(', ')
  lines.push(
    `requests: ${report.requests.total} (Lane ${report.requests.byCaller.lane}, Acquisition ${report.requests.byCaller.acquisition}${report.feedRequests ? `; updates pages ${report.feedRequests}` : ''}); a day on average: ${perDay}`,
  )
  lines.push(
    `chapters: ${report.chaptersPublished} published on tracked Series, ${report.chaptersDetected} found, ${report.chaptersMissed} missed their bound, ${report.chaptersPendingAtEnd} still within it at the end; ${report.newChaptersDetected} New Chapters; ${report.requests.perNewChapter ?? '–'} requests per New Chapter`,
  )
  const d = report.detectionDelayMs
  lines.push(`detection delay: p50 ${duration(d.p50)}, p95 ${duration(d.p95)}, max ${duration(d.max)}`)
  lines.push(`pass rows by skip: ${tally(report.passRowsBySkip)}`)
  const sc = report.scenarios
  lines.push(
    `scenarios: bookmarks during a pause ${sc.bookmarkDuringPause}, pauses during a Lane's wait ${sc.pauseDuringWait}, Check now on a Finished Series ${sc.checkNowFinished}, on a paused Site ${sc.checkNowPaused}, chapters withdrawn and back ${sc.withdrawnAndBack}, Series in a flood ${sc.flooded}, chapters relabelled ${sc.relabelled}, renumbered ${sc.renumbered}, extra inserted ${sc.extraInserted}`,
  )
  const n = report.notifications
  lines.push(
    `notifications: ${n.messages} messages in ${n.digests} digests; outbox ${n.outbox}; receivers saw ok ${n.deliveries.ok}, refused ${n.deliveries.refused}, dropped ${n.deliveries.dropped} (delivered twice: ${n.deliveredTwice}); Progress ${n.progress}, unread views ${n.unreadViews}`,
  )
  lines.push(searchCoverLine(report.searchAndCovers))
  lines.push(`checks by outcome: ${tally(report.checks.byOutcome)}`)
  lines.push(`errors by cause: ${tally(report.errorsByCause)}`)
  lines.push(`faults injected: ${tally(report.faultsInjected)}; on Acquisitions ${report.faultsOnAcquisitions}`)
  lines.push(`refusals the Sites answered: ${tally(report.refusals.byForm)}; with Retry-After ${report.refusals.withRetryAfter}`)
  lines.push(
    `actions: ${
      Object.entries(report.actions)
        .map(([k, v]) => `${k} ${v.ok}${v.failed ? ` (${v.failed} failed)` : ''}`)
        .join(', ') || 'none'
    }`,
  )
  const violations = report.invariantViolations
  lines.push(`invariants checked: ${RULES.length} (${RULES.join(', ')})`)
  lines.push(
    `invariant violations: ${violations.length}${violations.length ? ` — ${tally(Object.fromEntries(Object.entries(report.violationsByRule).filter(([, n]) => n > 0)))}` : ''}`,
  )
  for (const rule of RULES) {
    const first = violations.filter((v) => v.rule === rule).slice(0, 3)
    for (const v of first) lines.push(`  ${rule}: ${when(v.mono)} ${v.series ?? v.site ?? ''}: ${v.message}`)
  }
  lines.push(`unexplained errors: ${report.unexplainedErrors.length}`)
  for (const u of report.unexplainedErrors.slice(0, 3)) lines.push(`  ${when(u.mono)} ${u.series} (${u.caller}): ${u.outcome}: ${u.reason}`)
  return lines.join('\n')
}

export interface ScenarioCounts {
  /** New Series bookmarked (an Acquisition asked) while their Site was paused. */
  bookmarkDuringPause: number
  /** Pauses pressed while a Check now on the Site was not yet served (its Lane waiting its turn). */
  pauseDuringWait: number
  /** Check now pressed on a Finished Series, and on a Series whose Site was paused. */
  checkNowFinished: number
  checkNowPaused: number
  /** Chapters a Site withdrew and uploaded again during the run. */
  withdrawnAndBack: number
  /** Series one Reader bookmarked in a flood (past their share of the Site). */
  flooded: number
  /** Site edits a check met (docs/adr/0180): a chapter relabelled, renumbered down, an extra inserted below the newest. */
  relabelled: number
  renumbered: number
  extraInserted: number
}

function editsMetCounts(events: readonly SimEvent[]): Pick<ScenarioCounts, 'relabelled' | 'renumbered' | 'extraInserted'> {
  const met = editsMet(events)
  return { relabelled: met.relabel, renumbered: met.renumber, extraInserted: met.extra }
}

function floodedCount(events: readonly SimEvent[], world: World): number {
  const flood = new Set(world.series.filter((s) => s.flood).map((s) => s.key))
  return events.filter((e) => e.type === 'action' && e.action === 'bookmark' && e.result === 'ok' && flood.has(e.series ?? '')).length
}

function scenarioCounts(events: readonly SimEvent[]): ScenarioCounts {
  const counts: ScenarioCounts = {
    bookmarkDuringPause: 0,
    pauseDuringWait: 0,
    checkNowFinished: 0,
    checkNowPaused: 0,
    withdrawnAndBack: 0,
    flooded: 0,
    relabelled: 0,
    renumbered: 0,
    extraInserted: 0,
  }
  const pausedUntil = new Map<string, number>()
  const finished = new Set<string>()
  // A Check now not yet served: the Lane has a due Series and waits its turn.
  const pressed = new Map<string, string>()
  for (const e of events) {
    if (e.type === 'seed' && e.finished) finished.add(e.series)
    else if (e.type === 'request' && e.caller === 'lane' && e.first && pressed.get(e.site) === e.series) pressed.delete(e.site)
    if (e.type !== 'action' || e.result !== 'ok') continue
    const paused = (pausedUntil.get(e.site ?? '') ?? 0) > e.mono
    if (e.action === 'pause') {
      pausedUntil.set(e.site!, e.mono + (e.durationMs ?? 0))
      if (pressed.has(e.site!)) counts.pauseDuringWait++
    } else if (e.action === 'resume') pausedUntil.delete(e.site!)
    else if (e.action === 'finish') finished.add(e.series!)
    else if (e.action === 'unfinish') finished.delete(e.series!)
    else if (e.action === 'bookmark' && e.acquired && paused) counts.bookmarkDuringPause++
    else if (e.action === 'check-now') {
      pressed.set(e.site!, e.series!)
      if (finished.has(e.series!)) counts.checkNowFinished++
      if (paused) counts.checkNowPaused++
    }
  }
  return counts
}

/** The Readers' side: digests and their messages, the outbox, what the receivers saw, Progress recorded. */
export interface NotificationCounts {
  digests: number
  messages: number
  /** Outbox messages the digests queued (one per channel of each Reader told). */
  outbox: number
  /** Deliveries that reached a receiver, by how it answered (its ledger). */
  deliveries: { ok: number; refused: number; dropped: number }
  /** Outbox messages a receiver answered 2xx more than once (the same id again: a hang, a store fault). */
  deliveredTwice: number
  /** Progress the Readers recorded, and views of unread count and next chapter read back. */
  progress: number
  unreadViews: number
}

function notificationCounts(events: readonly SimEvent[]): NotificationCounts {
  const counts: NotificationCounts = {
    digests: 0,
    messages: 0,
    outbox: 0,
    deliveries: { ok: 0, refused: 0, dropped: 0 },
    deliveredTwice: 0,
    progress: 0,
    unreadViews: 0,
  }
  const okIds = new Map<string, number>()
  for (const e of events) {
    if (e.type === 'notify') {
      counts.digests++
      counts.messages += e.messages.length
    } else if (e.type === 'outbox') counts.outbox += e.rows.length
    else if (e.type === 'delivery') {
      counts.deliveries[e.result]++
      if (e.result === 'ok') okIds.set(e.id, (okIds.get(e.id) ?? 0) + 1)
    } else if (e.type === 'action' && e.action === 'progress' && e.result === 'ok') counts.progress++
    else if (e.type === 'unread') counts.unreadViews++
  }
  counts.deliveredTwice = [...okIds.values()].filter((n) => n > 1).length
  return counts
}

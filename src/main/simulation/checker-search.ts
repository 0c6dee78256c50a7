/**
 * The rules on title searches, covers and moves (docs/adr/0185-the-simulation-searches-and-moves.md), judged from
 * the Sites' ledger and the owner's and Readers' actions. Pure, as the other rules (checker.ts); the pacing rules
 * there count search and cover requests as Lane requests.
 */
import { SEARCHES_PER_READER_PER_MINUTE } from '../../shared/search'
import { GONE_AFTER_CHECKS } from '../../shared/series-state'
import type { Pace } from '../sites/site'
import type { ActionEvent, SimEvent } from './events'
import { OWNER_REVIEW_EVERY_MS } from './sim-search'

export const SEARCH_RULES = ['search-bounded', 'cover-once', 'move-found-again', 'moved-keeps-progress'] as const
export type SearchRuleName = (typeof SEARCH_RULES)[number]

export interface SearchViolation {
  rule: SearchRuleName
  seq: number
  mono: number
  site?: string
  series?: string
  message: string
}

export interface SearchRuleFacts {
  end: number
  facts(site: string): { pace: Pace; checkSlackMs: number; browser: boolean }
  /** The windows in which the Site's Lane could not work (closed, stopped, browser down). */
  unavailable(site: string): ReadonlyArray<readonly [number, number]>
}

type Out = SearchViolation[]
const MINUTE = 60_000
const at = (e: { seq: number; mono: number }) => ({ seq: e.seq, mono: e.mono })
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`

/** A Reader's searches stay within the bound the app states: never more than SEARCHES_PER_READER_PER_MINUTE reach the Sites in a minute. */
function searchBounded(events: readonly SimEvent[], out: Out): void {
  const byReader = new Map<number, number[]>()
  for (const e of events) {
    if (e.type !== 'request' || e.kind !== 'search' || e.reader === undefined) continue
    const recent = (byReader.get(e.reader) ?? []).filter((m) => e.mono - m < MINUTE)
    recent.push(e.mono)
    byReader.set(e.reader, recent)
    if (recent.length > SEARCHES_PER_READER_PER_MINUTE)
      out.push({
        rule: 'search-bounded',
        ...at(e),
        site: e.site,
        message: `Reader ${e.reader}'s search ${recent.length} within a minute reached ${e.site}; the app allows ${SEARCHES_PER_READER_PER_MINUTE}`,
      })
  }
}

/** A cover image is fetched once for a cover URL: never again for the same Series and URL once the Site served it. */
function coverOnce(events: readonly SimEvent[], out: Out): void {
  const served = new Set<string>()
  for (const e of events) {
    if (e.type !== 'request' || e.kind !== 'cover') continue
    const key = `${e.series}\n${e.url}`
    if (served.has(key))
      out.push({
        rule: 'cover-once',
        ...at(e),
        site: e.site,
        series: e.series,
        message: `cover ${e.url} fetched again; the Site served it before`,
      })
    if (e.image) served.add(key)
  }
}

/**
 * A moved Series is found again and its move accepted: the owner looks every OWNER_REVIEW_EVERY_MS and accepts after
 * the move's delay, so the acceptance comes within GONE_AFTER_CHECKS + 2 of the Series' turns (the gone checks, the
 * search at the last, one failed try) each with a pass and a check's slack, two looks, the owner's delay, and the
 * time its Lane could not work, or would not check the Series: while the owner has it Finished, no check finds its
 * page gone (a Series Finished from before the deadline to the run's end is not judged). A turn is the Site's rest
 * (its ceiling when adaptive), stretched to the eligible Series a gap apart, plus the browser's wake threshold on a
 * Site behind a browser.
 */
function moveFoundAgain(events: readonly SimEvent[], f: SearchRuleFacts, out: Out): void {
  const eligible = new Map<string, number>()
  for (const e of events) if (e.type === 'release') eligible.set(e.site, Math.max(eligible.get(e.site) ?? 0, e.eligible))
  const accepted = new Map<string, ActionEvent>()
  for (const e of events) if (e.type === 'action' && e.action === 'accept-move' && e.result === 'ok' && e.series) accepted.set(e.series, e)
  const finished = finishedWindows(events)
  for (const e of events) {
    if (e.type !== 'action' || e.action !== 'series-moved' || !e.site || !e.series) continue
    const { pace, checkSlackMs, browser } = f.facts(e.site)
    // A browser Site's Lane sleeps until its oldest due Series has waited the wake threshold: every turn waits it too.
    const wake = browser ? pace.wakeOldestMs : 0
    const turn = Math.max(pace.cadence === 'adaptive' ? pace.ceilingMs : pace.restMs, (eligible.get(e.site) ?? 0) * pace.minGapMs) + wake
    const base = (GONE_AFTER_CHECKS + 2) * (turn + pace.maxPassMs + checkSlackMs) + 2 * OWNER_REVIEW_EVERY_MS + (e.durationMs ?? 0)
    const deadline = waitedDeadline(e.mono, base, [...f.unavailable(e.site), ...(finished.get(e.series) ?? [])])
    const done = accepted.get(e.series)
    if (deadline > f.end || (done && done.mono <= deadline)) continue
    out.push({
      rule: 'move-found-again',
      ...at(e),
      site: e.site,
      series: e.series,
      message: `moved to ${e.url}; ${done ? `accepted after ${minutes(done.mono - e.mono)}` : 'never offered and accepted'}, allowed ${minutes(deadline - e.mono)}`,
    })
  }
}

/** The windows in which the owner had each Series Finished (from before the run when its seed says so; open while not unfinished). */
function finishedWindows(events: readonly SimEvent[]): Map<string, Array<[number, number]>> {
  const windows = new Map<string, Array<[number, number]>>()
  const open = (series: string, from: number) => {
    const list = windows.get(series) ?? []
    if (list.at(-1)?.[1] !== Infinity) list.push([from, Infinity])
    windows.set(series, list)
  }
  for (const e of events) {
    if (e.type === 'seed' && e.finished) open(e.series, -Infinity)
    if (e.type !== 'action' || e.result !== 'ok' || !e.series) continue
    if (e.action === 'finish') open(e.series, e.mono)
    const last = windows.get(e.series)?.at(-1)
    if (e.action === 'unfinish' && last?.[1] === Infinity) last[1] = e.mono
  }
  return windows
}

/**
 * The deadline `base` after `from` with the time in `waits` (overlapping windows counted once) on top. A fixpoint:
 * each window counts up to the deadline, and what it adds may reach more; a window still open at the deadline makes
 * it Infinity.
 */
export function waitedDeadline(from: number, base: number, waits: ReadonlyArray<readonly [number, number]>): number {
  const merged: Array<[number, number]> = []
  for (const [a, b] of [...waits].sort((x, y) => x[0] - y[0])) {
    const last = merged.at(-1)
    if (last && a <= last[1]) last[1] = Math.max(last[1], b)
    else merged.push([a, b])
  }
  let deadline = from + base
  for (let round = 0; round < 10_000; round++) {
    if (merged.some(([a, b]) => b === Infinity && a <= deadline)) return Infinity
    const waited = merged.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, deadline) - Math.max(a, from)), 0)
    if (from + base + waited <= deadline) break
    deadline = from + base + waited
  }
  return deadline
}

/**
 * Progress stays with the Series: each holder's Progress as the app shows it right after the owner accepted a move
 * is what it showed right before (the two views the simulation takes around the acceptance), unless the Reader
 * recorded Progress in between.
 */
function movedKeepsProgress(events: readonly SimEvent[], out: Out): void {
  const before = new Map<string, { progress: number | null; seq: number }>()
  let accept: ActionEvent | null = null
  for (const e of events) {
    if (e.type === 'action' && e.action === 'accept-move' && e.result === 'ok') accept = e
    if (e.type === 'action' && e.action === 'progress' && e.reader !== undefined) before.delete(`${e.reader}|${e.series}`)
    if (e.type !== 'unread') continue
    const key = `${e.reader}|${e.series}`
    const was = before.get(key)
    before.set(key, { progress: e.progress, seq: e.seq })
    if (!accept || accept.series !== e.series || !was || was.seq > accept.seq || e.progress === was.progress) continue
    out.push({
      rule: 'moved-keeps-progress',
      ...at(e),
      site: e.site,
      series: e.series,
      message: `Reader ${e.reader}'s Progress was ${was.progress} before the move was accepted and is ${e.progress} after`,
    })
  }
}

export function checkSearchRules(events: readonly SimEvent[], facts: SearchRuleFacts): SearchViolation[] {
  const out: Out = []
  searchBounded(events, out)
  coverOnce(events, out)
  moveFoundAgain(events, facts, out)
  movedKeepsProgress(events, out)
  return out
}

/**
 * The allowance a moved Series' chapters get on top of their detection bound (detection-bound, checker.ts): the time
 * from the move (or the chapter, when later) to the owner's acceptance, for a chapter out before the acceptance whose
 * bound reaches the move; Infinity while no acceptance came (not judged).
 */
export function moveAllowances(events: readonly SimEvent[]): Map<string, { movedAt: number; acceptedAt: number }> {
  const moves = new Map<string, { movedAt: number; acceptedAt: number }>()
  for (const e of events) {
    if (e.type !== 'action' || !e.series) continue
    if (e.action === 'series-moved') moves.set(e.series, { movedAt: e.mono, acceptedAt: Infinity })
    const move = moves.get(e.series)
    if (e.action === 'accept-move' && e.result === 'ok' && move && move.acceptedAt === Infinity) move.acceptedAt = e.mono
  }
  return moves
}

export function moveAllowance(
  move: { movedAt: number; acceptedAt: number } | undefined,
  release: { mono: number },
  deadline: number,
): number {
  if (!move || release.mono >= move.acceptedAt || deadline < move.movedAt) return 0
  return move.acceptedAt - Math.max(move.movedAt, release.mono)
}

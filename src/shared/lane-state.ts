/**
 * A Lane's state in words (docs/design.md#the-owners-window), from its `poll_lanes` row and latest pass row only — the store is the
 * only source of Lane state (docs/adr/0002). Pure: the window, the tray and tests share it.
 */
import type { LaneView } from './admin-api'
import { ageWords, untilWords } from './format'
import { isStall, isSkip, SKIP_WORDS } from './skip'

export type LaneStateKind = 'working' | 'paused' | 'refusing' | 'asleep' | 'declined' | 'stalled' | 'silent' | 'no-passes'

export interface LaneStateInput {
  pausedUntil: number
  refuseUntil: number
  latestPass: { skip: string; due: number; checked: number; endedAt: number } | null
  /** The Lane's pace: how often it writes a row at the least. */
  pace: { maxPassMs: number; maxGapMs: number; idleRequeryMs: number }
}

export interface LaneState {
  kind: LaneStateKind
  /** One line for a person. */
  words: string
  /** The colour role: attention for paused/refusing/stalled/silent, none otherwise. */
  attention: boolean
}

/**
 * How long a Lane may go without a pass row before it is silent: twice the longest a pass can take plus its
 * sleep. Longer than that, the Lane was not running (the machine slept or the app was closed).
 */
export function silentAfterMs(pace: LaneStateInput['pace']): number {
  return 2 * (pace.maxPassMs + pace.maxGapMs + pace.idleRequeryMs)
}

export function laneState(input: LaneStateInput, now: number, until: (at: number) => string): LaneState {
  if (input.pausedUntil > now) return { kind: 'paused', words: `paused until ${until(input.pausedUntil)}`, attention: true }
  if (input.refuseUntil > now) {
    return {
      kind: 'refusing',
      words: `refusing until ${until(input.refuseUntil)} (the Site showed an anti-bot challenge)`,
      attention: true,
    }
  }
  const pass = input.latestPass
  if (!pass) return { kind: 'no-passes', words: 'no passes yet', attention: false }
  const quiet = now - pass.endedAt
  if (quiet > silentAfterMs(input.pace)) {
    return { kind: 'silent', words: `silent for ${ageWords(quiet)}: the machine slept or the app was closed`, attention: true }
  }
  // A pause or refusal that has since ended: the next pass is on its way.
  if (pass.skip === 'paused' || pass.skip === 'refusing') return { kind: 'working', words: 'resuming', attention: false }
  if (pass.skip === 'asleep') return { kind: 'asleep', words: SKIP_WORDS.asleep, attention: false }
  if (isSkip(pass.skip))
    // `declined` is the design's word (docs/design.md#the-lane-pass); the owner reads what it means.
    return { kind: 'declined', words: `not checking: ${SKIP_WORDS[pass.skip]}`, attention: pass.skip !== 'nothing-eligible' }
  if (isStall(pass)) return { kind: 'stalled', words: `stalled: ${pass.due} due, none checked`, attention: true }
  if (pass.due === 0) return { kind: 'working', words: 'working: nothing due', attention: false }
  return { kind: 'working', words: `working: checked ${pass.checked} of ${pass.due} due`, attention: false }
}

/** The tray's tooltip: "6 Lanes working · 1 paused". */
export function laneSummary(states: readonly LaneState[]): string {
  if (states.length === 0) return 'no Lanes'
  const order: LaneStateKind[] = ['working', 'asleep', 'paused', 'refusing', 'declined', 'stalled', 'silent', 'no-passes']
  const counts = new Map<LaneStateKind, number>()
  for (const s of states) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1)
  const names: Record<LaneStateKind, string> = {
    working: 'working',
    asleep: 'asleep',
    paused: 'paused',
    refusing: 'refusing',
    declined: 'not checking',
    stalled: 'stalled',
    silent: 'silent',
    'no-passes': 'not started',
  }
  const parts = order.filter((k) => counts.has(k)).map((k) => `${counts.get(k)} ${names[k]}`)
  parts[0] = parts[0]!.replace(/^(\d+) /, (_m, n: string) => `${n} ${n === '1' ? 'Lane' : 'Lanes'} `)
  return parts.join(' · ')
}

/** The state of a Lane as the admin contract shows it (the window and the tray read the same words). */
export function laneViewState(lane: LaneView, now: number): LaneState {
  const pass = lane.latestPass
  return laneState(
    {
      pausedUntil: lane.pausedUntil,
      refuseUntil: lane.refuseUntil,
      latestPass: pass && { skip: pass.skip, due: pass.due, checked: pass.checked, endedAt: pass.endedAt },
      pace: lane.pace,
    },
    now,
    (at) => untilWords(at, now),
  )
}

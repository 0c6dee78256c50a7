import { describe, expect, it } from 'vitest'
import { laneState, laneSummary, silentAfterMs, type LaneStateInput } from './lane-state'
import { SKIPS, SKIP_WORDS } from './skip'

const NOW = 1_000_000_000
const pace = { maxPassMs: 300_000, maxGapMs: 300_000, idleRequeryMs: 30_000 }
const until = (at: number) => `T+${(at - NOW) / 60_000}min`
const input = (
  over: Partial<LaneStateInput> & { pass?: Partial<NonNullable<LaneStateInput['latestPass']>> | null } = {},
): LaneStateInput => ({
  pausedUntil: 0,
  refuseUntil: 0,
  pace,
  latestPass: over.pass === null ? null : { skip: '', due: 3, checked: 3, endedAt: NOW - 10_000, ...over.pass },
  ...over,
})

describe('Lane state in words', () => {
  it.each([
    ['working', input(), 'working', 'working: checked 3 of 3 due'],
    ['working with nothing due', input({ pass: { due: 0, checked: 0 } }), 'working', 'working: nothing due'],
    ['paused', input({ pausedUntil: NOW + 3_600_000 }), 'paused', 'paused until T+60min'],
    ['refusing', input({ refuseUntil: NOW + 900_000 }), 'refusing', 'refusing until T+15min (the Site showed an anti-bot challenge)'],
    ['no passes yet', input({ pass: null }), 'no-passes', 'no passes yet'],
    ['stalled (due, none checked, no skip)', input({ pass: { due: 4, checked: 0 } }), 'stalled', 'stalled: 4 due, none checked'],
    ['asleep', input({ pass: { skip: 'asleep' } }), 'asleep', SKIP_WORDS.asleep],
    ['an expired pause', input({ pass: { skip: 'paused' } }), 'working', 'resuming'],
    ['silent', input({ pass: { endedAt: NOW - 3 * 3_600_000 } }), 'silent', 'silent for 3 h: the machine slept or the app was closed'],
  ])('%s', (_name, given, kind, words) => {
    const state = laneState(given, NOW, until)
    expect(state.kind).toBe(kind)
    expect(state.words).toBe(words)
  })

  it.each(SKIPS.filter((s) => !['paused', 'refusing', 'asleep'].includes(s)))(
    'the %s skip is a Lane that declined and said why',
    (skip) => {
      const state = laneState(input({ pass: { skip, due: 5, checked: 0 } }), NOW, until)
      expect(state).toMatchObject({ kind: 'declined', words: `not checking: ${SKIP_WORDS[skip]}` })
    },
  )

  it('a paused Lane is paused even when its last row is old (it sleeps between rows)', () => {
    expect(laneState(input({ pausedUntil: NOW + 60_000, pass: { endedAt: NOW - 86_400_000 } }), NOW, until).kind).toBe('paused')
  })

  it('silence starts after twice the longest a pass and its sleep may take', () => {
    const limit = silentAfterMs(pace)
    expect(laneState(input({ pass: { endedAt: NOW - limit } }), NOW, until).kind).toBe('working')
    expect(laneState(input({ pass: { endedAt: NOW - limit - 1 } }), NOW, until).kind).toBe('silent')
  })

  it('the stall rule needs all three: due > 0, checked = 0, empty skip', () => {
    expect(laneState(input({ pass: { due: 0, checked: 0 } }), NOW, until).kind).not.toBe('stalled')
    expect(laneState(input({ pass: { due: 2, checked: 1 } }), NOW, until).kind).not.toBe('stalled')
    expect(laneState(input({ pass: { due: 2, checked: 0, skip: 'due-query' } }), NOW, until).kind).not.toBe('stalled')
  })
})

describe('the tray summary', () => {
  const st = (kind: Parameters<typeof laneSummary>[0][number]['kind']) => ({ kind, words: '', attention: false })
  it('counts Lanes by state', () => {
    expect(laneSummary([st('working'), st('working'), st('working'), st('working'), st('working'), st('working'), st('paused')])).toBe(
      '6 Lanes working · 1 paused',
    )
    expect(laneSummary([st('working'), st('stalled'), st('stalled')])).toBe('1 Lane working · 2 stalled')
    expect(laneSummary([])).toBe('no Lanes')
  })
})

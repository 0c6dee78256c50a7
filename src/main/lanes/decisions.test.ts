import { describe, expect, it } from 'vitest'
import type { PassSkip } from '../../shared/skip'
import { computeGap, laneGate, RETRY_AFTER_CAP_MS, refusalLength, sleepAfter, wakeDue, type SleepFacts } from './decisions'

const MIN = 60_000
const HOUR = 60 * MIN
const NOW = 1_700_000_000_000

describe('the gap: rest / eligible, clamped', () => {
  const pace = { restMs: HOUR, minGapMs: 5_000, maxGapMs: 5 * MIN }
  it.each([
    ['inside the clamp: the rest shared out', 60, { gap: MIN, clamped: false }],
    ['many Series: held at minGapMs', 10_000, { gap: 5_000, clamped: true }],
    ['few Series: held at maxGapMs', 2, { gap: 5 * MIN, clamped: true }],
    ['nothing eligible (a forced Series only): maxGapMs', 0, { gap: 5 * MIN, clamped: true }],
    ['exactly at minGapMs is not clamped', 720, { gap: 5_000, clamped: false }],
  ])('%s', (_name, eligible, expected) => {
    expect(computeGap(pace, eligible)).toEqual(expected)
  })

  it('nothing eligible is maxGapMs whatever the rest, even none (0 / 0 is no number, never a gap)', () => {
    expect(computeGap({ ...pace, restMs: 0 }, 0)).toEqual({ gap: 5 * MIN, clamped: true })
  })
})

describe("a refusal's length: the backoff, or the Site's Retry-After up to a day", () => {
  const pace = { refusalBackoffMs: 15 * MIN }
  it.each([
    ['no Retry-After: the backoff', undefined, { ms: 15 * MIN, capped: false }],
    ['a Retry-After shorter than the backoff: the backoff', MIN, { ms: 15 * MIN, capped: false }],
    ['a longer Retry-After is honoured', 2 * HOUR, { ms: 2 * HOUR, capped: false }],
    ['exactly a day is honoured, not capped', RETRY_AFTER_CAP_MS, { ms: RETRY_AFTER_CAP_MS, capped: false }],
    ['a day and a second is capped at a day, and says so', RETRY_AFTER_CAP_MS + 1_000, { ms: RETRY_AFTER_CAP_MS, capped: true }],
    ['a year is capped at a day', 365 * 24 * HOUR, { ms: RETRY_AFTER_CAP_MS, capped: true }],
  ])('%s', (_name, retryAfterMs, expected) => {
    expect(refusalLength(pace, retryAfterMs)).toEqual(expected)
  })
})

describe("the Lane's gate: the owner's pause first, then the Site's refusal", () => {
  it.each([
    ['open', { paused_until: 0, refuse_until: 0 }, null],
    ['paused', { paused_until: NOW + 1, refuse_until: 0 }, 'paused'],
    ['refusing', { paused_until: 0, refuse_until: NOW + 1 }, 'refusing'],
    ['paused and refusing: the pause is said', { paused_until: NOW + 1, refuse_until: NOW + 1 }, 'paused'],
    ['a pause ending now has ended', { paused_until: NOW, refuse_until: 0 }, null],
    ['a refusal ending now has ended', { paused_until: 0, refuse_until: NOW }, null],
    ['a pause and a refusal both past', { paused_until: NOW - 1, refuse_until: NOW - 1 }, null],
  ] as const)('%s', (_name, lane, expected) => {
    expect(laneGate(lane, NOW)).toBe(expected)
  })
})

describe('waking a sleeping browser: a forced Series, enough due, or the oldest due waited long enough', () => {
  const pace = { wakeDueCount: 3, wakeOldestMs: 3 * HOUR }
  // The due figures of a pass: how many are due, how many of them forced, and the oldest check among them.
  const due = (ages: number[], forced = 0) => ({
    due: ages.length,
    forced,
    oldestCheckedAt: ages.length ? Math.min(...ages.map((age) => (age === Infinity ? 0 : NOW - age))) : 0,
  })
  it.each([
    ['nothing due', due([]), false],
    ['one fresh Series', due([MIN]), false],
    ['a forced Series alone', due([MIN], 1), true],
    ['a forced Series among unforced ones', due([MIN, 2 * MIN], 1), true],
    ['fewer due than the count, all fresh', due([MIN, 2 * MIN]), false],
    ['exactly the count due', due([MIN, MIN, MIN]), true],
    ['one fewer than the count, all fresh', due([MIN, MIN]), false],
    ['the oldest due waited exactly wakeOldestMs', due([MIN, 3 * HOUR]), true],
    ['the oldest due waited just under wakeOldestMs', due([MIN, 3 * HOUR - 1]), false],
    ['a never-checked Series has waited forever', due([Infinity]), true],
  ])('%s', (_name, list, expected) => {
    expect(wakeDue(pace, list, NOW)).toBe(expected)
  })
})

describe('the sleep after a pass', () => {
  const pace = { restMs: HOUR, idleRequeryMs: 30_000, refusalBackoffMs: 15 * MIN }
  const facts = (skip: PassSkip, over: Partial<SleepFacts> = {}): SleepFacts => ({
    skip,
    now: NOW,
    pace,
    lane: { paused_until: 0, refuse_until: 0 },
    browserDownForMs: 0,
    cutShort: false,
    fetched: false,
    ...over,
  })
  it.each([
    ['a pass that made a request goes straight on', facts('', { fetched: true }), 0],
    ['a pass cut short at maxPassMs goes straight on', facts('', { cutShort: true }), 0],
    ['cut short after requests: straight on', facts('', { cutShort: true, fetched: true }), 0],
    ['a pass with nothing due re-queries after idleRequeryMs', facts(''), 30_000],
    [
      'paused for hours: re-reads the pause after idleRequeryMs',
      facts('paused', { lane: { paused_until: NOW + 6 * HOUR, refuse_until: 0 } }),
      30_000,
    ],
    ['a pause ending sooner: until it ends', facts('paused', { lane: { paused_until: NOW + 7_000, refuse_until: 0 } }), 7_000],
    ['a pause already over: at least 1 ms', facts('paused', { lane: { paused_until: NOW - 5_000, refuse_until: 0 } }), 1],
    ['refusing: until the refusal ends', facts('refusing', { lane: { paused_until: 0, refuse_until: NOW + 10 * MIN } }), 10 * MIN],
    [
      'refusing with a wall clock set back: at most the backoff',
      facts('refusing', { lane: { paused_until: 0, refuse_until: NOW + 10 * HOUR } }),
      15 * MIN,
    ],
    [
      'refusing for a long Retry-After: at most its own length',
      facts('refusing', { lane: { paused_until: 0, refuse_until: NOW + 10 * HOUR, refuse_ms: 2 * HOUR } }),
      2 * HOUR,
    ],
    ['a refusal already over: at least 1 ms', facts('refusing', { lane: { paused_until: 0, refuse_until: NOW - 1 } }), 1],
    ['sidecar-down: until the browser may be tried again', facts('sidecar-down', { browserDownForMs: 12_000 }), 12_000],
    ['sidecar-down for long: re-checks after idleRequeryMs', facts('sidecar-down', { browserDownForMs: 5 * MIN }), 30_000],
    ['sidecar-down with the window just over: at least 1 ms', facts('sidecar-down', { browserDownForMs: 0 }), 1],
    ['nothing-eligible: idleRequeryMs when sooner than a rest', facts('nothing-eligible'), 30_000],
    [
      'nothing-eligible: a rest when sooner than idleRequeryMs',
      facts('nothing-eligible', { pace: { ...pace, restMs: 20_000 }, fetched: true }),
      20_000,
    ],
    ['no-fetcher: idleRequeryMs', facts('no-fetcher'), 30_000],
    ['due-query: idleRequeryMs', facts('due-query'), 30_000],
    ['asleep: idleRequeryMs', facts('asleep'), 30_000],
    ['eligible-count: idleRequeryMs', facts('eligible-count'), 30_000],
  ])('%s', (_name, f, expected) => {
    expect(sleepAfter(f)).toBe(expected)
  })
})

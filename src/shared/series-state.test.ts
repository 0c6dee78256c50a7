import { describe, expect, it } from 'vitest'
import {
  GONE_AFTER_CHECKS,
  goneWords,
  lastCheckWords,
  nextDueAt,
  seriesWaiting,
  unknownLatestWords,
  waitingWords,
  type LaneFacts,
  type LastCheckFacts,
  type SeriesWaitingFacts,
} from './series-state'

const NOW = new Date(2026, 5, 1, 6, 30).getTime()
const MIN = 60_000
const HOUR = 60 * MIN
const pace = { restMs: HOUR, ceilingMs: 24 * HOUR }
const facts = (over: Partial<SeriesWaitingFacts> = {}): SeriesWaitingFacts => ({
  url: 'https://example.org/manga/x/',
  readerCount: 2,
  finishedAt: 0,
  pending: false,
  latestCheckedAt: NOW - 10 * MIN,
  latestSightedAt: 0,
  ...over,
})
const lane = (over: Partial<LaneFacts> = {}): LaneFacts => ({
  site: { ...pace, hasFetcher: true },
  pausedUntil: 0,
  refuseUntil: 0,
  ...over,
})

describe('what a Series waits for', () => {
  it.each([
    ['no URL', facts({ url: '' }), lane(), { kind: 'no-url' }],
    ['no Reader', facts({ readerCount: 0 }), lane(), { kind: 'orphan' }],
    ['a Site no longer configured', facts(), { pausedUntil: 0, refuseUntil: 0 }, { kind: 'no-site' }],
    ['Finished', facts({ finishedAt: 1 }), lane(), { kind: 'finished' }],
    ['Finished with a Check now pending', facts({ finishedAt: 1, pending: true }), lane(), { kind: 'due' }],
    ['a paused Lane', facts({ pending: true }), lane({ pausedUntil: NOW + HOUR }), { kind: 'paused', until: NOW + HOUR }],
    ['a refusing Site', facts({ pending: true }), lane({ refuseUntil: NOW + 15 * MIN }), { kind: 'refusing', until: NOW + 15 * MIN }],
    ['a pause that has ended', facts(), lane({ pausedUntil: NOW - 1 }), { kind: 'next-check', at: NOW + 50 * MIN }],
    ['a browser Site with no browser', facts(), lane({ site: { ...pace, hasFetcher: false } }), { kind: 'no-fetcher' }],
    ['never checked', facts({ latestCheckedAt: 0 }), lane(), { kind: 'due' }],
    ['a Check now pending', facts({ pending: true }), lane(), { kind: 'due' }],
    ['checked within its rest', facts(), lane(), { kind: 'next-check', at: NOW + 50 * MIN }],
    ['its rest has passed', facts({ latestCheckedAt: NOW - 2 * HOUR }), lane(), { kind: 'due' }],
  ])('%s', (_name, given, laneFacts, expected) => {
    expect(seriesWaiting(given, laneFacts, NOW)).toEqual(expected)
  })

  it('a Series held by one Reader and sighted within the rest waits for the Sighting to be a rest old, up to the ceiling', () => {
    const sighted = { readerCount: 1, latestCheckedAt: NOW - 2 * HOUR, latestSightedAt: NOW - 10 * MIN }
    expect(nextDueAt(sighted, pace)).toBe(NOW + 50 * MIN)
    // Held by two Readers: no deferral.
    expect(nextDueAt({ ...sighted, readerCount: 2 }, pace)).toBe(NOW - HOUR)
    // The ceiling bounds the deferral.
    expect(nextDueAt({ readerCount: 1, latestCheckedAt: NOW - 24 * HOUR + MIN, latestSightedAt: NOW }, pace)).toBe(NOW + MIN)
  })
})

describe('the waiting line in words', () => {
  const at = (h: number, m: number) => new Date(2026, 5, 1, h, m).getTime()
  it.each([
    [
      'a refusing Site with a Check now pending',
      { kind: 'refusing', until: at(7, 1) } as const,
      true,
      'Site refusing until 07:01 — your check will wait',
    ],
    ['a refusing Site', { kind: 'refusing', until: at(7, 1) } as const, false, 'Site refusing until 07:01 — checks wait'],
    [
      'a paused Lane with a Check now pending',
      { kind: 'paused', until: at(7, 30) } as const,
      true,
      'Lane paused until 07:30 — your check will wait',
    ],
    ['the next check', { kind: 'next-check', at: NOW + 4 * MIN + 10_000 } as const, false, 'next check in about 4 min'],
    ['the next check in seconds', { kind: 'next-check', at: NOW + 20_000 } as const, false, 'next check in under a minute'],
    ['a pending Check now in line', { kind: 'due' } as const, true, 'your check is in line for the Lane’s next turn'],
    ['no URL', { kind: 'no-url' } as const, false, 'not checked: it has no URL (set one below)'],
  ])('%s', (_name, waiting, pending, words) => {
    expect(waitingWords(waiting, pending, NOW)).toBe(words)
  })
})

describe('what the last check did', () => {
  const row = (over: Partial<LastCheckFacts> = {}): LastCheckFacts => ({
    latestCheckedAt: NOW - 20_000,
    latestChapter: 12,
    lastOutcome: 'chapter',
    lastError: '',
    lastOutcomeAt: NOW - 19_000,
    ...over,
  })
  it.each([
    ['a chapter', row(), 'checked 19 s ago', false],
    ['never', row({ latestCheckedAt: 0, lastOutcome: '', lastOutcomeAt: 0 }), 'never checked', false],
    [
      'a failed check says why, not "checked"',
      row({ lastOutcome: 'error', lastError: 'HTTP 503' }),
      'last check 19 s ago: failed: HTTP 503',
      true,
    ],
    ['a refusal', row({ lastOutcome: 'refused', lastError: '' }), 'last check 19 s ago: the Site refused (an anti-bot challenge)', true],
    [
      'no chapter',
      row({ lastOutcome: 'no-chapter', lastError: 'no chapter matched' }),
      'last check 19 s ago: no chapter on the page: no chapter matched',
      true,
    ],
    ['a check under way', row({ latestCheckedAt: NOW - 2_000, lastOutcomeAt: NOW - HOUR }), 'check started 2 s ago', false],
  ])('%s', (_name, given, words, failed) => {
    expect(lastCheckWords(given, NOW)).toEqual({ words, failed })
  })

  it('says why a Latest Chapter is unknown', () => {
    const unknown = (over: Partial<LastCheckFacts & { url: string }>) =>
      unknownLatestWords({ ...row({ latestChapter: null }), url: 'https://x/', ...over })
    expect(unknown({ latestChapter: 3 })).toBe('')
    expect(unknown({ url: '' })).toBe('no URL to read')
    expect(unknown({ latestCheckedAt: 0 })).toBe('not read yet')
    expect(unknown({ lastOutcome: 'no-chapter' })).toBe('no chapter found')
    expect(unknown({ lastOutcome: 'error' })).toBe('the check failed')
  })
})

describe('a Series whose page is gone (docs/adr/0113-a-series-whose-page-is-gone.md)', () => {
  const HOUR = 3_600_000
  const now = 100 * 86_400_000
  it('is said from the third 404 or 410 in a row, with how long and what the owner can do', () => {
    expect(GONE_AFTER_CHECKS).toBe(3)
    expect(goneWords({ goneChecks: 2, goneSince: now - 5 * HOUR, goneStatus: 404 }, now, 'owner')).toBe('')
    expect(goneWords({ goneChecks: 3, goneSince: now - 5 * HOUR, goneStatus: 404 }, now, 'owner')).toBe(
      'The Site answers “not found” (HTTP 404) for this page: 3 checks in a row, for 5 h — open the Site to find the Series, then change its URL here, or remove it.',
    )
    expect(goneWords({ goneChecks: 7, goneSince: now - 50 * HOUR, goneStatus: 410 }, now, 'reader')).toBe(
      'The Site answers “gone” (HTTP 410) for this page: 7 checks in a row, for 2 d — open the Site to find the Series; the app’s owner can change its URL.',
    )
  })

  it('a run that has not started says nothing', () => {
    expect(goneWords({ goneChecks: 0, goneSince: 0, goneStatus: 0 }, now, 'owner')).toBe('')
  })
})

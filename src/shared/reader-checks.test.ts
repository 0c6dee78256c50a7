/** Say why on the Reader's side (issue 43, ADR 0218): each state of a bookmarked Series' next check in words. */
import { describe, expect, it } from 'vitest'
import { untilWords } from './format'
import { readerCheckNeedsAttention, readerCheckWords } from './reader-check-words'
import { ChecksResponse, type ReaderCheckState } from './reader-checks'

const NOW = 1_800_000_000_000
const MIN = 60_000
const HOUR = 60 * MIN
const next = (why: 'feed' | 'feed-broken' | 'rhythm' | 'round', at = NOW + 3 * HOUR + 5 * MIN): ReaderCheckState => ({
  kind: 'next-check',
  at,
  why,
  everyMs: HOUR,
})

describe("a bookmarked Series' next check, for the Reader", () => {
  it('a planned check: how far ahead, and why it comes then', () => {
    expect(readerCheckWords(next('feed'), NOW)).toBe('next check in about 3 h — this Site’s updates page shows it first')
    expect(readerCheckWords(next('feed-broken'), NOW)).toBe(
      'next check in about 3 h — this Site’s updates page does not read now: its own rhythm until it does',
    )
    expect(readerCheckWords(next('rhythm', NOW + 25 * MIN), NOW)).toBe('next check in about 25 min — when its next chapter is likely')
    expect(readerCheckWords(next('round', NOW + 20_000), NOW)).toBe('next check in under a minute — its Site is checked every 1 h')
  })
  it('a planned check whose time has come, or a Series due: at its Site’s next turn', () => {
    expect(readerCheckWords(next('feed', NOW), NOW)).toBe('checked at its Site’s next turn')
    expect(readerCheckWords({ kind: 'due' }, NOW)).toBe('checked at its Site’s next turn')
  })
  it('not checked now: the pause or refusal and until when, in the accent; the other reasons plainly', () => {
    const paused: ReaderCheckState = { kind: 'paused', until: NOW + 2 * HOUR }
    expect(readerCheckWords(paused, NOW)).toBe(`not checked: Site paused until ${untilWords(NOW + 2 * HOUR, NOW)}`)
    expect(readerCheckWords({ kind: 'refusing', until: NOW + HOUR }, NOW)).toBe(
      `not checked: the Site refuses the app until ${untilWords(NOW + HOUR, NOW)} (an anti-bot challenge)`,
    )
    expect(readerCheckWords({ kind: 'finished' }, NOW)).toBe('Finished: checked only when the owner asks')
    expect(readerCheckWords({ kind: 'no-fetcher' }, NOW)).toBe('not checked: its Site needs a browser the app does not have')
    expect(readerCheckWords({ kind: 'no-url' }, NOW)).toMatch(/^not checked: /)
    expect(readerCheckWords({ kind: 'no-site' }, NOW)).toMatch(/^not checked: /)
    expect(readerCheckWords({ kind: 'orphan' }, NOW)).toMatch(/^not checked: /)
    expect(readerCheckNeedsAttention(paused)).toBe(true)
    expect(readerCheckNeedsAttention({ kind: 'refusing', until: 1 })).toBe(true)
    expect(readerCheckNeedsAttention(next('feed'))).toBe(false)
    expect(readerCheckNeedsAttention({ kind: 'finished' })).toBe(false)
  })
  it('the contract refuses a state it does not name, or a planned check without its reason', () => {
    const ok = { now: NOW, checks: [{ site: 's', seriesId: 'x', check: next('round') }] }
    expect(ChecksResponse.safeParse(ok).success).toBe(true)
    const bad = (check: unknown) => ChecksResponse.safeParse({ now: NOW, checks: [{ site: 's', seriesId: 'x', check }] }).success
    expect(bad({ kind: 'asleep' })).toBe(false)
    expect(bad({ kind: 'next-check', at: NOW, everyMs: HOUR })).toBe(false)
    expect(bad({ kind: 'paused' })).toBe(false)
    expect(bad({ kind: 'due', at: NOW })).toBe(false)
  })
})

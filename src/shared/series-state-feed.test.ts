/** The waiting line of a Series on a Site whose Lane reads its updates page (docs/adr/0165-site-feeds.md). */
import { describe, expect, it } from 'vitest'
import { seriesWaiting, waitingWords, type LaneFacts } from './series-state'

const HOUR = 3_600_000
const now = 1_000 * HOUR
const facts = { url: 'https://a.example/manga/x', readerCount: 2, finishedAt: 0, pending: false, latestSightedAt: 0 }
const lane = (feed?: 'reading' | 'broken'): LaneFacts => ({
  site: { restMs: HOUR, ceilingMs: 24 * HOUR, hasFetcher: true, ...(feed ? { feed } : {}) },
  pausedUntil: 0,
  refuseUntil: 0,
})
const words = (l: LaneFacts, plannedAt: number, checkedAt = now - 5 * 60_000) =>
  waitingWords(seriesWaiting({ ...facts, latestCheckedAt: checkedAt, plannedAt }, l, now), false, now)

describe('say why, with an updates page', () => {
  it('a plan hours ahead says the page shows a New Chapter first', () => {
    expect(words(lane('reading'), now + 3 * HOUR)).toBe('next check in about 3 h — this Site’s updates page shows it first')
  })
  it('a page that does not read says the Series keeps its own rhythm', () => {
    expect(words(lane('broken'), now + 3 * HOUR)).toBe(
      'next check in about 3 h — this Site’s updates page does not read now: its own rhythm until it does',
    )
  })
  it('without a page, or due, or paused, the words are the usual ones', () => {
    expect(words(lane(), now + 3 * HOUR)).toBe('next check in about 3 h')
    expect(words(lane('reading'), now - 1)).toBe('due: the Lane checks it at its next turn')
    const paused = { ...lane('reading'), pausedUntil: now + HOUR }
    expect(words(paused, now + 3 * HOUR)).toMatch(/^Lane paused until /)
  })
})

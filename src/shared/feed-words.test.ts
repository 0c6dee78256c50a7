/** A Site's updates page in the owner's words on its Lane (ADR 0165, 0200). */
import { describe, expect, it } from 'vitest'
import { feedLaneWords, type FeedView } from './feed-words'

const NOW = 1_800_000_000_000
const MIN = 60_000
const feed = (over: Partial<FeedView> = {}): FeedView => ({
  state: 'reading',
  reason: '',
  lastReadAt: NOW - 5 * MIN,
  entries: 20,
  nextReadAt: NOW + 25 * MIN,
  ...over,
})

describe('the updates page on the Lane', () => {
  it('read: when, how many entries, when next', () => {
    expect(feedLaneWords(feed(), NOW)).toBe('Updates page read 5 min ago: 20 entries; next read in about 25 min')
    expect(feedLaneWords(feed({ entries: 1, nextReadAt: NOW - 1 }), NOW)).toBe(
      'Updates page read 5 min ago: 1 entry; next read at its next turn',
    )
  })
  it('fallen back: why, that each Series keeps its own cadence, when it is tried again, when it last read', () => {
    const words = feedLaneWords(feed({ state: 'broken', reason: 'the updates page: no line', nextReadAt: NOW + 2 * 60 * MIN }), NOW)
    expect(words).toBe(
      'Updates page fell back: the updates page: no line — each Series keeps its own cadence; tried again in about 2 h; last read 5 min ago',
    )
    expect(feedLaneWords(feed({ state: 'broken', reason: '', lastReadAt: 0 }), NOW)).toBe(
      'Updates page fell back: it does not read — each Series keeps its own cadence; tried again in about 25 min',
    )
  })
  it('not read yet', () => {
    expect(feedLaneWords(feed({ state: 'unread', lastReadAt: 0, entries: 0, nextReadAt: NOW }), NOW)).toBe(
      'Updates page not read yet: first read at its next turn',
    )
  })
})

/**
 * A Site's updates page in the owner's words on its Lane (docs/adr/0165-site-feeds.md, ADR 0200): when its Lane
 * last read it, how many lines it showed, when it reads next — or that it fell back to each Series' own cadence,
 * and why. Pure: the window and tests share it.
 */
import { ageWords } from './format'

/** What the Lane knows of its Site's updates page (only adaptive Sites whose family publishes one). */
export interface FeedView {
  /** `unread` before its first read; `reading` while it parses; `broken` once it stopped. */
  state: 'unread' | 'reading' | 'broken'
  /** Why it is broken, in words ('' otherwise). */
  reason: string
  /** The last read that parsed (0: none since the app started). */
  lastReadAt: number
  /** Lines that read showed. */
  entries: number
  /** When the Lane reads it next (or tries it again). */
  nextReadAt: number
}

const ahead = (ms: number): string => (ms < 60_000 ? 'under a minute' : `about ${ageWords(ms)}`)

export function feedLaneWords(feed: FeedView, now: number): string {
  const next = feed.nextReadAt > now ? `in ${ahead(feed.nextReadAt - now)}` : 'at its next turn'
  if (feed.state === 'broken') {
    const last = feed.lastReadAt ? `; last read ${ageWords(now - feed.lastReadAt)} ago` : ''
    return `Updates page fell back: ${feed.reason || 'it does not read'} — each Series keeps its own cadence; tried again ${next}${last}`
  }
  if (feed.state === 'unread') return `Updates page not read yet: first read ${next}`
  const lines = `${feed.entries} ${feed.entries === 1 ? 'entry' : 'entries'}`
  return `Updates page read ${ageWords(Math.max(0, now - feed.lastReadAt))} ago: ${lines}; next read ${next}`
}

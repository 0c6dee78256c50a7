/**
 * The Reader's card line for a bookmarked Series' next check (docs/adr/0218-the-readers-next-check.md): the words
 * of a `ReaderCheckState` (reader-checks.ts, its schema) against the page's own clock. Apart from the schema so the
 * window's modules never load zod.
 */
import { ageWords, untilWords } from './format'
import type { NextCheckReason, ReaderCheckState } from './reader-checks'

const WHY: Record<Exclude<NextCheckReason, 'round'>, string> = {
  feed: 'this Site’s updates page shows it first',
  'feed-broken': 'this Site’s updates page does not read now: its own rhythm until it does',
  rhythm: 'when its next chapter is likely',
}

const ahead = (ms: number): string => (ms < 60_000 ? 'under a minute' : `about ${ageWords(ms)}`)

/** The card's line: when the Series is checked next and why, or why it is not checked now. */
export function readerCheckWords(state: ReaderCheckState, now: number): string {
  switch (state.kind) {
    case 'no-url':
      return 'not checked: it has no address on its Site yet'
    case 'orphan':
      return 'not checked: no Reader holds it'
    case 'no-site':
      return 'not checked: its Site is not set up in the app'
    case 'finished':
      return 'Finished: checked only when the owner asks'
    case 'no-fetcher':
      return 'not checked: its Site needs a browser the app does not have'
    case 'paused':
      return `not checked: Site paused until ${untilWords(state.until, now)}`
    case 'refusing':
      return `not checked: the Site refuses the app until ${untilWords(state.until, now)} (an anti-bot challenge)`
    case 'due':
      return 'checked at its Site’s next turn'
    case 'next-check': {
      if (state.at <= now) return 'checked at its Site’s next turn'
      const why = state.why === 'round' ? `its Site is checked every ${ageWords(state.everyMs)}` : WHY[state.why]
      return `next check in ${ahead(state.at - now)} — ${why}`
    }
  }
}

/** Whether the line tells of something that stops checks (the attention accent). */
export function readerCheckNeedsAttention(state: ReaderCheckState): boolean {
  return state.kind === 'paused' || state.kind === 'refusing' || state.kind === 'no-fetcher' || state.kind === 'no-url'
}

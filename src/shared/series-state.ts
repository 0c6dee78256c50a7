/**
 * A Series' state for a person (docs/adr/0055-series-say-why.md): what its last check did and why, what it is
 * waiting for now, and why its Latest Chapter is unknown. The core computes the waiting facts (it knows the
 * Lane's row, the Site's pace and whether a fetcher exists); the window words them against a ticking clock.
 * Pure: the window and tests share it.
 */
import { ageWords, untilWords } from './format'

/**
 * What a Series waits for now, in the order a Lane's pass asks (docs/design.md#the-lane-pass): the gates a
 * Forced Poll never overrides first, then the Lane's pause and the Site's refusal, then its rest.
 */
export type SeriesWaitingView =
  /** No URL: never checked until the owner sets one. */
  | { kind: 'no-url' }
  /** No Reader holds it: never polled. */
  | { kind: 'orphan' }
  /** Its Site is not configured any more: nothing checks it. */
  | { kind: 'no-site' }
  /** Finished: not polled unless the owner presses Check now. */
  | { kind: 'finished' }
  /** The owner paused its Lane. */
  | { kind: 'paused'; until: number }
  /** Its Site showed an anti-bot challenge; the Lane backs off. */
  | { kind: 'refusing'; until: number }
  /** A browser Site with no browser configured and no fallback. */
  | { kind: 'no-fetcher' }
  /** Due now (or a Check now pending): the Lane takes it at its next turn. */
  | { kind: 'due' }
  /**
   * Checked within its rest: due again at `at`. `feed`: its Site reads its updates page, which shows a New Chapter
   * before this check would ('reading'), or does not read now ('broken'; docs/adr/0165-site-feeds.md).
   */
  | { kind: 'next-check'; at: number; feed?: FeedState }

export interface SeriesWaitingFacts {
  url: string
  readerCount: number
  finishedAt: number
  pending: boolean
  latestCheckedAt: number
  latestSightedAt: number
  /** An adaptive Site's planned check (docs/adr/0014-freshness-per-request.md); 0 or absent: a rest after the check. */
  plannedAt?: number
}

/** A Site's updates page as its Lane last read it: it reads, or it stopped reading. */
export type FeedState = 'reading' | 'broken'

export interface LaneFacts {
  /** Undefined: the Site is not configured. `feed`: its updates page, when its Lane reads one. */
  site?: { restMs: number; ceilingMs: number; hasFetcher: boolean; feed?: FeedState }
  pausedUntil: number
  refuseUntil: number
}

/**
 * When a Series checked at `latestCheckedAt` is due again (the due query, docs/design.md#the-due-query):
 * a rest after its check (on an adaptive Site, its planned check) — and, held by one Reader and sighted within the rest, not before its Sighting is a
 * rest old or the ceiling has passed (the Sighting deferral).
 */
export function nextDueAt(
  facts: Pick<SeriesWaitingFacts, 'readerCount' | 'latestCheckedAt' | 'latestSightedAt' | 'plannedAt'>,
  pace: { restMs: number; ceilingMs: number },
): number {
  const afterRest = facts.plannedAt ? facts.plannedAt : facts.latestCheckedAt + pace.restMs
  if (facts.readerCount > 1) return afterRest
  const deferredUntil = Math.min(facts.latestSightedAt + pace.restMs, facts.latestCheckedAt + pace.ceilingMs)
  return Math.max(afterRest, deferredUntil)
}

/** What a Series waits for at `now`. */
export function seriesWaiting(facts: SeriesWaitingFacts, lane: LaneFacts, now: number): SeriesWaitingView {
  if (!facts.url) return { kind: 'no-url' }
  if (facts.readerCount === 0) return { kind: 'orphan' }
  if (!lane.site) return { kind: 'no-site' }
  if (facts.finishedAt > 0 && !facts.pending) return { kind: 'finished' }
  if (lane.pausedUntil > now) return { kind: 'paused', until: lane.pausedUntil }
  if (lane.refuseUntil > now) return { kind: 'refusing', until: lane.refuseUntil }
  if (!lane.site.hasFetcher) return { kind: 'no-fetcher' }
  if (facts.pending || facts.latestCheckedAt === 0) return { kind: 'due' }
  const at = nextDueAt(facts, lane.site)
  if (at <= now) return { kind: 'due' }
  return lane.site.feed ? { kind: 'next-check', at, feed: lane.site.feed } : { kind: 'next-check', at }
}

/** "about 4 min": a time ahead, rounded as people say it. */
function aboutWords(ms: number): string {
  return ms < 60_000 ? 'under a minute' : `about ${ageWords(ms)}`
}

/**
 * The waiting line: what the Series waits for, in words. A pending Check now is told whether it will wait; the
 * pending marker itself keeps no ETA (docs/design.md#the-owners-window) — this line is separate from it.
 */
export function waitingWords(waiting: SeriesWaitingView, pending: boolean, now: number): string {
  const wait = pending ? ' — your check will wait' : ' — checks wait'
  switch (waiting.kind) {
    case 'no-url':
      return 'not checked: it has no URL (set one below)'
    case 'orphan':
      return 'not checked: no Reader holds it'
    case 'no-site':
      return 'not checked: its Site is not configured'
    case 'finished':
      return 'Finished: checked only when you press Check now'
    case 'paused':
      return `Lane paused until ${untilWords(waiting.until, now)}${wait}`
    case 'refusing':
      return `Site refusing until ${untilWords(waiting.until, now)}${wait}`
    case 'no-fetcher':
      return 'waiting for a browser: this Site needs one and none is configured'
    case 'due':
      return pending ? 'your check is in line for the Lane’s next turn' : 'due: the Lane checks it at its next turn'
    case 'next-check':
      return `next check in ${aboutWords(waiting.at - now)}${FEED_WORDS[waiting.feed ?? 'none']}`
  }
}

/** Why the next check is as far as it is, when the Site's updates page is read (docs/adr/0165-site-feeds.md). */
const FEED_WORDS: Record<FeedState | 'none', string> = {
  none: '',
  reading: ' — this Site’s updates page shows it first',
  broken: ' — this Site’s updates page does not read now: its own rhythm until it does',
}

/** Whether the waiting line is something the owner should look at (the attention accent). */
export function waitingNeedsAttention(waiting: SeriesWaitingView): boolean {
  return waiting.kind === 'paused' || waiting.kind === 'refusing' || waiting.kind === 'no-fetcher' || waiting.kind === 'no-url'
}

export interface LastCheckFacts {
  latestCheckedAt: number
  latestChapter: number | null
  lastOutcome: '' | 'chapter' | 'no-chapter' | 'refused' | 'unreachable' | 'unfetchable' | 'error'
  lastError: string
  lastOutcomeAt: number
}

export interface LastCheck {
  /** One line: what the last check did, when, and why it was not a chapter. */
  words: string
  /** The last check did not find a chapter. */
  failed: boolean
}

const OUTCOME_WORDS: Record<Exclude<LastCheckFacts['lastOutcome'], '' | 'chapter'>, string> = {
  'no-chapter': 'no chapter on the page',
  refused: 'the Site refused (an anti-bot challenge)',
  unreachable: 'the browser could not be reached',
  unfetchable: 'not fetched',
  error: 'failed',
}

/** What the last check did and why: never "checked 20 s ago" for a check that failed. */
export function lastCheckWords(row: LastCheckFacts, now: number): LastCheck {
  if (row.latestCheckedAt === 0) return { words: 'never checked', failed: false }
  // No outcome recorded (a first check under way, or a database older than outcomes): the stamp is all there is.
  if (row.lastOutcome === '') return { words: `checked ${ageWords(now - row.latestCheckedAt)} ago`, failed: false }
  // The stamp is written before the fetch and the outcome after it: a stamp newer than the outcome is a check
  // under way, and the outcome shown would be the one before.
  if (row.latestCheckedAt > row.lastOutcomeAt) return { words: `check started ${ageWords(now - row.latestCheckedAt)} ago`, failed: false }
  const ago = `${ageWords(now - row.lastOutcomeAt)} ago`
  if (row.lastOutcome === 'chapter') return { words: `checked ${ago}`, failed: false }
  const why = row.lastError ? `: ${row.lastError}` : ''
  return { words: `last check ${ago}: ${OUTCOME_WORDS[row.lastOutcome]}${why}`, failed: true }
}

/** Why a Latest Chapter is unknown ("—"), in a few words; '' when it is known. */
export function unknownLatestWords(row: LastCheckFacts & { url: string }): string {
  if (row.latestChapter !== null) return ''
  if (!row.url) return 'no URL to read'
  if (row.latestCheckedAt === 0) return 'not read yet'
  if (row.lastOutcome === 'no-chapter') return 'no chapter found'
  if (row.lastOutcome === '' || row.lastOutcome === 'chapter') return 'being read'
  return 'the check failed'
}

/**
 * A Series whose page is gone (docs/adr/0113-a-series-whose-page-is-gone.md): its own page answered 404 or 410
 * on this many checks in a row. One such answer may be a Site's hiccup; three, a rest or more apart, are not.
 */
export const GONE_AFTER_CHECKS = 3

export interface GoneFacts {
  /** Checks in a row whose page answered 404 or 410 (0: not gone). */
  goneChecks: number
  /** When the first of them was. */
  goneSince: number
  /** 404 or 410. */
  goneStatus: number
}

/** Whether a run of "gone" answers is long enough to tell. */
export function isGone(facts: GoneFacts): boolean {
  return facts.goneChecks >= GONE_AFTER_CHECKS
}

/**
 * A gone page in words, with what can be done: the owner can open the Site to find the Series, then change its
 * URL or remove it; a Reader can open the Site, and the owner can change the URL. '' when it is not gone.
 */
export function goneWords(facts: GoneFacts, now: number, who: 'owner' | 'reader'): string {
  if (!isGone(facts)) return ''
  const answer = facts.goneStatus === 410 ? '“gone” (HTTP 410)' : '“not found” (HTTP 404)'
  const since = `${facts.goneChecks} checks in a row, for ${ageWords(Math.max(0, now - facts.goneSince))}`
  const what =
    who === 'owner'
      ? 'open the Site to find the Series, then change its URL here, or remove it'
      : 'open the Site to find the Series; the app’s owner can change its URL'
  return `The Site answers ${answer} for this page: ${since} — ${what}.`
}

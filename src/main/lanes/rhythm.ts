/**
 * A Series' release rhythm, learnt from when its chapters came out, and the next time it deserves a check
 * (docs/adr/0014-freshness-per-request.md, docs/freshness.md). Pure: times in, times out.
 *
 * What it learns from: release observations — a chapter date a page gives (often to the day only) and the
 * moment the app first saw a New Chapter (exact, give or take the checks before it). From them:
 * - **periodic** — releases a whole number of periods apart (a day, a week) at a steady time in the period:
 *   "weekly, Tuesdays ~15:00 UTC";
 * - **interval** — releases a steady interval apart ("every 3 days");
 * - nothing — too few releases, or irregular ones: the Series keeps the fixed rest, longer while it is silent.
 * Then a window around the next expected release: inside it the Series is checked at half its rest; outside it,
 * it rests longer, up to the ceiling. An estimate whose window passed with no chapter twice in a row is dropped
 * until a New Chapter comes.
 */

export const HOUR = 3_600_000
export const DAY = 24 * HOUR
export const WEEK = 7 * DAY

/** When a release happened, and how precisely the app knows it. */
export interface ReleaseObservation {
  /** Unix ms. For a day-precise date, the start of that day (UTC). */
  at: number
  /** Known to the minute (a page's timestamp, or the app's own first sighting); else only the day. */
  exact: boolean
}

export type Rhythm =
  | {
      kind: 'periodic'
      /** DAY or WEEK. */
      periodMs: number
      /** Where in the period releases come (ms from the period's start: Thursday 00:00 UTC for a week, since the epoch began on one). */
      offsetMs: number
      /** How far releases stray from it (the window's half-width before padding). */
      spreadMs: number
      /** Whether the time of day is known (from exact observations) or only the day. */
      timeKnown: boolean
    }
  | { kind: 'interval'; everyMs: number; spreadMs: number; timeKnown: boolean }

/** Releases closer than this are one release (a burst of chapters). */
const SAME_RELEASE_MS = 2 * HOUR
/** At most this many of the newest releases are read. */
const RECENT = 6
/** At least this many releases (so this many − 1 intervals) make an estimate. */
const MIN_RELEASES = 4
/** The share of intervals that must agree. */
const AGREEMENT = 0.75

/** The releases, newest last, as moments: observations of one release merged (the exact one kept). */
export function releaseMoments(observations: readonly ReleaseObservation[]): ReleaseObservation[] {
  const sorted = [...observations].sort((a, b) => a.at - b.at)
  const moments: ReleaseObservation[] = []
  for (const o of sorted) {
    const last = moments.at(-1)
    // A day-precise date and an exact sighting on the same day are one release: keep the exact one.
    const sameDay = last && !(last.exact && o.exact) && Math.floor(last.at / DAY) === Math.floor(o.at / DAY)
    if (last && (o.at - last.at < SAME_RELEASE_MS || sameDay)) {
      if (o.exact && !last.exact) moments[moments.length - 1] = o
      continue
    }
    moments.push(o)
  }
  return moments.slice(-RECENT)
}

/** The rhythm the releases show, or null when they show none (too few, or irregular). */
export function estimateRhythm(observations: readonly ReleaseObservation[]): Rhythm | null {
  const moments = releaseMoments(observations)
  if (moments.length < MIN_RELEASES) return null
  const intervals = moments.slice(1).map((m, i) => m.at - moments[i]!.at)
  for (const periodMs of [DAY, WEEK]) {
    const periodic = periodicFit(moments, intervals, periodMs)
    if (periodic) return periodic
  }
  const sorted = [...intervals].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)]!
  const deviations = intervals.map((i) => Math.abs(i - median)).sort((a, b) => a - b)
  const mad = deviations[Math.floor(deviations.length / 2)]!
  const within = intervals.filter((i) => Math.abs(i - median) <= 0.2 * median).length
  // Three quarters within a fifth of the median also puts the middle deviation (mad) there: no test of its own.
  if (median >= DAY && within / intervals.length >= AGREEMENT) {
    // Dates known only to the day say nothing within it: the window then covers the day.
    const timeKnown = moments.filter((m) => m.exact).length >= 2
    // How far exact releases stray from the interval: a date's midnight says nothing about it.
    const exactIntervals = intervals.filter((_, i) => moments[i]!.exact && moments[i + 1]!.exact)
    const spread = exactIntervals.length >= 2 ? median1(exactIntervals.map((i) => Math.abs(i - median))) : mad
    return { kind: 'interval', everyMs: median, spreadMs: Math.max(spread, timeKnown ? HOUR : DAY / 4), timeKnown }
  }
  return null
}

/** The median of a few values (the upper one of an even count). */
function median1(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Releases a whole number of periods apart (most of them one period), at a steady place in the period. */
function periodicFit(moments: readonly ReleaseObservation[], intervals: readonly number[], periodMs: number): Rhythm | null {
  const slack = periodMs === DAY ? 3 * HOUR : DAY
  const whole = intervals.filter((i) => {
    const n = Math.round(i / periodMs)
    return n >= 1 && n <= 3 && Math.abs(i - n * periodMs) <= slack
  })
  const single = intervals.filter((i) => Math.abs(i - periodMs) <= slack)
  if (whole.length / intervals.length < AGREEMENT || single.length / intervals.length < 0.5) return null
  const exact = moments.filter((m) => m.exact)
  const timeKnown = exact.length >= 2
  // The place in the period: a circular mean of the exact releases; with dates only, of the days' middles.
  const places = timeKnown ? exact.map((m) => m.at % periodMs) : moments.map((m) => (m.at + (m.exact ? 0 : DAY / 2)) % periodMs)
  const { mean, spread } = circular(places, periodMs)
  // A daily rhythm needs the time of day: a date alone says nothing within the day.
  if (periodMs === DAY && !timeKnown) return null
  if (spread > periodMs / 8) return null
  return { kind: 'periodic', periodMs, offsetMs: mean, spreadMs: timeKnown ? spread : Math.max(spread, DAY / 2), timeKnown }
}

/** The circular mean of places in a period, and their spread (a circular standard deviation), in ms. */
function circular(places: readonly number[], periodMs: number): { mean: number; spread: number } {
  let x = 0
  let y = 0
  for (const p of places) {
    const angle = (2 * Math.PI * p) / periodMs
    x += Math.cos(angle)
    y += Math.sin(angle)
  }
  const r = Math.min(1, Math.hypot(x, y) / places.length)
  const mean = ((((Math.atan2(y, x) / (2 * Math.PI)) * periodMs) % periodMs) + periodMs) % periodMs
  // −2 ln r, written so that places all alike (r = 1) stray +0, not −0.
  const spread = (Math.sqrt(Math.abs(2 * Math.log(r))) / (2 * Math.PI)) * periodMs
  return { mean, spread }
}

/** The window the next release is expected in: its centre, its half-width, and how often to look inside it. */
export interface ReleaseWindow {
  at: number
  halfWidthMs: number
  /** Whether the time of day is known: then the Series is checked at half its rest inside the window. */
  timeKnown: boolean
}

/** Where a release is taken to have happened: an exact one when it did; a date only, in the middle of its day. */
export function anchorOf(release: ReleaseObservation): number {
  return release.exact ? release.at : release.at + DAY / 2
}

/**
 * The window of the first expected release after `after` (a release's anchor, or a window already missed);
 * `dayOnly` when `after` is a release known only to its day (a page's date).
 */
export function nextWindow(rhythm: Rhythm, after: number, dayOnly = false): ReleaseWindow {
  const { timeKnown } = rhythm
  if (rhythm.kind === 'interval') {
    const halfWidthMs = timeKnown ? Math.max(3 * HOUR, 2 * rhythm.spreadMs) : DAY / 2 + 3 * HOUR
    return { at: after + rhythm.everyMs, halfWidthMs, timeKnown }
  }
  const halfWidthMs = timeKnown ? Math.max(HOUR, 2.5 * rhythm.spreadMs) : DAY / 2 + 2 * HOUR
  // A release off the rhythm's place (a new weekday, a new hour) moves the place: the next one is expected a
  // period after it, as a schedule change would have it — the older releases only said how long a period is. A
  // release known only to its day says nothing of the hour: it may move the weekday, never the time of day (its
  // anchor, the middle of the day, would move a daily 19:00 rhythm to noon and find every chapter a day late).
  const place = dayOnly ? ((Math.floor(after / DAY) * DAY) % rhythm.periodMs) + (rhythm.offsetMs % DAY) : after % rhythm.periodMs
  const off = Math.abs(place - rhythm.offsetMs)
  const offsetMs = Math.min(off, rhythm.periodMs - off) > halfWidthMs ? place : rhythm.offsetMs
  let at = Math.floor(after / rhythm.periodMs) * rhythm.periodMs + offsetMs
  // The next place after `after`, at least half a period on, so one release is not expected twice.
  while (at <= after + rhythm.periodMs / 2) at += rhythm.periodMs
  return { at, halfWidthMs, timeKnown }
}

/** A Series with no rhythm rests 1/QUIET_SHARE of the time it has been silent (an hour after three silent days)… */
export const QUIET_SHARE = 72
/** …between its rest and this many rests. */
export const QUIET_MAX_RESTS = 2

/**
 * The rest of a Series with no rhythm to go by: the fixed rest, longer the longer it has been silent — the chance
 * that the next hour brings a chapter falls with the silence (a Series on hiatus, finished but not marked so, or
 * between two bursts). One seventy-second of the silence since its last release, from the rest to two rests: a
 * chapter after six silent days is found within two hours. Silent since: the last release or New Chapter known
 * (null: none, the rest).
 */
export function quietRestMs(silentSince: number | null, now: number, restMs: number): number {
  if (silentSince === null) return restMs
  const silentMs = now - silentSince
  return Math.min(Math.max(Math.round(silentMs / QUIET_SHARE), restMs), QUIET_MAX_RESTS * restMs)
}

export interface PlanInput {
  rhythm: Rhythm | null
  /** The newest release the app knows (the Latest Chapter's), or null. */
  lastRelease: ReleaseObservation | null
  /** The check just made (its stamp). */
  checkedAt: number
  /** When the Series last showed life (its last release, or a New Chapter seen since); default: the last release. */
  silentSince?: number | null
  pace: { restMs: number; ceilingMs: number }
}

export interface Plan {
  /** When the Series next deserves a check (its due time). */
  at: number
  /** The window it waits for, if any. */
  window?: ReleaseWindow
  /** How many expected windows passed with no chapter since the last one. */
  misses: number
  /** Why, in a few words. */
  why: string
}

/** An estimate whose windows passed with no chapter this many times in a row is dropped until a New Chapter. */
export const MISSES_TO_DROP = 2

/**
 * When a Series deserves its next check after the one at `checkedAt`: the quiet rest without a usable rhythm;
 * inside the window of the next expected release, half the rest (the rest when only the day is known); outside
 * it, as long as it takes to reach the window — never less than the rest, never more than the ceiling.
 */
export function planNextCheck(input: PlanInput): Plan {
  const { rhythm, checkedAt, pace, lastRelease } = input
  const silentSince = input.silentSince !== undefined ? input.silentSince : lastRelease && anchorOf(lastRelease)
  const fixed = (why: string, misses = 0): Plan => ({ at: checkedAt + quietRestMs(silentSince, checkedAt, pace.restMs), misses, why })
  if (!rhythm || !lastRelease) return fixed('the quiet rest: no steady rhythm')
  // An interval counts from the last release: known only to its day, the next is known only to a day too.
  const counted = rhythm.kind === 'interval' && !lastRelease.exact ? { ...rhythm, timeKnown: false } : rhythm
  let window = nextWindow(counted, anchorOf(lastRelease), !lastRelease.exact)
  let misses = 0
  let passedEnd = 0
  // Windows already over without the chapter: each is a miss, and the next one is what the Series waits for.
  while (window.at + window.halfWidthMs < checkedAt) {
    misses++
    passedEnd = window.at + window.halfWidthMs
    if (misses >= MISSES_TO_DROP) return fixed(`the quiet rest: the expected release did not come ${misses} times`, misses)
    window = nextWindow(counted, window.at)
  }
  const opens = window.at - window.halfWidthMs
  if (checkedAt >= opens) {
    const step = window.timeKnown ? Math.max(Math.round(pace.restMs / 2), 1) : pace.restMs
    return { at: checkedAt + step, window, misses, why: 'inside the expected window' }
  }
  const wait = Math.min(Math.max(opens - checkedAt, pace.restMs), pace.ceilingMs, lateFollowUpMs(passedEnd, checkedAt, pace.restMs))
  return { at: checkedAt + wait, window, misses, why: 'resting until the expected window' }
}

/** A window that passed with nothing found is followed up this many rests after it closed, no longer. */
export const LATE_FOLLOW_UP_RESTS = 8

/**
 * A release expected and not found is most often late, not skipped: for LATE_FOLLOW_UP_RESTS rests after its
 * window closed, the Series waits at most as long as the window has been closed (a rest at least) — checks at
 * about one, two, four and eight rests after it — instead of resting to the next window (issue 43).
 */
export function lateFollowUpMs(passedEnd: number, checkedAt: number, restMs: number): number {
  const since = checkedAt - passedEnd
  if (passedEnd === 0 || since > LATE_FOLLOW_UP_RESTS * restMs) return Number.POSITIVE_INFINITY
  return Math.max(restMs, since)
}

/** A rhythm in words, for the owner: "weekly, Tuesdays ~15:00 UTC", "daily ~09:00 UTC", "every 3 days". */
export function rhythmWords(rhythm: Rhythm | null): string {
  if (!rhythm) return 'no steady rhythm'
  if (rhythm.kind === 'interval') {
    const days = Math.round((rhythm.everyMs / DAY) * 2) / 2
    return days === 1 ? 'every day' : `every ${days} days`
  }
  const quarter = 15 * 60_000
  // Rounded first: a place minutes before the period's end reads as its start (Thursday 00:00), not the day before.
  const place = (Math.round(rhythm.offsetMs / quarter) * quarter) % rhythm.periodMs
  const inDay = place % DAY
  const hhmm = `${String(Math.floor(inDay / HOUR)).padStart(2, '0')}:${String((inDay % HOUR) / 60_000).padStart(2, '0')}`
  if (rhythm.periodMs === DAY) return `daily ~${hhmm} UTC`
  // The epoch began on a Thursday: the week's period starts Thursday 00:00 UTC.
  const weekday = ['Thursdays', 'Fridays', 'Saturdays', 'Sundays', 'Mondays', 'Tuesdays', 'Wednesdays'][Math.floor(place / DAY)]
  return rhythm.timeKnown ? `weekly, ${weekday} ~${hhmm} UTC` : `weekly, ${weekday}`
}

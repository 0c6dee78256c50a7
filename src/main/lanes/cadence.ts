/**
 * An adaptive Site's plan for a Series after a check that read its chapters (docs/adr/0014-freshness-per-request.md,
 * docs/freshness.md): what the check adds to the release observations, whether the rhythm believed so far was
 * right, the rhythm now believed, and when the Series next deserves a check. Pure: the row and the check in,
 * the columns out (written with the Latest Chapter in the check's transaction).
 */
import type { PlanColumns } from '../store/series'
import type { SeriesRow } from '../store/schema'
import {
  anchorOf,
  DAY,
  HOUR,
  estimateRhythm,
  MISSES_TO_DROP,
  planNextCheck,
  QUIET_MAX_RESTS,
  quietRestMs,
  releaseMoments,
  rhythmWords,
  type ReleaseObservation,
  type ReleaseWindow,
  type Rhythm,
} from './rhythm'

/** What the `rhythm` column holds: the rhythm believed, the window the plan waits for, how often it was right. */
export interface Belief {
  rhythm: Rhythm | null
  /** The window the last plan waited for: a New Chapter inside it proves the rhythm, one outside it does not. */
  window?: ReleaseWindow
  /** How many New Chapters came inside the window the rhythm predicted. */
  hits: number
  /** When the last check that read the Series' chapters was made, on the Site's clock (the sightings' start). */
  readAt?: number
  /** How far the Site's clock was ahead of the wall clock then (for a check whose response has no date). */
  offsetMs?: number
  /** When the last New Chapter was found, on the Site's clock (the Series' silence counts from it at the latest). */
  newAt?: number
}

/**
 * A New Chapter's first sighting counts as an exact release when the check before it was at most this many rests
 * earlier: a Lane checks a due Series a little after its rest (its turn in the gap), never exactly on it.
 */
const EXACT_WITHIN_RESTS = 1.5
/** Of a page's dated chapters, the newest this many are read. */
const PAGE_DATES = 12
/**
 * Until a rhythm has predicted a New Chapter once (and whenever it was wrong since), a Series rests outside its
 * window at most this many rests: a rhythm read from old dates alone is often out of date (a new weekday, a new
 * pace), and a chapter it did not foresee is then found a few rests late, not a ceiling late.
 */
export const UNPROVEN_REST_FACTOR = 2

export interface PlanAfterCheckInput {
  row: Pick<SeriesRow, 'rhythm' | 'releases' | 'rhythm_misses'>
  /** The release dates the page gave for its chapters (any order). */
  pageReleases: readonly ReleaseObservation[]
  /** The check found a New Chapter. */
  newChapter: boolean
  /** The Series' check stamp before this check (0 = never checked); read only when no earlier read was kept. */
  previousCheckAt: number
  /** This check's stamp (the wall clock). */
  now: number
  /**
   * How far the Site's clock is ahead of the wall clock, from this check's response (its `Date`); undefined
   * when it gave none (the last one known is used, else none).
   */
  siteOffsetMs?: number
  pace: { restMs: number; ceilingMs: number }
}

/** Reads the `rhythm` column ('' or bad JSON = nothing believed). */
export function readBelief(raw: string): Belief {
  try {
    // '' is no JSON either: it lands in the catch with any other bad text.
    const parsed = JSON.parse(raw) as Partial<Belief>
    return {
      rhythm: parsed.rhythm ?? null,
      hits: parsed.hits ?? 0,
      window: parsed.window || undefined,
      readAt: finiteOrNone(parsed.readAt),
      offsetMs: finiteOrNone(parsed.offsetMs),
      newAt: finiteOrNone(parsed.newAt),
    }
  } catch {
    return { rhythm: null, hits: 0 }
  }
}

/** Number.isFinite converts nothing: a string of digits is no number. */
const finite = (value: unknown): value is number => Number.isFinite(value)
const finiteOrNone = (value: unknown): number | undefined => (finite(value) ? value : undefined)

/** Reads the `releases` column: `[[at, exact 0|1], …]` ('' or bad JSON = none). */
export function readReleases(raw: string): ReleaseObservation[] {
  try {
    const parsed = JSON.parse(raw) as unknown
    return Array.isArray(parsed) ? parsed.flatMap((o) => (Array.isArray(o) && finite(o[0]) ? [{ at: o[0], exact: o[1] === 1 }] : [])) : []
  } catch {
    return []
  }
}

/**
 * The plan after a check that read the Series' chapters, learnt and planned on the Site's clock — the one its
 * release dates are on, which a step of the owner's wall clock does not move (the response's `Date` says how far
 * apart the two are). Observations: the page's release dates, and a New Chapter's first sighting — exact (the
 * middle of the time since the previous check that read the page) when that check was at most one and a half
 * rests before, since a sighting after a long rest says little about when the chapter came. A New Chapter known to
 * have come out inside the window the rhythm predicted proves it (misses back to 0); any other is a miss, as is a
 * window that passed with no chapter. A proven rhythm with no miss rests up to the ceiling outside its window; an unproven
 * one up to UNPROVEN_REST_FACTOR rests; MISSES_TO_DROP misses in a row or no rhythm: the quiet rest (the fixed rest,
 * longer the longer the Series has been silent); no history: the fixed rest.
 * The due time is the wall clock's: now plus the wait the plan found.
 */
export function planAfterCheck(input: PlanAfterCheckInput): PlanColumns {
  const { now, pace, previousCheckAt } = input
  const before = readBelief(input.row.rhythm)
  const offsetMs = input.siteOffsetMs ?? before.offsetMs ?? 0
  const siteNow = now + offsetMs
  // A Series never checked (stamp 0) reads as read at the epoch: decades before, so no sighting is exact.
  const previousRead = before.readAt ?? previousCheckAt + offsetMs
  const observations = [...readReleases(input.row.releases)]
  const dated = [...input.pageReleases].sort((a, b) => b.at - a.at).slice(0, PAGE_DATES)
  observations.push(...dated.filter((o) => o.at <= siteNow))
  let misses = input.row.rhythm_misses
  let hits = before.hits
  if (input.newChapter) {
    if (siteNow - previousRead <= EXACT_WITHIN_RESTS * pace.restMs)
      observations.push({ at: Math.round((previousRead + siteNow) / 2), exact: true })
    const w = before.window
    if (w) {
      // The rhythm foresaw it only if it is known to have come out in the window (widened by a rest each side):
      // the read before was at most a rest before the window opened, and this one at most a rest after it
      // closed. A Series that rested through the release and found it at the window's first check was told
      // the wrong time: a miss, however inside the window the finding check was.
      if (previousRead >= w.at - w.halfWidthMs - pace.restMs && siteNow <= w.at + w.halfWidthMs + pace.restMs) {
        misses = 0
        hits++
      } else misses++
    }
  }
  // The newest releases only (releaseMoments keeps as many as the estimate reads): the column stays small.
  const moments = releaseMoments(observations)
  const rhythm = estimateRhythm(moments)
  const last = moments.at(-1) ?? null
  const proven = hits > 0 && misses === 0
  const ceilingMs = proven ? pace.ceilingMs : Math.min(pace.ceilingMs, UNPROVEN_REST_FACTOR * pace.restMs)
  // A New Chapter found long after the check before it is no exact release, but it is life: the silence ends.
  const newAt = input.newChapter ? siteNow : before.newAt
  const silentSince = Math.max(last ? anchorOf(last) : 0, newAt ?? 0) || null
  const plan = planNextCheck({ rhythm, lastRelease: last, checkedAt: siteNow, silentSince, pace: { restMs: pace.restMs, ceilingMs } })
  // Without a rhythm the plan is the quiet rest already (and no window is missed).
  const wrong = misses + plan.misses
  const waitMs = wrong < MISSES_TO_DROP ? plan.at - siteNow : quietRestMs(silentSince, siteNow, pace.restMs)
  const belief: Belief = {
    rhythm,
    hits,
    // Undefined (no window, no offset known, no New Chapter yet) is left out of the JSON.
    window: plan.window,
    readAt: siteNow,
    offsetMs,
    newAt,
  }
  return {
    // No plan passes the ceiling, whatever the quiet rest (two rests) or a rhythm asks (docs/freshness.md).
    next_check_at: now + Math.min(waitMs, pace.ceilingMs),
    rhythm: JSON.stringify(belief),
    releases: JSON.stringify(moments.map((m) => [m.at, m.exact ? 1 : 0])),
    rhythm_misses: rhythm ? misses : 0,
  }
}

/**
 * What the owner reads about a Series' rhythm: "weekly, Tuesdays ~15:00 UTC", or why the fixed rest applies
 * ("no rhythm yet — checked every hour, less often while it stays silent (at most every 2 hours)", "weekly,
 * Tuesdays — wrong 2 times, checked every hour, …").
 */
export function cadenceWords(row: Pick<SeriesRow, 'rhythm' | 'rhythm_misses'>, restMs: number): string {
  const every = restWords(restMs)
  const { rhythm } = readBelief(row.rhythm)
  const quiet = `checked every ${every}, less often while it stays silent (at most every ${restWords(QUIET_MAX_RESTS * restMs)})`
  if (!rhythm) return `no rhythm yet — ${quiet}`
  if (row.rhythm_misses >= MISSES_TO_DROP) return `${rhythmWords(rhythm)} — wrong ${row.rhythm_misses} times, ${quiet}`
  return rhythmWords(rhythm)
}

function restWords(ms: number): string {
  if (ms === HOUR) return 'hour'
  if (ms === DAY) return 'day'
  if (ms % HOUR === 0) return `${ms / HOUR} hours`
  return `${Math.round(ms / 60_000)} minutes`
}

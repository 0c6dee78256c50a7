/**
 * The Lane's decisions as pure functions (docs/design.md#the-lane-pass): the gap, the gates at the top of a pass, the wake
 * thresholds and how long to sleep after a pass.
 */
import type { Pace } from '../sites/site'
import type { LaneRow } from '../store/schema'
import type { PassSkip } from '../../shared/skip'

/** gap = clamp(rest / eligible, minGap, maxGap); with nothing eligible (a forced Series only), maxGap. */
export function computeGap(pace: Pick<Pace, 'restMs' | 'minGapMs' | 'maxGapMs'>, eligible: number): { gap: number; clamped: boolean } {
  if (eligible <= 0) return { gap: pace.maxGapMs, clamped: true }
  const raw = Math.round(pace.restMs / eligible)
  const gap = Math.min(pace.maxGapMs, Math.max(pace.minGapMs, raw))
  return { gap, clamped: gap !== raw }
}

/**
 * The longest a Site's `Retry-After` may close its Lane: a day. A Site asking for a year is asked again
 * tomorrow, and the log says it asked for more (docs/adr/0047-retry-after-and-encodings.md).
 */
export const RETRY_AFTER_CAP_MS = 86_400_000

/**
 * How long a refusal closes the Lane: the Site's refusal backoff, or longer when the Site's `Retry-After` asked
 * for longer — never sooner than it asked, up to RETRY_AFTER_CAP_MS. `capped` says the Site asked for more.
 */
export function refusalLength(pace: Pick<Pace, 'refusalBackoffMs'>, retryAfterMs?: number): { ms: number; capped: boolean } {
  const asked = retryAfterMs ?? 0
  return { ms: Math.max(pace.refusalBackoffMs, Math.min(asked, RETRY_AFTER_CAP_MS)), capped: asked > RETRY_AFTER_CAP_MS }
}

/** The owner's pause first, then the Site's refusal (docs/design.md#the-lane-pass, step 1). */
export function laneGate(lane: Pick<LaneRow, 'paused_until' | 'refuse_until'>, now: number): 'paused' | 'refusing' | null {
  if (lane.paused_until > now) return 'paused'
  if (lane.refuse_until > now) return 'refusing'
  return null
}

/**
 * Whether a sleeping browser should wake: a forced Series always wakes it; otherwise this many due, or the
 * oldest due waited this long. Reads the due figures, not the due Series (a pass reads only a few of them).
 */
export function wakeDue(
  pace: Pick<Pace, 'wakeDueCount' | 'wakeOldestMs'>,
  due: { due: number; forced: number; oldestCheckedAt: number },
  now: number,
): boolean {
  if (due.forced > 0) return true
  if (due.due >= pace.wakeDueCount) return true
  if (due.due === 0) return false
  return now - due.oldestCheckedAt >= pace.wakeOldestMs
}

/**
 * How many due Series a pass reads: as many as it can check before maxPassMs at this gap, and one more
 * (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md). A pass that runs out of them with more due goes
 * straight on, so none waits longer than it would have.
 */
export function dueBound(pace: Pick<Pace, 'maxPassMs'>, gap: number): number {
  return Math.ceil(pace.maxPassMs / Math.max(1, gap)) + 1
}

export interface SleepFacts {
  skip: PassSkip
  now: number
  pace: Pick<Pace, 'restMs' | 'idleRequeryMs' | 'refusalBackoffMs'>
  lane: Pick<LaneRow, 'paused_until' | 'refuse_until'> & Partial<Pick<LaneRow, 'refuse_ms'>>
  /** How much of the browser-down window is left. */
  browserDownForMs: number
  /** The loop stopped at maxPassMs with Series still due. */
  cutShort: boolean
  /** The loop made at least one request. */
  fetched: boolean
}

/**
 * How long a Lane sleeps after a pass before the next one (docs/design.md#the-lane-pass). Every sleep is
 * bounded by the pace, whatever the wall clock says (docs/adr/0011-time-and-the-wall-clock.md).
 */
export function sleepAfter(f: SleepFacts): number {
  const idle = f.pace.idleRequeryMs
  switch (f.skip) {
    case 'paused':
      // A Resume takes effect within idleRequeryMs, with no signal to the Lane.
      return Math.max(1, Math.min(f.lane.paused_until - f.now, idle))
    case 'refusing':
      // Bounded by the refusal's own length (a Retry-After may be longer than the backoff).
      return Math.max(1, Math.min(f.lane.refuse_until - f.now, f.lane.refuse_ms || f.pace.refusalBackoffMs))
    case 'sidecar-down':
      return Math.max(1, Math.min(f.browserDownForMs, idle))
    case 'nothing-eligible':
      return Math.min(f.pace.restMs, idle)
    case '':
      // Straight on when Series were left due or a check was just made; otherwise re-query when idle.
      return f.cutShort || f.fetched ? 0 : idle
    default:
      return idle
  }
}

/**
 * The Site's clock, as a response tells it (RFC 9110 §6.6.1 `Date`, §5.1 of RFC 9111 `Age`): when the Site
 * answered, on its own clock. The adaptive cadence learns release times on the Site's clock, which a step of the
 * owner's wall clock does not move (docs/adr/0014-freshness-per-request.md). Pure.
 */

/** A `Date` further than this from the app's wall clock is not believed (a broken server, a stale cache). */
export const MAX_SITE_CLOCK_OFFSET_MS = 7 * 24 * 3_600_000

/**
 * When the Site answered on its own clock, in Unix ms: its `Date` plus the `Age` a cache added, or undefined
 * when there is no readable `Date`.
 */
export function siteDate(date: string | null | undefined, age: string | null | undefined = null): number | undefined {
  if (!date) return undefined
  const at = Date.parse(date)
  if (Number.isNaN(at)) return undefined
  const seconds = age && /^\s*\d{1,9}\s*$/.test(age) ? Number(age) : 0
  return at + seconds * 1000
}

/**
 * How far the Site's clock is ahead of the app's wall clock (negative: behind), from a response's date and the
 * wall time it arrived; undefined without a date or when the two are too far apart to be the same clock.
 */
export function siteClockOffset(pageDate: number | undefined, wallNow: number): number | undefined {
  if (pageDate === undefined || !Number.isFinite(pageDate)) return undefined
  const offset = pageDate - wallNow
  return Math.abs(offset) > MAX_SITE_CLOCK_OFFSET_MS ? undefined : offset
}

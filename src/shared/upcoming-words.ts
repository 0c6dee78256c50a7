/**
 * Upcoming in words (issue 26 §3): the Series expected in the next days, grouped by day, and "expected Tuesday
 * ~15:00". Pure; days and hours are the viewer's (the browser's or the window's local time).
 */

export interface Expected {
  expectedAt: number | null
}

/** An expected release this long past still shows (the check that finds it may not have run yet). */
export const EXPECTED_GRACE_MS = 6 * 3_600_000
export const UPCOMING_DAYS = 7

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const startOfDay = (at: number) => new Date(new Date(at).setHours(0, 0, 0, 0)).getTime()
const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`

/** "today", "tomorrow", or the weekday within the week ahead; else the date. */
export function dayWords(at: number, now: number): string {
  const days = Math.round((startOfDay(at) - startOfDay(now)) / 86_400_000)
  if (days === 0) return 'today'
  if (days === 1) return 'tomorrow'
  if (days === -1) return 'yesterday'
  if (days > 1 && days < 7) return WEEKDAYS[new Date(at).getDay()]!
  return new Date(at).toISOString().slice(0, 10)
}

/** "expected Tuesday ~15:00", "expected today ~09:30" (the hour is an estimate: a window around it). */
export function expectedWords(at: number, now: number): string {
  return `expected ${dayWords(at, now)} ~${hhmm(new Date(at))}`
}

/** Items expected from a little while ago to `days` ahead, by day, each day in time order. */
export function upcomingByDay<T extends Expected>(
  items: readonly T[],
  now: number,
  days = UPCOMING_DAYS,
): Array<{ day: string; items: T[] }> {
  const until = startOfDay(now) + days * 86_400_000
  const coming = items
    .filter((i) => i.expectedAt !== null && i.expectedAt >= now - EXPECTED_GRACE_MS && i.expectedAt < until)
    .sort((a, b) => a.expectedAt! - b.expectedAt!)
  const groups: Array<{ day: string; items: T[] }> = []
  for (const item of coming) {
    const day = dayWords(Math.max(item.expectedAt!, startOfDay(now)), now)
    const last = groups.at(-1)
    if (last?.day === day) last.items.push(item)
    else groups.push({ day, items: [item] })
  }
  return groups
}

/** The clock time of an expected release, "~15:00". */
export const aboutTime = (at: number): string => `~${hhmm(new Date(at))}`

/** Grouping by day, for Updates (the Readers' page and the owner's): Today, Yesterday, then each day by its date. */

export interface DayGroup<T> {
  /** Today, Yesterday, or the day's date (in the browser's language). */
  day: string
  items: T[]
}

const DAY_MS = 86_400_000
const dayStart = (at: number) => {
  const d = new Date(at)
  d.setHours(0, 0, 0, 0)
  return d.getTime()
}

/** The day of `at` seen from `now`, in the local time zone. */
export function dayWords(at: number, now: number): string {
  const today = dayStart(now)
  const start = dayStart(at)
  if (start >= today) return 'Today'
  if (start >= today - DAY_MS) return 'Yesterday'
  return new Date(at).toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
}

/** Items (newest first) in runs of the same day, in the order given. */
export function groupByDay<T>(items: readonly T[], at: (item: T) => number, now: number): Array<DayGroup<T>> {
  const groups: Array<DayGroup<T>> = []
  for (const item of items) {
    const day = dayWords(at(item), now)
    const last = groups.at(-1)
    if (last?.day === day) last.items.push(item)
    else groups.push({ day, items: [item] })
  }
  return groups
}

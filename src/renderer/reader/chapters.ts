/**
 * The Readers' page's chapters (docs/adr/0073-unread-counted-from-chapters.md): Updates grouped by day, and what a
 * tap on a chapter makes of the card. Pure.
 */
import type { ChapterItem, NextChapter, UpdateItem } from '../../shared/sync-schemas'

export interface DayGroup {
  /** Today, Yesterday, or the day's date. */
  day: string
  items: UpdateItem[]
}

const DAY_MS = 86_400_000
const dayStart = (at: number) => {
  const d = new Date(at)
  d.setHours(0, 0, 0, 0)
  return d.getTime()
}

/** Updates (newest first) grouped by the day the app first saw them, in the browser's time zone. */
export function byDay(updates: readonly UpdateItem[], now: number): DayGroup[] {
  const today = dayStart(now)
  const groups: DayGroup[] = []
  for (const u of updates) {
    const start = dayStart(u.seenAt)
    const day =
      start >= today
        ? 'Today'
        : start >= today - DAY_MS
          ? 'Yesterday'
          : new Date(u.seenAt).toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' })
    const last = groups.at(-1)
    if (last?.day === day) last.items.push(u)
    else groups.push({ day, items: [u] })
  }
  return groups
}

/** After reading up to `chapter`: the chapter next in a list (newest first), not vanished — or null. */
export function nextAfter(chapters: readonly ChapterItem[], chapter: number): NextChapter | null {
  let next: ChapterItem | undefined
  for (const c of chapters) if (!c.vanished && c.number > chapter && (!next || c.number < next.number)) next = c
  return next ? { number: next.number, label: next.label, url: next.url } : null
}

/** How many of a list (newest first) are above `chapter`, not vanished: the unread count a tap leaves. */
export function unreadAbove(chapters: readonly ChapterItem[], chapter: number): number {
  return chapters.filter((c) => !c.vanished && c.number > chapter).length
}

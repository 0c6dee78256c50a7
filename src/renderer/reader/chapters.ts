/**
 * The Readers' page's chapters (docs/adr/0073-unread-counted-from-chapters.md): Updates grouped by day, and what a
 * tap on a chapter makes of the card. Pure.
 */
import { groupByDay, type DayGroup } from '../../shared/days'
import type { ChapterItem, NextChapter, UpdateItem } from '../../shared/sync-schemas'

/** Updates (newest first) grouped by the day the app first saw them, in the browser's time zone. */
export function byDay(updates: readonly UpdateItem[], now: number): Array<DayGroup<UpdateItem>> {
  return groupByDay(updates, (u) => u.seenAt, now)
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

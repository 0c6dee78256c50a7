/**
 * The Readers' page's order and search (docs/adr/0056-the-readers-page-holds-still.md). Pure: the page computes an
 * order when it may move cards — never under the pointer or the focus — and keeps it while the Reader works.
 */
import type { Bookmark } from '../../shared/sync-schemas'

export const READER_SORTS = ['new', 'title', 'updated'] as const
export type ReaderSort = (typeof READER_SORTS)[number]

export const READER_SORT_WORDS: Record<ReaderSort, string> = {
  new: 'New Chapters first',
  title: 'title',
  updated: 'latest chapter, newest first',
}

export const keyOf = (b: { site: string; seriesId: string }) => `${b.site}\u0000${b.seriesId}`

const titleOf = (b: Bookmark) => b.series.title || b.seriesId

/** The keys of the bookmarks in a sort's order. */
export function orderOf(bookmarks: readonly Bookmark[], sort: ReaderSort): string[] {
  const byTitle = (a: Bookmark, b: Bookmark) => titleOf(a).localeCompare(titleOf(b)) || keyOf(a).localeCompare(keyOf(b))
  const byUpdate = (a: Bookmark, b: Bookmark) => b.series.latestChangedAt - a.series.latestChangedAt || byTitle(a, b)
  const compare =
    sort === 'title'
      ? byTitle
      : sort === 'updated'
        ? byUpdate
        : // Unread first, the latest to move first; then the rest by title.
          (a: Bookmark, b: Bookmark) => (a.unread !== b.unread ? (a.unread ? -1 : 1) : a.unread ? byUpdate(a, b) : byTitle(a, b))
  return [...bookmarks].sort(compare).map(keyOf)
}

/**
 * The bookmarks in a kept order: those the order knows where it put them, any it does not (added since) at the
 * end, gone ones left out.
 */
export function inOrder(bookmarks: readonly Bookmark[], order: readonly string[]): Bookmark[] {
  const byKey = new Map(bookmarks.map((b) => [keyOf(b), b]))
  const placed = order.flatMap((k) => {
    const b = byKey.get(k)
    if (b) byKey.delete(k)
    return b ? [b] : []
  })
  return [...placed, ...byKey.values()]
}

/** Whether a bookmark matches a search: every word in its title, Site or id, case-insensitively. */
export function matches(b: Bookmark, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean)
  const text = `${titleOf(b)} ${b.site} ${b.seriesId}`.toLowerCase()
  return words.every((w) => text.includes(w))
}

/**
 * A Reader's unread count and best chapter link for a Series: THE single place notifications read them from.
 *
 * Today it is computed from what the store has — the Latest Chapter minus the Reader's Progress (as the sync
 * API's `unreadCount`), linked to the latest chapter's page (else the Series page). When the stored chapter
 * lists land (issue 25: a per-Reader `unreadCount` and `nextChapter`), this function switches to them — the
 * first unread chapter's link instead of the latest — and nothing else in src/main/notify changes.
 */
import type { Db } from '../store/database'
import type { BookmarkStatus, SeriesKey } from '../store/schema'
import { seriesHolders } from '../store/notify'

export interface HolderUnread {
  readerId: number
  name: string
  status: BookmarkStatus
  /** When the bookmark was made (a bookmark newer than the check before a New Chapter hears nothing of it). */
  bookmarkedAt: number
  unreadCount: number
  /** The chapter to open: the chapter itself when known, else the Series. */
  chapterUrl: string
}

/** Every Reader holding the Series, with their unread count and the link a message gives them. */
export async function holdersWithUnread(db: Db, key: SeriesKey): Promise<HolderUnread[]> {
  const rows = await seriesHolders(db, key)
  return rows.map((r) => ({
    readerId: r.reader_id,
    name: r.name,
    status: r.status,
    bookmarkedAt: r.created_at,
    unreadCount: r.latest_chapter === null ? 0 : Math.max(0, Math.ceil(r.latest_chapter - (r.progress ?? 0))),
    chapterUrl: r.latest_chapter_url || r.series_url,
  }))
}

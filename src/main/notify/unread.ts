/**
 * A Reader's unread count and best chapter link for a Series: THE single place notifications read them from.
 *
 * Both come from the stored chapter lists (docs/adr/0073-unread-counted-from-chapters.md), as the Readers' page
 * shows them: the unread count counted chapter by chapter (by subtraction only where no list is stored), and the
 * link to the chapter the Reader opens next — the lowest stored chapter above their Progress — else the latest
 * chapter's page, else the Series page.
 */
import type { Db } from '../store/database'
import type { BookmarkStatus, SeriesKey } from '../store/schema'
import { chapterKey, readerChapterFacts, unreadCount } from '../store/chapters'
import { seriesHolders } from '../store/notify'

export interface HolderUnread {
  readerId: number
  name: string
  status: BookmarkStatus
  /** When the bookmark was made (a bookmark newer than the check before a New Chapter hears nothing of it). */
  bookmarkedAt: number
  unreadCount: number
  /** The chapter to open: the Reader's next unread chapter when known, else the latest, else the Series. */
  chapterUrl: string
}

/** Every Reader holding the Series, with their unread count and the link a message gives them. */
export async function holdersWithUnread(db: Db, key: SeriesKey): Promise<HolderUnread[]> {
  const rows = await seriesHolders(db, key)
  const held = chapterKey(key.site, key.seriesId)
  return Promise.all(
    rows.map(async (r) => {
      const facts = (await readerChapterFacts(db, r.reader_id, [key])).get(held)
      return {
        readerId: r.reader_id,
        name: r.name,
        status: r.status,
        bookmarkedAt: r.created_at,
        unreadCount: unreadCount(r.latest_chapter, r.progress, facts),
        chapterUrl: facts?.next?.url || r.latest_chapter_url || r.series_url,
      }
    }),
  )
}

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
import { chapterKey, factsFromList, liveLists, unreadCount } from '../store/chapters'
import { holdersOf } from '../store/notify'

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
  return (await holdersWithUnreadOf(db, [key])).get(seriesKeyOf(key.site, key.seriesId)) ?? []
}

/** `site/seriesId`: the key of holdersWithUnreadOf's map (as the digest names a Series). */
export const seriesKeyOf = (site: string, seriesId: string): string => `${site}/${seriesId}`

/** A digest reads the holders and lists of this many Series at a time (its memory is a chunk's lists). */
const CHUNK = 250

/**
 * The holders of each of the Series (by seriesKeyOf), as holdersWithUnread: two statements per 250 Series, the
 * holders and the Series' live chapter lists, each list read once for all its holders
 * (docs/adr/0170-digests-in-sets.md). A Series nobody holds is absent.
 */
export async function holdersWithUnreadOf(db: Db, keys: readonly SeriesKey[]): Promise<Map<string, HolderUnread[]>> {
  const bySeries = new Map<string, HolderUnread[]>()
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK)
    const lists = await liveLists(db, chunk)
    for (const r of await holdersOf(db, chunk)) {
      const list = lists.get(chapterKey(r.site, r.series_id))
      // No list stored: the count by subtraction (as readerChapterFacts' facts of an empty list say).
      const facts = factsFromList(list, r.progress)
      const holder: HolderUnread = {
        readerId: r.reader_id,
        name: r.name,
        status: r.status,
        bookmarkedAt: r.created_at,
        unreadCount: unreadCount(r.latest_chapter, r.progress, facts),
        chapterUrl: facts.next?.url || r.latest_chapter_url || r.series_url,
      }
      const key = seriesKeyOf(r.site, r.series_id)
      const held = bySeries.get(key)
      if (held) held.push(holder)
      else bySeries.set(key, [holder])
    }
  }
  return bySeries
}

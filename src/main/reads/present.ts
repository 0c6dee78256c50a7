/** Store rows as the sync API shows them (camelCase, derived fields computed). */
import { readerBookmarks, type ReaderBookmark } from '../store/bookmarks'
import { chapterKey, readerChapterFacts, unreadCount, type ChapterFacts, type ChapterUpdate } from '../store/chapters'
import type { Db } from '../store/database'
import type { ChapterRow, ReaderRow, SightingRow } from '../store/schema'
import type { z } from 'zod'
import { expectedRelease } from '../lanes/expected-release'
import { GONE_AFTER_CHECKS } from '../../shared/series-state'
import type { BookmarkView, ChapterView, ReaderView, SightingResponse, UpdateView } from '../../shared/sync-schemas'

/** A bookmark, with what its stored chapters say (`facts`; none: no list stored, counted by subtraction). */
export function presentBookmark(b: ReaderBookmark, facts?: ChapterFacts): z.infer<typeof BookmarkView> {
  const latest = b.series.latest_chapter
  return {
    site: b.site,
    seriesId: b.series_id,
    status: b.status,
    progress: b.progress,
    progressAt: b.progress_at,
    createdAt: b.created_at,
    updatedAt: b.updated_at,
    unread: b.unread,
    unreadCount: unreadCount(latest, b.progress, facts),
    nextChapter: facts?.next ?? null,
    // The release the app expected as of its last check (docs/adr/0075-…): a client shows it while it is ahead.
    expectedAt: b.series.rhythm ? (expectedRelease(b.series, b.series.latest_checked_at)?.at ?? null) : null,
    series: {
      title: b.series.title,
      url: b.series.series_url,
      latestChapter: latest,
      latestChapterLabel: b.series.latest_chapter_label,
      latestChapterUrl: b.series.latest_chapter_url,
      latestSource: b.series.latest_source,
      latestChangedAt: b.series.latest_changed_at,
      latestCheckedAt: b.series.latest_checked_at,
      finished: b.series.finished_at > 0,
      ...(b.series.gone_checks >= GONE_AFTER_CHECKS
        ? { gone: { checks: b.series.gone_checks, since: b.series.gone_since, status: b.series.gone_status } }
        : {}),
    },
  }
}

export function presentReader(r: ReaderRow): z.infer<typeof ReaderView> {
  return { id: r.id, name: r.name, createdAt: r.created_at }
}

export function presentSighting(s: SightingRow, raised: boolean): z.infer<typeof SightingResponse> {
  return { sighting: { id: s.id, site: s.site, seriesId: s.series_id, chapter: s.chapter, sightedAt: s.sighted_at }, raised }
}

export function presentChapter(c: ChapterRow, progress: number | null): z.infer<typeof ChapterView> {
  return {
    number: c.number,
    label: c.label,
    url: c.url,
    releasedAt: c.released_at,
    firstSeenAt: c.first_seen_at,
    vanished: c.vanished_at > 0,
    read: progress !== null && c.number <= progress,
  }
}

export function presentUpdate(u: ChapterUpdate): z.infer<typeof UpdateView> {
  return {
    site: u.site,
    seriesId: u.series_id,
    title: u.title,
    number: u.number,
    label: u.label,
    url: u.url,
    seenAt: u.first_seen_at,
    releasedAt: u.released_at,
  }
}

/**
 * These bookmarks of a Reader as the API shows them, each with its next chapter and unread count from the stored
 * chapters, in one statement: the facts of these bookmarks only, or (`whole`) of the Reader's whole list.
 */
export async function presentBookmarks(
  db: Db,
  readerId: number,
  bookmarks: readonly ReaderBookmark[],
  whole = false,
): Promise<Array<z.infer<typeof BookmarkView>>> {
  if (bookmarks.length === 0) return []
  const keys = whole ? undefined : bookmarks.map((b) => ({ site: b.site, seriesId: b.series_id }))
  const facts = await readerChapterFacts(db, readerId, keys)
  return bookmarks.map((b) => presentBookmark(b, facts.get(chapterKey(b.site, b.series_id))))
}

/** Every bookmark of a Reader as the API shows them: the answer of a full sync. */
export async function presentAll(db: Db, readerId: number): Promise<Array<z.infer<typeof BookmarkView>>> {
  return presentBookmarks(db, readerId, await readerBookmarks(db, readerId), true)
}

/**
 * What arrived: the New Chapters of every Series, newest first, read from `latest_chapter_history` (the Updates
 * page), and how many Series moved forward since a time (the Overview's card). Read-only.
 */
import { sql } from 'kysely'
import type { Db } from './database'

export interface UpdateRow {
  id: number
  site: string
  series_id: string
  title: string
  chapter: number
  label: string
  at: number
  /** The chapter a check had found before this move (a Sighting's raise between is not counted). */
  previous: number
  /** Its link, from the stored chapter list ('' when none is stored). */
  url: string
}

/**
 * New Chapters newest first, `limit` at most, before the history row `before` (for the page that follows). A
 * New Chapter is a check's move past a chapter the app already knew: a first read, a Sighting's raise and a
 * check's correction down are not (docs/design.md#the-lane-pass); a check's move is measured from the check before
 * it, not from a Sighting's raise between (docs/adr/0119-…). Walks the history's primary key backwards; each
 * row's previous move is one seek in its Series' index, its link one seek in the stored chapters. With `readerId`,
 * only the Series that Reader holds.
 */
export async function newChapterUpdates(db: Db, options: { before?: number; limit: number; readerId?: number }): Promise<UpdateRow[]> {
  const held =
    options.readerId !== undefined
      ? sql`AND EXISTS (SELECT 1 FROM bookmarks b WHERE b.reader_id = ${options.readerId} AND b.site = h.site AND b.series_id = h.series_id)`
      : sql``
  const result = await sql<UpdateRow>`
    SELECT * FROM (
      SELECT h.id, h.site, h.series_id, s.title, h.chapter, h.label, h.at,
        (SELECT p.chapter FROM latest_chapter_history p
          WHERE p.site = h.site AND p.series_id = h.series_id AND p.id < h.id AND p.source <> 'sighting'
          ORDER BY p.id DESC LIMIT 1) AS previous,
        COALESCE((SELECT c.url FROM chapters c WHERE c.site = h.site AND c.series_id = h.series_id AND c.number = h.chapter), '') AS url
      FROM latest_chapter_history h JOIN series s ON s.site = h.site AND s.series_id = h.series_id
      WHERE h.source = 'check' ${options.before !== undefined ? sql`AND h.id < ${options.before}` : sql``} ${held}
      ORDER BY h.id DESC
    ) WHERE previous IS NOT NULL AND chapter > previous
    LIMIT ${options.limit}
  `.execute(db)
  return result.rows
}

/** How many Series' Latest Chapter moved forward (a New Chapter) at or after `since`. */
export async function newChapterCount(db: Db, since: number): Promise<number> {
  const result = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM series WHERE latest_changed_at >= ${since}`.execute(db)
  // COUNT(*) answers one row, whatever it counts.
  return result.rows[0]!.n
}

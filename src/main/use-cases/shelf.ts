/**
 * The household's shelf (docs/adr/0152-the-households-shelf.md): the Series some Reader of the household follows,
 * shown to every Reader with titles and covers and nothing of anyone's progress, and followed with a tap. Following
 * from the shelf adds the Reader's bookmark only: the Series is kept and checked already, so no request is sent.
 */
import { AppError } from '../../shared/errors'
import type { BookmarkStatus } from '../../shared/domain'
import type { ShelfAnswer } from '../../shared/shelf-schemas'
import type { SiteRegistry } from '../sites/registry'
import { addBookmark, countReaderBookmarks, getBookmark } from '../store/bookmarks'
import type { CoverStore } from '../store/covers'
import type { Db } from '../store/database'
import type { SeriesKey } from '../store/schema'
import { getSeries } from '../store/series'
import { readSettings } from '../store/settings'

export interface ShelfDeps {
  db: Db
  registry: Pick<SiteRegistry, 'get'>
  covers?: CoverStore
}

/** The shelf is the owner's to turn off: then every shelf route says so. */
async function shelfOn(db: Db): Promise<void> {
  if (!(await readSettings(db)).shelf) throw new AppError('forbidden', "the owner has turned the household's shelf off")
}

/** The shelf as one Reader sees it: every Series some Reader holds, by title; whether this Reader follows it. */
export async function readShelf(deps: ShelfDeps, readerId: number, limit = 500): Promise<ShelfAnswer> {
  await shelfOn(deps.db)
  const rows = await deps.db
    .selectFrom('series')
    .leftJoin('bookmarks', (join) =>
      join
        .onRef('bookmarks.site', '=', 'series.site')
        .onRef('bookmarks.series_id', '=', 'series.series_id')
        .on('bookmarks.reader_id', '=', readerId),
    )
    .select([
      'series.site',
      'series.series_id',
      'series.title',
      'series.series_url',
      'series.latest_chapter',
      'series.latest_chapter_label',
      'bookmarks.reader_id',
    ])
    .where('series.reader_count', '>', 0)
    .orderBy('series.title')
    .orderBy('series.site')
    .orderBy('series.series_id')
    .limit(limit + 1)
    .execute()
  return {
    series: rows.slice(0, limit).map((row) => ({
      site: row.site,
      siteName: deps.registry.get(row.site)?.name ?? row.site,
      seriesId: row.series_id,
      title: row.title || row.series_id,
      url: row.series_url,
      latestChapter: row.latest_chapter,
      latestChapterLabel: row.latest_chapter_label,
      cover: deps.covers?.has({ site: row.site, seriesId: row.series_id }) ?? false,
      following: row.reader_id !== null,
    })),
    more: rows.length > limit,
  }
}

/**
 * Follows a Series on the shelf: the Reader's bookmark, nothing else — no Series made, no request sent. A Series
 * no Reader holds is not on the shelf (a Reader cannot reach the app's forgotten Series through it).
 */
export async function followFromShelf(
  deps: ShelfDeps,
  input: SeriesKey & { readerId: number; status?: BookmarkStatus; maxBookmarks: number; now: number },
): Promise<{ created: boolean }> {
  await shelfOn(deps.db)
  const key = { site: input.site, seriesId: input.seriesId }
  return deps.db.transaction().execute(async (trx) => {
    const series = await getSeries(trx, key)
    if (!series || series.reader_count === 0) throw new AppError('not-found', `no Series ${key.site}/${key.seriesId} on the shelf`)
    if (await getBookmark(trx, input.readerId, key)) return { created: false }
    if ((await countReaderBookmarks(trx, input.readerId)) >= input.maxBookmarks)
      throw new AppError(
        'invalid',
        `you hold ${input.maxBookmarks.toLocaleString('en')} bookmarks, the most a Reader may hold here; remove some, or ask the owner to raise the limit (Settings)`,
      )
    const created = await addBookmark(trx, { ...key, readerId: input.readerId, status: input.status, now: input.now })
    return { created }
  })
}

/**
 * Whether a Reader may see a Series' cover: a Series they bookmark, or (the shelf on) one on the shelf. Else a
 * 404, the same as for a Series that does not exist.
 */
export async function coverFor(deps: ShelfDeps, readerId: number, key: SeriesKey): Promise<{ bytes: Buffer; type: string }> {
  const missing = () => new AppError('not-found', `no cover for ${key.site}/${key.seriesId}`)
  if (!(await getBookmark(deps.db, readerId, key))) {
    const series = await getSeries(deps.db, key)
    if (!series || series.reader_count === 0 || !(await readSettings(deps.db)).shelf) throw missing()
  }
  const image = deps.covers?.image(key)
  if (!image) throw missing()
  return image
}

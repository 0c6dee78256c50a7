/**
 * Export (issue #17): the library as one versioned JSON document (src/shared/export-format.ts,
 * docs/export-format.md) — the Sites in use, every Series with its Latest Chapter, every Reader's bookmarks
 * with status and Progress, and never a token — and a Reader's own bookmarks as the same document or a CSV.
 */
import type { ExportDocument, ExportedBookmark } from '../../shared/export-format'
import { EXPORT_FORMAT, EXPORT_VERSION } from '../../shared/library'
import pkg from '../../../package.json' with { type: 'json' }
import { toCsv } from '../library/csv'
import type { Site } from '../sites/site'
import { readerBookmarks, type ReaderBookmark } from '../store/bookmarks'
import type { Db } from '../store/database'
import { libraryForExport } from '../store/library'
import { pausedLanes } from '../store/lanes'
import { getReader } from '../store/readers'
import type { BookmarkRow, SeriesRow } from '../store/schema'

export interface ExportDeps {
  db: Db
  /** Only the name and host pin of each Site are read (a worker thread passes just those). */
  registry: { get(key: string): Pick<Site, 'name' | 'hosts'> | undefined }
  now: number
}

/** The whole library. */
export async function exportLibrary(deps: ExportDeps): Promise<ExportDocument> {
  const { series, readers, bookmarks } = await libraryForExport(deps.db)
  const paused = new Map((await pausedLanes(deps.db, deps.now)).map((l) => [l.site, l.paused_until]))
  const byReader = new Map<number, BookmarkRow[]>()
  for (const b of bookmarks) {
    let list = byReader.get(b.reader_id)
    if (!list) byReader.set(b.reader_id, (list = []))
    list.push(b)
  }
  return document(
    deps,
    series,
    readers.map((r) => ({ name: r.name, createdAt: r.created_at, bookmarks: (byReader.get(r.id) ?? []).map(exportedBookmark) })),
    paused,
  )
}

/** One Reader's bookmarks, with the Series and Sites they point at: what the Readers' page downloads. */
export async function exportReader(deps: ExportDeps, readerId: number): Promise<ExportDocument> {
  const reader = await getReader(deps.db, readerId)
  const rows = await readerBookmarks(deps.db, readerId)
  return document(
    deps,
    rows.map((r) => r.series),
    reader ? [{ name: reader.name, createdAt: reader.created_at, bookmarks: rows.map(exportedBookmark) }] : [],
  )
}

/** The CSV columns of a Reader's download; an import reads url, title, status, progress and progressAt back. */
export const READER_CSV_COLUMNS = ['site', 'seriesId', 'title', 'url', 'status', 'progress', 'progressAt', 'latestChapter'] as const

/** One Reader's bookmarks as CSV, by title. */
export async function exportReaderCsv(deps: Pick<ExportDeps, 'db'>, readerId: number): Promise<string> {
  return toCsv(READER_CSV_COLUMNS, (await readerBookmarks(deps.db, readerId)).map(readerCsvFields))
}

/** A bookmark's fields in READER_CSV_COLUMNS' order. */
export function readerCsvFields(b: ReaderBookmark): Array<string | number | null> {
  return [
    b.site,
    b.series_id,
    b.series.title,
    b.series.series_url,
    b.status,
    b.progress,
    b.progress === null ? '' : b.progress_at,
    b.series.latest_chapter,
  ]
}

/** `paused`: the Lanes paused now, by Site, until when (the whole library's export records them; a Site paused with no Series is listed too). */
function document(
  deps: ExportDeps,
  series: SeriesRow[],
  readers: ExportDocument['readers'],
  paused: ReadonlyMap<string, number> = new Map(),
): ExportDocument {
  return {
    ...exportHead(deps, [...new Set([...series.map((s) => s.site), ...paused.keys()])].sort(), paused),
    series: series.map(exportedSeries),
    readers,
  }
}

/** The document's fields before its Series: what it is, and the Sites (`siteKeys`, sorted) with their pauses. */
export function exportHead(deps: Omit<ExportDeps, 'db'>, siteKeys: string[], paused: ReadonlyMap<string, number>) {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: deps.now,
    app: `${pkg.name} ${pkg.version}`,
    sites: siteKeys.map((key) => {
      const site = deps.registry.get(key)
      // A Site no longer configured still names its Series; its key is all that is known of it.
      const until = paused.get(key)
      return { key, name: site?.name ?? key, hosts: site ? [...site.hosts] : [], pausedUntil: until || undefined }
    }),
  } satisfies Partial<ExportDocument>
}

export function exportedSeries(s: SeriesRow): ExportDocument['series'][number] {
  return {
    site: s.site,
    seriesId: s.series_id,
    title: s.title,
    url: s.series_url,
    latestChapter: s.latest_chapter,
    latestChapterLabel: s.latest_chapter_label,
    latestChapterUrl: s.latest_chapter_url,
    latestSource: s.latest_source,
    latestChangedAt: s.latest_changed_at,
    latestCheckedAt: s.latest_checked_at,
    finishedAt: s.finished_at,
    createdAt: s.created_at,
  }
}

export function exportedBookmark(b: BookmarkRow): ExportedBookmark {
  return {
    site: b.site,
    seriesId: b.series_id,
    status: b.status,
    progress: b.progress,
    progressAt: b.progress_at,
    createdAt: b.created_at,
  }
}

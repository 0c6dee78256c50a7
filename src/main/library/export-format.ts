/**
 * Reads an export document (src/shared/export-format.ts, docs/export-format.md) back into import entries:
 * one per bookmark, and one per Series no Reader holds, so the import restores the library.
 */
import { z } from 'zod'
import { ExportDocument, type ExportedSeries } from '../../shared/export-format'
import { EXPORT_FORMAT, EXPORT_VERSION, IMPORT_MAX_ENTRIES } from '../../shared/library'
import type { ImportEntry, ParsedLibrary } from './entries'
import { ImportError } from './errors'

/** Whether a text looks like a JSON document (an export document, or an old Tachiyomi JSON backup). */
export function isJsonDocument(text: string): boolean {
  return /^\s*\{/.test(text)
}

export function parseExportDocument(text: string): ParsedLibrary {
  return exportDocumentOf(parseJsonDocument(text))
}

/** A JSON document's value; an ImportError when it is not valid JSON. */
export function parseJsonDocument(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new ImportError(`export document: not valid JSON (${(error as Error).message})`)
  }
}

/** An export document already parsed from JSON, read into entries. */
export function exportDocumentOf(json: unknown): ParsedLibrary {
  const head = z.object({ format: z.unknown(), version: z.unknown() }).safeParse(json)
  if (!head.success || head.data.format !== EXPORT_FORMAT) {
    throw new ImportError(`export document: not a Manga Bookmark export (its "format" is not "${EXPORT_FORMAT}")`)
  }
  if (typeof head.data.version === 'number' && head.data.version > EXPORT_VERSION) {
    throw new ImportError(
      `export document: version ${head.data.version} was written by a newer app; this one reads version ${EXPORT_VERSION}`,
    )
  }
  const parsed = ExportDocument.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new ImportError(`export document: field "${issue.path.join('.') || '(document)'}": ${issue.message}`)
  }
  const doc = parsed.data
  const bookmarkCount = doc.readers.reduce((n, r) => n + r.bookmarks.length, 0)
  if (doc.series.length > IMPORT_MAX_ENTRIES || bookmarkCount > IMPORT_MAX_ENTRIES) {
    throw new ImportError(
      `export document: an import takes at most ${IMPORT_MAX_ENTRIES.toLocaleString('en')} Series and as many bookmarks`,
    )
  }
  return documentEntries(doc)
}

/** The document as import entries: one per bookmark, and one per Series no Reader holds. */
function documentEntries(doc: ExportDocument): ParsedLibrary {
  const series = new Map(doc.series.map((s) => [`${s.site}\u0000${s.seriesId}`, s]))
  const held = new Set<string>()
  const entries: ImportEntry[] = []
  const unreadable: ParsedLibrary['unreadable'] = []
  for (const reader of doc.readers) {
    reader.bookmarks.forEach((b, index) => {
      const ref = `${reader.name}'s bookmark ${index + 1}`
      const key = `${b.site}\u0000${b.seriesId}`
      const s = series.get(key)
      if (!s) return void unreadable.push({ ref, detail: `${b.site}/${b.seriesId} is not among the document's Series` })
      held.add(key)
      entries.push({
        ...seriesEntry(s, ref),
        status: b.status,
        ...(b.progress !== null ? { progress: b.progress, progressAt: b.progressAt } : {}),
        reader: { name: reader.name, createdAt: reader.createdAt },
        createdAt: b.createdAt,
      })
    })
  }
  doc.series.forEach((s, index) => {
    if (!held.has(`${s.site}\u0000${s.seriesId}`)) entries.push({ ...seriesEntry(s, `Series ${index + 1}`), bookmark: false })
  })
  return {
    format: 'export',
    entries,
    sourceNames: new Map(),
    unreadable,
    readers: doc.readers.map((r) => ({ name: r.name, createdAt: r.createdAt })),
    lanePauses: doc.sites.flatMap((s) => (s.pausedUntil ? [{ site: s.key, until: s.pausedUntil }] : [])),
  }
}

function seriesEntry(s: ExportedSeries, ref: string): ImportEntry {
  return {
    ref,
    target: { kind: 'series', site: s.site, seriesId: s.seriesId, url: s.url },
    title: s.title,
    series: {
      latestChapter: s.latestChapter,
      latestChapterLabel: s.latestChapterLabel,
      latestChapterUrl: s.latestChapterUrl,
      latestSource: s.latestSource,
      latestChangedAt: s.latestChangedAt,
      latestCheckedAt: s.latestCheckedAt,
      finishedAt: s.finishedAt,
      createdAt: s.createdAt,
    },
  }
}

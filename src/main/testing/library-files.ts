/**
 * Real import files for tests, made the way their programs make them: a Mihon backup encoded with the
 * backup.proto schema by protobufjs and gzipped by zlib (as Mihon writes a .tachibk), and a bookmarks file
 * in the Netscape format Chromium's bookmark exporter writes (folders as <H3> over <DL>, HTML-escaped).
 */
import { gzipSync } from 'node:zlib'
import { BackupType } from '../library/mihon/schema'
import { sourceId } from '../library/mihon/sources'

export const MANGADEX_EN = sourceId('MangaDex', 'en')

export interface TestManga {
  source: string
  url: string
  title?: string
  /** Chapter numbers marked read (each gets a url `${url}/c/${n}`) and not read. */
  read?: number[]
  unread?: number[]
  /** When chapters were read, by chapter number. */
  readAt?: Record<number, number>
  /** Chapters given whole (urls of their own: several may share a number). */
  otherChapters?: Array<{ url: string; chapterNumber: number; read: boolean }>
  /** Reading history of chapters the backup does not list (`readAt` gives the history of listed ones). */
  otherHistory?: Array<{ url: string; lastRead: number }>
  /** Category orders the manga is in. */
  categories?: number[]
  favorite?: boolean
}

export interface TestBackup {
  manga: TestManga[]
  categories?: Array<{ name: string; order: number }>
  sources?: Array<{ name: string; sourceId: string }>
}

/** The Backup message, protobuf-encoded but not gzipped. */
export function encodeBackupMessage(backup: TestBackup): Buffer {
  const chapterUrl = (m: TestManga, n: number) => `${m.url.replace(/\/$/, '')}/c/${n}`
  const message = BackupType.fromObject({
    backupManga: backup.manga.map((m) => ({
      source: m.source,
      url: m.url,
      title: m.title ?? '',
      chapters: [
        ...(m.read ?? []).map((n) => ({ url: chapterUrl(m, n), name: `Chapter ${n}`, read: true, chapterNumber: n })),
        ...(m.unread ?? []).map((n) => ({ url: chapterUrl(m, n), name: `Chapter ${n}`, read: false, chapterNumber: n })),
        ...(m.otherChapters ?? []),
      ],
      categories: m.categories ?? [],
      history: [
        ...Object.entries(m.readAt ?? {}).map(([n, at]) => ({ url: chapterUrl(m, Number(n)), lastRead: at })),
        ...(m.otherHistory ?? []),
      ],
      ...(m.favorite === false ? { favorite: false } : {}),
    })),
    backupCategories: (backup.categories ?? []).map((c) => ({ name: c.name, order: c.order })),
    backupSources: (backup.sources ?? []).map((s) => ({ name: s.name, sourceId: s.sourceId })),
  })
  return Buffer.from(BackupType.encode(message).finish())
}

/** A `.tachibk`: the Backup message gzipped. */
export function tachibk(backup: TestBackup): Buffer {
  return gzipSync(encodeBackupMessage(backup))
}

export interface TestBookmark {
  title: string
  url: string
}
export interface TestFolder {
  folder: string
  items: Array<TestBookmark | TestFolder>
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** A bookmarks file as Chromium exports it (bookmark_html_writer.cc's layout). */
export function netscapeBookmarks(items: Array<TestBookmark | TestFolder>, addDate = 1_700_000_000): string {
  const lines = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<!-- This is an automatically generated file.',
    '     It will be read and overwritten.',
    '     DO NOT EDIT! -->',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    '<TITLE>Bookmarks</TITLE>',
    '<H1>Bookmarks</H1>',
    '<DL><p>',
  ]
  const write = (list: Array<TestBookmark | TestFolder>, depth: number) => {
    const pad = '    '.repeat(depth)
    for (const item of list) {
      if ('folder' in item) {
        lines.push(`${pad}<DT><H3 ADD_DATE="${addDate}" LAST_MODIFIED="${addDate}">${escape(item.folder)}</H3>`)
        lines.push(`${pad}<DL><p>`)
        write(item.items, depth + 1)
        lines.push(`${pad}</DL><p>`)
      } else {
        lines.push(`${pad}<DT><A HREF="${escape(item.url)}" ADD_DATE="${addDate}">${escape(item.title)}</A>`)
      }
    }
  }
  write([{ folder: 'Bookmarks bar', items }], 1)
  lines.push('</DL><p>')
  return `${lines.join('\n')}\n`
}

/**
 * A bookmarks file of `depth` folders each inside the one before (the innermost named `innermost`), with
 * `links` links spread evenly over them: the shape that made the DOM walk quadratic. Built without recursion.
 */
export function nestedBookmarks(depth: number, links: number, innermost = 'Dropped'): string {
  const parts = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n']
  let made = 0
  for (let level = 0; level < depth; level++) {
    const name = level === depth - 1 ? innermost : `Folder ${level}`
    parts.push(`<DT><H3 ADD_DATE="1">${name}</H3>\n<DL><p>\n`)
    const here = Math.floor(((level + 1) * links) / depth) - made
    for (let i = 0; i < here; i++, made++) parts.push(`<DT><A HREF="https://a.example/manga/s${made}/" ADD_DATE="1">Series ${made}</A>\n`)
  }
  parts.push('</DL><p>\n'.repeat(depth + 1))
  return parts.join('')
}

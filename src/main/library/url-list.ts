/**
 * A list of URLs: pasted text with one URL a line (blank lines and lines starting with # are left out), or a
 * CSV with a header naming a URL column and, optionally, title, status, progress and progressAt columns — the
 * columns of a Reader's own CSV download, so that file reads back.
 */
import { IMPORT_MAX_ENTRIES, statusFromLabel } from '../../shared/library'
import { detectDelimiter, parseCsv, unguardedField } from './csv'
import type { ImportEntry, ParsedLibrary } from './entries'
import { ImportError } from './errors'

const URL_COLUMNS = ['url', 'link', 'href', 'series url', 'seriesurl', 'address']
const MAX_CHAPTER = 100_000
const MAX_MILLIS = 8_640_000_000_000

/** Whether the first line of a text is a CSV header naming a URL column. */
export function isCsv(text: string): boolean {
  const first = firstLine(text)
  if (!first) return false
  const cells = parseCsv(first, detectDelimiter(first))[0] ?? []
  return cells.length > 1 && cells.some((c) => URL_COLUMNS.includes(normal(c)))
}

export function parseUrlList(text: string): ParsedLibrary {
  return isCsv(text) ? readCsv(text) : readLines(text)
}

function readLines(text: string): ParsedLibrary {
  const lines = text.split(/\r\n|\n|\r/)
  checkCount(lines.filter((l) => l.trim()).length, 'list', 'lines')
  const entries: ImportEntry[] = []
  const unreadable: ParsedLibrary['unreadable'] = []
  lines.forEach((raw, index) => {
    const line = raw.trim()
    if (!line || line.startsWith('#')) return
    const ref = `line ${index + 1}`
    if (!/^https?:\/\/\S+$/i.test(line)) unreadable.push({ ref, detail: `not a URL: ${clip(line)}` })
    else entries.push({ ref, target: { kind: 'url', url: line }, title: '' })
  })
  return { format: 'list', entries, sourceNames: new Map(), unreadable }
}

function readCsv(text: string): ParsedLibrary {
  const header = firstLine(text)
  const all = parseCsv(text.replace(/^\uFEFF/, ''), detectDelimiter(header))
  // Blank rows before the header are passed over by index: a shift per row made a file of them quadratic.
  const headerAt = all.findIndex((r) => r.some((cell) => cell.trim()))
  const rows = headerAt === -1 ? [] : all.slice(headerAt + 1)
  const columns = (headerAt === -1 ? [] : all[headerAt]!).map(normal)
  const at = (name: string[]) => columns.findIndex((c) => name.includes(c))
  const urlAt = at(URL_COLUMNS)
  const titleAt = at(['title', 'name'])
  const statusAt = at(['status', 'state', 'list', 'folder', 'category'])
  const progressAt = at(['progress', 'chapter', 'last read', 'chapters read'])
  const readAtAt = at(['progressat', 'progress at', 'read at', 'readat'])
  const data = rows.filter((r) => r.some((cell) => cell.trim()))
  checkCount(data.length, 'CSV file', 'rows')
  const entries: ImportEntry[] = []
  const unreadable: ParsedLibrary['unreadable'] = []
  rows.forEach((row, index) => {
    if (!row.some((cell) => cell.trim())) return
    const ref = `row ${index + 1}`
    const url = (row[urlAt] ?? '').trim()
    if (!/^https?:\/\/\S+$/i.test(url)) return void unreadable.push({ ref, detail: url ? `not a URL: ${clip(url)}` : 'no URL' })
    const cell = (i: number) => (i >= 0 ? (row[i] ?? '').trim() : '')
    const status = cell(statusAt) ? statusFromLabel(cell(statusAt)) : undefined
    const progress = cell(progressAt) === '' ? undefined : Number(cell(progressAt))
    const readAt = cell(readAtAt) === '' ? undefined : Number(cell(readAtAt))
    entries.push({
      ref,
      target: { kind: 'url', url },
      // csvField's spreadsheet guard (a ' before a text that may run as a formula) comes off again.
      title: unguardedField(cell(titleAt)).slice(0, 500),
      status,
      progress: progress !== undefined && Number.isFinite(progress) && progress >= 0 && progress <= MAX_CHAPTER ? progress : undefined,
      progressAt: readAt !== undefined && Number.isInteger(readAt) && readAt > 0 && readAt <= MAX_MILLIS ? readAt : undefined,
    })
  })
  return { format: 'csv', entries, sourceNames: new Map(), unreadable }
}

function checkCount(count: number, what: string, unit: string): void {
  if (count > IMPORT_MAX_ENTRIES) {
    throw new ImportError(
      `${what}: ${count.toLocaleString('en')} ${unit}; an import takes at most ${IMPORT_MAX_ENTRIES.toLocaleString('en')}`,
    )
  }
}

function firstLine(text: string): string {
  return (
    text
      .replace(/^\uFEFF/, '')
      .split(/\r\n|\n|\r/)
      .find((l) => l.trim()) ?? ''
  )
}

const normal = (s: string) => s.trim().toLowerCase().replace(/[_-]+/g, ' ')
const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 80)}…` : s)

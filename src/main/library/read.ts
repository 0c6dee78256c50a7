/**
 * Reads an import file of any supported kind, told apart by its content: a gzip stream is a Mihon/Tachiyomi
 * backup, a JSON object an export document or (with a "mangas" list) an old Tachiyomi JSON backup, a Netscape bookmark file a browser's bookmarks, anything else a
 * list of URLs (or a CSV with a URL column). Every limit is checked before the work it protects.
 */
import { open } from 'node:fs/promises'
import { basename } from 'node:path'
import { IMPORT_MAX_FILE_BYTES } from '../../shared/library'
import type { ParsedLibrary } from './entries'
import { ImportError } from './errors'
import { exportDocumentOf, isJsonDocument, parseJsonDocument } from './export-format'
import type { BackupReadOptions } from './mihon/backup'
import { parseUrlList } from './url-list'

const BACKUP_NAME = /\.(tachibk|proto\.gz|gz)$/i
const MiB = 1024 * 1024

export async function readLibrary(bytes: Buffer, fileName: string, options: BackupReadOptions = {}): Promise<ParsedLibrary> {
  if (bytes.length > IMPORT_MAX_FILE_BYTES) throw tooBig(fileName, bytes.length)
  // The backup decoder (protobufjs) and the HTML parser of bookmark files (cheerio with parse5) load on the
  // first import that reads a file, not with the app: together they are about half a second of its start.
  const { isGzip, parseMihonBackup } = await import('./mihon/backup')
  if (isGzip(bytes)) return parseMihonBackup(bytes, options)
  if (BACKUP_NAME.test(fileName)) {
    throw new ImportError(`backup: ${basename(fileName)} is not gzip (a .tachibk or .proto.gz file is a gzipped protobuf message)`)
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '')
  } catch {
    throw new ImportError(
      `${basename(fileName)}: not a file an import reads (not text, and not a gzipped backup); import a bookmarks file, a list of URLs, a CSV, a Mihon/Tachiyomi backup or an export`,
    )
  }
  if (text.includes('\u0000')) throw new ImportError(`${basename(fileName)}: not a text file`)
  if (isJsonDocument(text)) {
    const { isLegacyBackup, looksLikeLegacyBackup, parseLegacyBackup } = await import('./mihon/legacy')
    // An old Tachiyomi backup is read from its text by its own reader: its source ids are int64, past a double's
    // digits. One as Tachiyomi writes it is told by its start; another JSON file is parsed first to tell.
    if (looksLikeLegacyBackup(text)) return parseLegacyBackup(text, options)
    const json = parseJsonDocument(text)
    if (isLegacyBackup(json)) return parseLegacyBackup(text, options)
    return exportDocumentOf(json)
  }
  const { isBookmarksFile, parseBookmarksFile } = await import('./bookmarks-file')
  if (isBookmarksFile(text)) return parseBookmarksFile(text)
  return parseUrlList(text)
}

/**
 * Reads a file from disk for an import: its size is checked first, so a 2 GB file is refused without being
 * read (or allocated).
 */
export async function readImportFile(path: string): Promise<Buffer> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new ImportError(`${path}: cannot be opened (${error.code ?? error.message})`)
  })
  try {
    const { size } = await handle.stat()
    if (size > IMPORT_MAX_FILE_BYTES) throw tooBig(path, size)
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

function tooBig(fileName: string, size: number): ImportError {
  const bytes = (n: number) => n.toLocaleString('en')
  return new ImportError(
    `${basename(fileName)}: ${bytes(size)} bytes; an import reads files up to ${IMPORT_MAX_FILE_BYTES / MiB} MiB (${bytes(IMPORT_MAX_FILE_BYTES)} bytes)`,
  )
}

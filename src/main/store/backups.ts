/**
 * Backups of the store (docs/adr/0048-backups.md): online copies made with SQLite's backup API — the app keeps
 * running and writing while one is made — into `<data>/backups/`, one file per backup named by its time. A copy
 * is made aside (`….partial`), checked (`quick_check`), then renamed into place, so a backup file that exists is
 * whole. Retention keeps the last 7, and the newest of each week for a month. Times are parameters.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { AppError } from '../../shared/errors'
import { preparePrivateFile, tightenFile } from './private-files'
import { ONE_PASS_CACHE_KIB } from './integrity'

/** A backup file (the admin contract's BackupView has the same shape). */
export interface BackupView {
  file: string
  /** When it was made (wall clock), from its name. */
  at: number
  bytes: number
}

export const BACKUP_DIR = 'backups'
/** How many of the newest backups are always kept. */
export const KEEP_NEWEST = 7
/** How far back one backup per week is kept. */
export const KEEP_WEEKLY_MS = 31 * 86_400_000
const WEEK_MS = 7 * 86_400_000

const NAME = /^manga-bookmark-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})(?:-(\d{3}))?Z\.sqlite$/

/** `manga-bookmark-2025-03-01T04-00-00-000Z.sqlite`: the time, UTC, sortable, with no character a file system refuses. */
export function backupName(at: number): string {
  return `manga-bookmark-${new Date(at).toISOString().replace(/:/g, '-').replace('.', '-')}.sqlite`
}

/** The time in a backup's name, or null for a file that is not a backup. */
export function backupTime(name: string): number | null {
  const m = NAME.exec(name)
  if (!m) return null
  const [, y, mo, d, h, mi, s, ms] = m
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms ?? 0))
}

/** The backups in a directory, newest first. */
export function listBackups(dir: string): BackupView[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const found: BackupView[] = []
  for (const name of names) {
    const at = backupTime(name)
    if (at === null) continue
    try {
      found.push({ file: join(dir, name), at, bytes: statSync(join(dir, name)).size })
    } catch {
      // Removed while we looked.
    }
  }
  return found.sort((a, b) => b.at - a.at)
}

/**
 * Which backups to keep at `now`: the `KEEP_NEWEST` newest, and the newest of each calendar week (weeks counted
 * from the epoch, so a week's choice never changes once it is over) among those made within `KEEP_WEEKLY_MS`.
 * Pure.
 */
export function backupsToKeep(backups: ReadonlyArray<Pick<BackupView, 'file' | 'at'>>, now: number): Set<string> {
  const newestFirst = [...backups].sort((a, b) => b.at - a.at)
  const keep = new Set(newestFirst.slice(0, KEEP_NEWEST).map((b) => b.file))
  const weeks = new Set<number>()
  for (const b of newestFirst) {
    if (b.at < now - KEEP_WEEKLY_MS) break
    const week = Math.floor(b.at / WEEK_MS)
    if (weeks.has(week)) continue
    weeks.add(week)
    keep.add(b.file)
  }
  return keep
}

/** Deletes the backups retention does not keep, and copies left half-made; returns the files deleted. */
export function pruneBackups(dir: string, now: number): string[] {
  const backups = listBackups(dir)
  const keep = backupsToKeep(backups, now)
  const removed: string[] = []
  for (const b of backups) {
    if (keep.has(b.file)) continue
    rmSync(b.file, { force: true })
    removed.push(b.file)
  }
  for (const name of safeList(dir)) {
    if (!/\.partial(-wal|-shm|-journal)?$/.test(name)) continue
    rmSync(join(dir, name), { force: true })
    removed.push(join(dir, name))
  }
  return removed
}

/** Pages copied per step of the online backup (better-sqlite3's own default); the loop runs between steps. */
const BACKUP_STEP_PAGES = 100
export const WRITE_IN_PROGRESS = 'a write is in progress on the database (an import?); try again once it ends'

/**
 * Makes a backup of the open database into `dir`, named by `at`: SQLite's online backup into a `.partial`
 * file, a `quick_check` of the copy, then a rename. Throws `store: backup: …` when any step fails, leaving no
 * file behind.
 */
export async function backupDatabase(
  sqlite: BetterSqlite3.Database,
  dir: string,
  at: number,
  options: { nativeBinding?: string } = {},
): Promise<BackupView> {
  // A backup on the connection of an open transaction copies a database without what it has not committed — nor,
  // in SQLite's online backup, always what it has: refused, whoever opened it (docs/adr/0140-…).
  if (sqlite.inTransaction) throw new AppError('conflict', `store: backup refused: ${WRITE_IN_PROGRESS}`)
  const file = join(dir, backupName(at))
  const partial = `${file}.partial`
  const leftovers = [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`]
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    // Made 0600 before SQLite writes into it, whatever the umask: a backup is the whole library
    // (docs/adr/0043-private-files.md), and at no moment a file others may read.
    preparePrivateFile(partial)
    // Between two of the backup's steps the loop runs: a transaction begun meanwhile (a caller that did not take
    // the store's connection first) ends this copy rather than leaving a broken one.
    await sqlite.backup(partial, {
      progress: () => {
        if (sqlite.inTransaction) throw new Error(WRITE_IN_PROGRESS)
        return BACKUP_STEP_PAGES
      },
    })
    // One self-contained file (no -wal beside it), so a restore is copying one file; the app turns WAL on again
    // when it opens it.
    const copy = new BetterSqlite3(partial, {
      fileMustExist: true,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    })
    try {
      copy.pragma('journal_mode = DELETE')
      copy.pragma(`cache_size = -${ONE_PASS_CACHE_KIB}`)
      const check = copy.pragma('quick_check', { simple: true })
      if (check !== 'ok') throw new Error(`the copy does not pass quick_check: ${String(check)}`)
    } finally {
      copy.close()
    }
    tightenFile(partial)
    renameSync(partial, file)
  } catch (error) {
    for (const leftover of leftovers) removeQuietly(leftover)
    throw new Error(`store: backup into ${dir} failed: ${(error as Error).message}`, { cause: error })
  }
  return { file, at, bytes: statSync(file).size }
}

/** Whether a database holds a library: any Reader or any Series (a library with neither is empty). */
export function holdsLibrary(sqlite: BetterSqlite3.Database): boolean {
  const row = sqlite.prepare('SELECT EXISTS (SELECT 1 FROM readers) OR EXISTS (SELECT 1 FROM series) AS held').get() as { held: number }
  return row.held === 1
}

/** A backup file opened read-only, never created. */
export function openBackupReadOnly(file: string, options: { nativeBinding?: string } = {}): BetterSqlite3.Database {
  return new BetterSqlite3(file, {
    readonly: true,
    fileMustExist: true,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  })
}

/**
 * Whether a backup file holds a library (read-only): true, false, or null when it cannot be read as one (damaged,
 * not a database, tables missing).
 */
export function backupHoldsLibrary(file: string, options: { nativeBinding?: string } = {}): boolean | null {
  let db: BetterSqlite3.Database | undefined
  try {
    db = openBackupReadOnly(file, options)
    return holdsLibrary(db)
  } catch {
    return null
  } finally {
    db?.close()
  }
}

/**
 * Why no backup of the store may be made now, or null: a file found damaged (a backup of it would be a damaged
 * copy, pruning a good one), or an empty library while a backup holds one (the database was deleted or moved: a
 * backup of the empty file would become the newest, and retention would prune the good ones away).
 */
export function backupRefusal(
  sqlite: BetterSqlite3.Database,
  damaged: boolean,
  dir: string,
  options: { nativeBinding?: string } = {},
): string | null {
  if (damaged) return 'the database is damaged: no backup is made of it (restore the newest good backup)'
  try {
    if (holdsLibrary(sqlite)) return null
  } catch (error) {
    return `the database cannot be read: no backup is made of it (${(error as Error).message})`
  }
  const holding = listBackups(dir).find((b) => backupHoldsLibrary(b.file, options))
  if (!holding) return null
  return `the library is empty but the backup ${holding.file} holds one: no backup is made of the empty library (restore a backup, or remove the older backups if the library is meant to be empty)`
}

function removeQuietly(file: string): void {
  try {
    rmSync(file)
  } catch {
    // Never made (the folder itself could not be): ENOENT, taken here like any other failure.
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

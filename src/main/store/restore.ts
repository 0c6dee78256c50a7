/**
 * Restoring a backup (docs/adr/0089-restore-in-place.md): the backup is verified (`PRAGMA integrity_check`),
 * copied beside the database, and renamed over it — one atomic step, so the path always names a whole file. The
 * file it replaces is kept aside as `<file>.before-restore-<time>`, with its `-wal` and `-shm` moved beside it under
 * the same name (such copies are pruned like the backups: the last 7, and one a week for a month), so the old journal is never applied to the restored file and the old
 * file can still be opened with its journal. The database must be closed meanwhile (the CLI holds the data
 * directory's lock; the running core closes its connection while it swaps).
 */
import { closeSync, copyFileSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { AppError } from '../../shared/errors'
import { backupHoldsLibrary, backupsToKeep, openBackupReadOnly, backupTime, listBackups, type BackupView } from './backups'
import { preparePrivateFile, tightenFile } from './private-files'

/** What `integrity_check` said of a backup: `ok`, or the first problems it found (or why it could not run). */
export interface BackupVerdict {
  ok: boolean
  problems: string[]
  /** True when it passes the check and holds no Reader and no Series (absent: not looked at). */
  empty?: boolean
}

export interface CheckedBackup extends BackupView {
  verdict: BackupVerdict
}

/** The journal files SQLite keeps beside a database. */
const SIDES = ['-wal', '-shm', '-journal'] as const

/** Runs `PRAGMA integrity_check` on a backup, read-only. Never throws. */
export function verifyBackup(file: string, options: { nativeBinding?: string } = {}): BackupVerdict {
  let db: BetterSqlite3.Database | undefined
  try {
    db = openBackupReadOnly(file, options)
    const rows = db.pragma('integrity_check(5)') as Array<Record<string, unknown>>
    const lines = rows.map((row) => String(Object.values(row)[0]))
    return lines[0] === 'ok' ? { ok: true, problems: [] } : { ok: false, problems: lines }
  } catch (error) {
    return { ok: false, problems: [`integrity_check: ${(error as Error).message}`] }
  } finally {
    db?.close()
  }
}

/** The backups in `dir`, newest first, each with its verdict. */
export function checkBackups(dir: string, options: { nativeBinding?: string } = {}): CheckedBackup[] {
  return listBackups(dir).map((b) => {
    const verdict = verifyBackup(b.file, options)
    return { ...b, verdict: verdict.ok ? { ...verdict, empty: backupHoldsLibrary(b.file, options) === false } : verdict }
  })
}

/** The refusal of a backup `integrity_check` found damaged (`invalid`): nothing is changed. */
export function damagedBackup(file: string, verdict: BackupVerdict): AppError {
  return new AppError(
    'invalid',
    `the backup ${file} does not pass integrity_check (${verdict.problems.slice(0, 2).join('; ')}); choose another`,
  )
}

/**
 * The files earlier restores kept aside (`<file>.before-restore-<time>`), pruned like the backups
 * (docs/adr/0048-backups.md): the newest `KEEP_NEWEST`, and the newest of each week for a month; each with its
 * journal. Returns the files deleted.
 */
export function pruneAside(file: string, now: number): string[] {
  const dir = dirname(file)
  const prefix = `${basename(file)}.before-restore-`
  const kept: Array<{ file: string; at: number }> = []
  for (const name of safeList(dir)) {
    if (!name.startsWith(prefix) || SIDES.some((side) => name.endsWith(side))) continue
    const at = backupTime(`manga-bookmark-${name.slice(prefix.length)}.sqlite`)
    if (at !== null) kept.push({ file: join(dir, name), at })
  }
  const keep = backupsToKeep(kept, now)
  const removed: string[] = []
  for (const aside of kept) {
    if (keep.has(aside.file)) continue
    for (const side of ['', ...SIDES]) {
      if (!existsSync(`${aside.file}${side}`)) continue
      rmSync(`${aside.file}${side}`, { force: true })
      removed.push(`${aside.file}${side}`)
    }
  }
  return removed
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/** Where the file a restore replaces is kept: `<file>.before-restore-2026-03-01T04-00-00-000Z`. */
export function asideName(file: string, at: number): string {
  return `${file}.before-restore-${new Date(at).toISOString().replace(/:/g, '-').replace('.', '-')}`
}

export interface RestoreReport {
  /** The backup restored. */
  from: string
  /** The database file, now the backup's copy. */
  file: string
  /** Where the replaced file and its journal were kept (absent: there was no file at the path). */
  aside: string[]
  /** What vetting the copy changed in it (store/restore-vet.ts), in words; empty when nothing. */
  changed: string[]
}

/**
 * Puts a verified copy of `backup` at `file`, keeping what was there aside. The database must be closed. Throws an
 * AppError (`invalid`) for a backup that does not pass `integrity_check`, and changes nothing then.
 */
export function restoreFile(
  backup: string,
  file: string,
  at: number,
  options: { nativeBinding?: string; verified?: boolean; vet?: (copy: string) => string[] } = {},
): RestoreReport {
  if (!options.verified) {
    const verdict = verifyBackup(backup, options)
    if (!verdict.ok) throw damagedBackup(backup, verdict)
  }
  const restoring = `${file}.restoring`
  rmSync(restoring, { force: true })
  preparePrivateFile(restoring)
  copyFileSync(backup, restoring)
  tightenFile(restoring)
  let changed: string[] = []
  try {
    // The copy is vetted, never the backup: a refusal leaves the backup and the database as they were.
    changed = options.vet?.(restoring) ?? []
  } catch (error) {
    for (const side of ['', ...SIDES]) rmSync(`${restoring}${side}`, { force: true })
    throw error
  }
  syncFile(restoring)
  const aside = asideName(file, at)
  const kept: string[] = []
  // The old journal goes first, with its file's name: applied to the restored file it would undo the restore.
  for (const side of SIDES) {
    if (!existsSync(`${file}${side}`)) continue
    renameSync(`${file}${side}`, `${aside}${side}`)
    kept.push(`${aside}${side}`)
  }
  if (existsSync(file)) {
    // A second name for the old file, then one rename over it: the path never names a missing or half file.
    try {
      linkSync(file, aside)
    } catch {
      renameSync(file, aside)
    }
    kept.unshift(aside)
  }
  renameSync(restoring, file)
  syncFile(dirname(file))
  // The copies earlier restores kept are pruned like the backups; the one kept now is the newest.
  pruneAside(file, at)
  return { from: backup, file, aside: kept, changed }
}

/** A backup `--latest` passed over, and why. */
export interface SkippedBackup {
  file: string
  why: string
}

/**
 * The newest backup that passes `integrity_check` and holds a library (Readers or Series), with the newer ones
 * passed over and why. An empty backup is chosen only when no backup holds a library (a new install's). Null when
 * none passes the check.
 */
export function newestGoodBackup(
  dir: string,
  options: { nativeBinding?: string } = {},
): { chosen: CheckedBackup | null; skipped: SkippedBackup[] } {
  const skipped: SkippedBackup[] = []
  let firstEmpty: CheckedBackup | null = null
  for (const b of listBackups(dir)) {
    const verdict = verifyBackup(b.file, options)
    if (!verdict.ok) {
      skipped.push({ file: b.file, why: `damaged (${verdict.problems[0]})` })
      continue
    }
    if (backupHoldsLibrary(b.file, options)) return { chosen: { ...b, verdict }, skipped }
    firstEmpty ??= { ...b, verdict }
    skipped.push({ file: b.file, why: 'empty (no Reader, no Series)' })
  }
  // Only empty ones: the newest of them is the library as it was.
  return { chosen: firstEmpty, skipped: skipped.filter((s) => s.file !== firstEmpty?.file) }
}

function syncFile(path: string): void {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    fsyncSync(fd)
  } catch {
    // A file system that cannot fsync a directory: the rename stands all the same.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

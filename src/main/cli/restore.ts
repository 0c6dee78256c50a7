/**
 * `npm run restore -- [--data DIR] [--from FILE|--latest] [--list]`
 * Lists the data directory's backups with their time, size and verdict (`PRAGMA integrity_check`), or restores one
 * over the database: verified, copied, vetted (store/restore-vet.ts), renamed into place, the replaced file and its
 * journal kept aside, pruned like the backups (docs/adr/0089-restore-in-place.md). Refuses while the app runs on that data directory: the window's
 * Settings → Backups → Restore does it there.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { sizeWords } from '../../shared/format'
import { BACKUP_DIR, listBackups } from '../store/backups'
import { lockDataDir, type DataLock } from '../store/data-lock'
import { STORE_FILE } from '../store/database'
import { checkBackups, newestGoodBackup, restoreFile, verifyBackup, type BackupVerdict, type CheckedBackup } from '../store/restore'
import { dataDirOf, readCommandLine, type Output } from './help'
import { vetRestoredCopy } from '../store/restore-vet'
import { BUILT_IN_SITES } from '../sites/builtin'
import { onSitePin } from '../sites/site'
import { loadSites } from '../sites/sites-file'

const USAGE = 'usage: npm run restore -- [--data DIR] [--from FILE | --latest] [--list]'

const HELP = [
  'Usage: npm run restore -- [--data DIR] [--from FILE | --latest] [--list]',
  '',
  "Restores a backup over the data directory's database. The backup is verified first (integrity_check); the",
  'database it replaces is kept beside it as manga-bookmark.sqlite.before-restore-<time>, with its -wal and -shm;',
  'such copies are pruned like the backups (the last 7, and one a week for a month). The copy restored is vetted:',
  "schema objects the migrations did not make are dropped, URLs off their Site's pin cleared, and what changed is said.",
  'Stop the app first (or use Settings → Backups → Restore in its window).',
  '  --list        list the backups with their time, size and verdict (the default when nothing else is asked)',
  '  --latest      restore the newest backup that passes the check and holds a library (says which it skipped)',
  '  --from FILE   restore this backup file',
  '  --data DIR    the data directory (default: $XDG_DATA_HOME/manga-bookmark, else ~/.local/share/manga-bookmark)',
].join('\n')

/** One line of `--list`: `2026-03-01 04:00:00Z  1.2 MB  ok  <file>`. */
export function backupLine(b: CheckedBackup): string {
  const when = new Date(b.at)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, 'Z')
  const verdict = !b.verdict.ok ? `damaged (${b.verdict.problems[0]})` : b.verdict.empty ? 'ok, empty (no Reader, no Series)' : 'ok'
  return `${when}  ${sizeWords(b.bytes).padStart(8)}  ${verdict}  ${b.file}`
}

export async function runRestoreCommand(
  argv: string[],
  io: Output,
  options: { env?: NodeJS.ProcessEnv; now?: () => number } = {},
): Promise<number> {
  const parsed = readCommandLine(argv, io, {
    name: 'restore',
    options: { data: { type: 'string' }, from: { type: 'string' }, latest: { type: 'boolean' }, list: { type: 'boolean' } },
    help: HELP,
    usage: USAGE,
  })
  if (typeof parsed === 'number') return parsed
  const { from, latest, list } = parsed.values
  if ((from !== undefined && latest) || (list && (from !== undefined || latest))) {
    io.err(`restore: give one of --from FILE, --latest and --list\n${USAGE}`)
    return 2
  }
  const dataDir = dataDirOf('restore', parsed.values.data, io, options.env ?? process.env)
  if (dataDir === undefined) return 2
  const backupDir = join(dataDir, BACKUP_DIR)
  if (!existsSync(dataDir)) {
    io.err(`restore: no data directory at ${dataDir}; give it with --data`)
    return 1
  }
  if (from === undefined && !latest) {
    const backups = checkBackups(backupDir)
    if (!backups.length) io.err(`restore: no backups in ${backupDir}`)
    for (const b of backups) io.out(backupLine(b))
    if (!list && backups.length) io.err('restore: give --latest, or --from FILE, to restore one')
    return 0
  }
  const now = options.now ?? Date.now
  if (from !== undefined) return restoreChosen(resolve(from), dataDir, io, now)
  // --latest: the backups checked newest first, up to the first good one holding a library (not checked again).
  const { chosen: newest, skipped } = newestGoodBackup(backupDir)
  for (const s of skipped) io.err(`restore: skipped ${s.file}: ${s.why}`)
  if (!newest) {
    const count = listBackups(backupDir).length
    io.err(`restore: no backup in ${backupDir} passes integrity_check${count ? ` (${count} looked at)` : ''}`)
    return 1
  }
  return restoreChosen(newest.file, dataDir, io, now, newest.verdict)
}

function restoreChosen(backup: string, dataDir: string, io: Output, now: () => number, checked?: BackupVerdict): number {
  if (!existsSync(backup)) {
    io.err(`restore: no file at ${backup}`)
    return 1
  }
  const verdict = checked ?? verifyBackup(backup)
  if (!verdict.ok) {
    io.err(`restore: ${backup} does not pass integrity_check (${verdict.problems.slice(0, 2).join('; ')}); nothing was changed`)
    return 1
  }
  let lock: DataLock
  try {
    lock = lockDataDir(dataDir, {
      advice: 'quit the app first, or restore in its window (Settings → Backups → Restore); nothing was changed',
    })
  } catch (error) {
    io.err(`restore: ${(error as Error).message}`)
    return 1
  }
  try {
    const onPin = onSitePin(loadSites(dataDir, BUILT_IN_SITES).sites)
    const report = restoreFile(backup, join(dataDir, STORE_FILE), now(), { verified: true, vet: (copy) => vetRestoredCopy(copy, onPin) })
    io.out(report.file)
    io.err(`restore: ${backup} is now the database ${report.file}`)
    for (const change of report.changed) io.err(`restore: vetting the copy ${change}`)
    if (report.aside.length) io.err(`restore: the file it replaced is kept at ${report.aside.join(', ')}`)
    io.err('restore: start the app as usual; it opens the restored file')
    return 0
  } catch (error) {
    io.err(`restore: ${(error as Error).message}`)
    return 1
  } finally {
    lock.release()
  }
}

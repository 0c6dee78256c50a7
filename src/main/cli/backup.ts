/**
 * `npm run backup -- [--data DIR]`
 * Makes a backup of the data directory's database into `<data>/backups/` now, with SQLite's online backup — the
 * app may be running and writing meanwhile — and prunes old backups by retention (docs/adr/0048-backups.md).
 * Prints the backup's path.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { BACKUP_DIR, backupDatabase, backupRefusal, pruneBackups } from '../store/backups'
import { STORE_FILE } from '../store/database'
import { dataDirOf, readCommandLine, type Output } from './help'

const USAGE = 'usage: npm run backup -- [--data DIR]'

const HELP = [
  'Usage: npm run backup -- [--data DIR]',
  '',
  "Backs the database up into <data>/backups/ now (SQLite's online backup: the app may be running), prunes old",
  "backups by retention and prints the backup's path.",
  '  --data DIR   the data directory (default: $XDG_DATA_HOME/manga-bookmark, else ~/.local/share/manga-bookmark)',
].join('\n')

export async function runBackupCommand(
  argv: string[],
  io: Output,
  options: { env?: NodeJS.ProcessEnv; now?: () => number } = {},
): Promise<number> {
  const parsed = readCommandLine(argv, io, { name: 'backup', options: { data: { type: 'string' } }, help: HELP, usage: USAGE })
  if (typeof parsed === 'number') return parsed
  const now = options.now ?? Date.now
  const dataDir = dataDirOf('backup', parsed.values.data, io, options.env ?? process.env)
  if (dataDir === undefined) return 2
  const file = join(dataDir, STORE_FILE)
  if (!existsSync(file)) {
    io.err(`backup: no database at ${file}; give the data directory with --data`)
    return 1
  }
  // Read-only: a backup never changes the database, nor migrates it.
  const sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true })
  try {
    const dir = join(dataDir, BACKUP_DIR)
    // An empty library beside backups that hold one is the database deleted or moved: no backup of it.
    const refused = backupRefusal(sqlite, false, dir)
    if (refused) {
      io.err(`backup: refused: ${refused}`)
      return 1
    }
    const made = await backupDatabase(sqlite, dir, now())
    const pruned = pruneBackups(dir, now())
    io.out(made.file)
    io.err(`backup: ${made.bytes} bytes written${pruned.length ? `; ${pruned.length} older backups removed by retention` : ''}`)
    return 0
  } catch (error) {
    io.err(`backup: ${(error as Error).message}`)
    return 1
  } finally {
    sqlite.close()
  }
}

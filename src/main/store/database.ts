/**
 * Opens the one SQLite file: the pragmas of docs/design.md#data, migrations, and a Kysely handle over the same
 * connection. better-sqlite3 is synchronous and Kysely's SQLite dialect serialises every query on this
 * single connection, so a Kysely transaction is a real SQLite transaction.
 */
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { migrate, type MigrationReport } from './migrate'
import { ensurePrivateDir, preparePrivateFile, tightenFile } from './private-files'
import type { Database } from './schema'
import { guardStore, type StorageHealth } from './storage'

export type Db = Kysely<Database>

export interface Store {
  readonly db: Db
  /** The connection in use (a connection opened read-only is replaced once the file is writable). */
  readonly sqlite: BetterSqlite3.Database
  /** The database file's path, or ':memory:'. */
  readonly file: string
  readonly migration: MigrationReport
  /** Whether the store can take writes, and why not (docs/adr/0045-storage-faults.md). */
  readonly health: StorageHealth
  /**
   * Puts another file at the store's path while the app runs (a restore, docs/adr/0089-restore-in-place.md): waits
   * for the statement or transaction in progress, closes the connection, runs `swap`, opens the file at the path
   * and migrates it (a backup may be older than the app). The Kysely handle stays the same.
   */
  replaceFile(swap: () => void, now: number): Promise<MigrationReport>
  close(): Promise<void>
}

export interface OpenStoreOptions {
  /** The time recorded with applied migrations. */
  now: number
  /** A better-sqlite3 native module built for another ABI (Electron), by path. */
  nativeBinding?: string
  /** How long a write waits for a lock held by another connection. */
  busyTimeoutMs?: number
}

/** The file name of the store inside a data directory. */
export const STORE_FILE = 'manga-bookmark.sqlite'

export function openStore(file: string, options: OpenStoreOptions): Store {
  // The database, its WAL and shm are the owner's alone, whatever the umask (private-files.ts).
  if (file !== ':memory:') {
    ensurePrivateDir(dirname(file))
    preparePrivateFile(file)
  }
  const connect = () => {
    const sqlite = new BetterSqlite3(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
    try {
      sqlite.pragma('journal_mode = WAL')
      if (file !== ':memory:') for (const side of ['-wal', '-shm']) tightenFile(`${file}${side}`)
      sqlite.pragma('foreign_keys = ON')
      sqlite.pragma('synchronous = FULL')
      sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`)
      return sqlite
    } catch (error) {
      sqlite.close()
      throw error
    }
  }
  const sqlite = connect()
  try {
    const migration = migrate(sqlite, file === ':memory:' ? null : file, options.now)
    // Statistics for any table never analysed, from a bounded sample, so the planner knows the shapes of the
    // tables from the first query on; the Lanes' retention task keeps them current
    // (docs/adr/0053-retention-and-statistics.md). Only an optimisation: a file that cannot be written now
    // (read-only, a full disk) opens without them, and what that means is the storage watch's to say.
    try {
      sqlite.pragma('optimize=0x10012')
    } catch {
      // The hourly task tries again.
    }
    const guarded = guardStore(file, sqlite, connect)
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: guarded.database }) })
    return {
      db,
      get sqlite() {
        return guarded.connection
      },
      file,
      migration,
      health: guarded.health,
      // Kysely's connection is held meanwhile: no statement nor transaction runs on the connection being replaced.
      replaceFile: (swap, now) =>
        db.connection().execute(async () => {
          // Should the swap fail, the same file is opened again, and needs no migration.
          guarded.swapFile(swap)
          // The file now at the path is migrated before any statement runs on it.
          return migrate(guarded.connection, file, now)
        }),
      close: async () => {
        // Kysely's destroy closes the connection only once a query has run through it; a store closed before
        // its first query would keep its file (and the descriptor held to tell moved from deleted) open.
        await db.destroy()
        guarded.database.close()
      },
    }
  } catch (error) {
    sqlite.close()
    throw error
  }
}

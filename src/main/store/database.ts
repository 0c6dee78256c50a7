/**
 * Opens the one SQLite file: the pragmas of docs/design.md#data, migrations, and a Kysely handle over the same
 * connection. better-sqlite3 is synchronous and Kysely's SQLite dialect serialises every query on this
 * single connection, so a Kysely transaction is a real SQLite transaction.
 */
import { readFileSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { migrations } from '../../../migrations'
import { AppError } from '../../shared/errors'
import { compiledOnce } from './compiled'
import { migrate, schemaVersion, versionOf, type MigrationReport } from './migrate'
import { ensurePrivateDir, preparePrivateFile, tightenFile } from './private-files'
import type { Database } from './schema'
import { guardStore, type StorageFault, type StorageHealth } from './storage'

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

/** What the WAL is cut back to once a checkpoint resets it. */
export const WAL_LIMIT_BYTES = 4 * 1024 * 1024

/**
 * The page cache of the store's connection, in KiB: SQLite's own default, not better-sqlite3's 16 MB. At 100k
 * Series the 16 MB filled and, with the glibc heap it left fragmented, held ~28 MB of the app's resident memory;
 * the pages it misses are in the system's file cache (docs/adr/0240-a-page-cache-the-size-sqlite-chose.md).
 */
export const STORE_CACHE_KIB = 2000
/** The file name of the store inside a data directory. */
export const STORE_FILE = 'manga-bookmark.sqlite'

export function openStore(file: string, options: OpenStoreOptions): Store {
  // The database, its WAL and shm are the owner's alone, whatever the umask (private-files.ts).
  if (file !== ':memory:') {
    ensurePrivateDir(dirname(file))
    preparePrivateFile(file)
  }
  const connect = connector(file, options)
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
    return storeOver(file, sqlite, connect, migration, null)
  } catch (error) {
    sqlite.close()
    throw error
  }
}

/**
 * Opens a file that could not be opened for writing at start (docs/adr/0115-a-start-that-cannot-write.md)
 * read-only, as it is: no migration (a file behind the app's schema is not opened this way), and `fault` known from
 * the first statement. Writes are refused; a read-only or full file is opened for writing again once it can be.
 */
export function openStoreReadOnly(file: string, options: OpenStoreOptions, fault: StorageFault): Store {
  const sqlite = openReadOnly(file, options)
  try {
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`)
    sqlite.pragma(`cache_size = -${STORE_CACHE_KIB}`)
    const version = schemaVersion(sqlite)
    const newest = Math.max(...migrations.map(versionOf))
    if (version !== newest) throw new AppError('invalid', `store: the file's schema version is ${version}, this app's ${newest}`)
    return storeOver(file, sqlite, connector(file, options), { from: version, to: version, backup: null }, fault)
  } catch (error) {
    sqlite.close()
    throw error
  }
}

/**
 * Runs `work` on the store's one connection with its commits not waited for on the disk (`synchronous = NORMAL`
 * in WAL: a commit is written to the WAL, the fsync left to the next full commit or checkpoint), then puts the
 * connection back to `synchronous = FULL`. Only for writes that may be lost to a power cut because they are
 * re-done: a Lane's check stamp and record (docs/adr/0205-which-writes-wait-for-the-disk.md). Atomicity is
 * untouched, and so is every other write: the connection is held meanwhile, so nothing else runs relaxed (unless
 * the return to FULL fails twice: then until the next call; ADR 0235), and the next full commit makes these durable
 * too (the WAL is written in order). `work` must only use the store:
 * no request, no wait on anything else, or every other query waits with it.
 */
export function unsyncedWrites<T>(db: Db, work: (connection: Db) => Promise<T>): Promise<T> {
  // Inside a transaction the setting cannot change (SQLite refuses): its commit is its owner's to make.
  if (db.isTransaction) return work(db)
  return db.connection().execute(async (connection) => {
    await SYNC_NORMAL(connection)
    let result: T
    try {
      result = await work(connection)
    } catch (error) {
      // The work's own error is the one to tell, whatever the return to FULL meets.
      await backToFull(connection).catch(() => undefined)
      throw error
    }
    // What the work committed stands: a return to FULL that fails does not make it read as failed (a check that
    // stored its New Chapter would report an error and the chapter would go unannounced). Tried twice; still
    // failing (a locked file), the connection stays at NORMAL until the next of these calls, moments later.
    await backToFull(connection).catch(() => backToFull(connection).catch(() => undefined))
    return result
  })
}

const backToFull = (connection: Db) => SYNC_FULL(connection).then(() => undefined)

// Run twice a check: compiled once (store/compiled.ts).
const SYNC_NORMAL = compiledOnce(() => sql`PRAGMA synchronous = NORMAL`)
const SYNC_FULL = compiledOnce(() => sql`PRAGMA synchronous = FULL`)

/** The largest file read whole into memory when its folder refuses the shared-memory file a read needs. */
const LARGEST_COPY = 512 * 1024 * 1024

/**
 * Opens `file` read-only. On a file system that takes no new file, SQLite cannot make the `-shm` a WAL read needs:
 * then, with no journal beside it to apply, the file is read into memory whole and opened from there, read-only.
 */
function openReadOnly(file: string, options: OpenStoreOptions): BetterSqlite3.Database {
  const binding = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}
  let sqlite: BetterSqlite3.Database | undefined
  try {
    sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true, ...binding })
    // SQLite opens the file at the first read: read now, so a file it cannot read falls back here.
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get()
    return sqlite
  } catch (error) {
    sqlite?.close()
    const wal = statSync(`${file}-wal`, { throwIfNoEntry: false })
    if (!/^SQLITE_(CANTOPEN|IOERR)/.test(String((error as { code?: unknown }).code)) || (wal && wal.size > 0)) throw error
    if (statSync(file).size > LARGEST_COPY) throw error
    const bytes = readFileSync(file)
    // The header's read and write versions say "WAL"; a database in memory has no WAL: legacy (1) reads the same pages.
    if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) bytes[18] = bytes[19] = 1
    return new BetterSqlite3(bytes, { readonly: true, ...binding })
  }
}

/**
 * A stand-in for a file SQLite cannot open at all (docs/adr/0115-…): an empty schema in memory, so the owner's
 * window runs and offers the restore; `fault` (damaged) refuses every write. A restore puts a file at `file` and
 * opens it as usual (`replaceFile`).
 */
export function openStandIn(file: string, options: OpenStoreOptions, fault: StorageFault): Store {
  const sqlite = connector(':memory:', options)()
  const migration = migrate(sqlite, null, options.now)
  return storeOver(file, sqlite, connector(file, options), { ...migration, from: migration.to }, fault)
}

/** Opens `file` with the pragmas of docs/design.md#data (WAL, foreign keys, full sync, the busy timeout). */
function connector(file: string, options: OpenStoreOptions): () => BetterSqlite3.Database {
  return () => {
    const sqlite = new BetterSqlite3(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
    try {
      sqlite.pragma('journal_mode = WAL')
      if (file !== ':memory:') for (const side of ['-wal', '-shm']) tightenFile(`${file}${side}`)
      sqlite.pragma('foreign_keys = ON')
      sqlite.pragma('synchronous = FULL')
      sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`)
      sqlite.pragma(`cache_size = -${STORE_CACHE_KIB}`)
      // A WAL grown by a burst (an import, a retention sweep) is cut back to this once a checkpoint resets it,
      // instead of keeping its largest size for ever: a nearly full disk gets the space back.
      sqlite.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`)
      return sqlite
    } catch (error) {
      sqlite.close()
      throw error
    }
  }
}

/** The store over an open connection: the guard, the Kysely handle, the swap of its file and its close. */
function storeOver(
  file: string,
  sqlite: BetterSqlite3.Database,
  connect: () => BetterSqlite3.Database,
  migration: MigrationReport,
  fault: StorageFault | null,
): Store {
  const guarded = guardStore(file, sqlite, connect, undefined, fault)
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
}

/**
 * Opens the one SQLite file: the pragmas of docs/design.md#data, migrations, and a Kysely handle over the same
 * connection. better-sqlite3 is synchronous and Kysely's SQLite dialect serialises every query on this
 * single connection, so a Kysely transaction is a real SQLite transaction.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely'
import { migrate, type MigrationReport } from './migrate'
import type { Database } from './schema'

export type Db = Kysely<Database>

export interface Store {
  readonly db: Db
  readonly sqlite: BetterSqlite3.Database
  /** The database file's path, or ':memory:'. */
  readonly file: string
  readonly migration: MigrationReport
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
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const sqlite = new BetterSqlite3(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
  try {
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('foreign_keys = ON')
    sqlite.pragma('synchronous = FULL')
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`)
    const migration = migrate(sqlite, file === ':memory:' ? null : file, options.now)
    // Statistics for any table never analysed, from a bounded sample, so the planner knows the shapes of the
    // tables from the first query on; the Lanes' retention task keeps them current
    // (docs/adr/0053-retention-and-statistics.md).
    sqlite.pragma('optimize=0x10012')
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) })
    return {
      db,
      sqlite,
      file,
      migration,
      // Kysely's destroy closes the better-sqlite3 connection it was given.
      close: () => db.destroy(),
    }
  } catch (error) {
    sqlite.close()
    throw error
  }
}

/**
 * Kysely prepares every query anew; parsing the SQL again each time costs more than running it. The store's
 * queries are a small fixed set, so their prepared statements are kept (up to `limit`, oldest out first).
 */
function withStatementCache(sqlite: BetterSqlite3.Database, limit = 256): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql)
      if (!statement) {
        statement = sqlite.prepare(sql)
        if (cache.size >= limit) cache.delete(cache.keys().next().value!)
        cache.set(sql, statement)
      }
      return statement
    },
  }
}

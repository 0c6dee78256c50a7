/**
 * A read-only connection to the store's file, for a worker thread that reads while the main thread writes
 * (docs/adr/0093-big-reads-off-the-event-loop.md). WAL lets it read a consistent snapshot inside a transaction
 * without holding the main connection.
 */
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { Database } from './schema'
import type { Db } from './database'

/** `sqlite`: the connection under `db`, for a big read that steps its rows itself (big-read-rows.ts). */
export function openReadOnlyDb(file: string, nativeBinding?: string): { db: Db; sqlite: BetterSqlite3.Database; close(): Promise<void> } {
  const sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) })
  sqlite.pragma('busy_timeout = 5000')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
  return { db, sqlite, close: () => db.destroy() }
}

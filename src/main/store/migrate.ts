/**
 * The migrator: forward-only, each migration in one transaction, recorded in `schema_migrations`, and an
 * existing database copied aside before it changes. Kysely's Migrator is not used because on SQLite it
 * applies migrations outside any transaction (docs/adr/0004-own-migrator.md).
 */
import { existsSync } from 'node:fs'
import type BetterSqlite3 from 'better-sqlite3'
import { migrations as bundled, type Migration } from '../../../migrations'
import { AppError } from '../../shared/errors'
import { preparePrivateFile } from './private-files'

export interface MigrationReport {
  /** Schema version before (0 for a new database). */
  from: number
  /** Schema version after. */
  to: number
  /** The copy made before migrating an existing database, or null when nothing was copied. */
  backup: string | null
}

/** The schema version a migration brings: the number its name starts with. */
export function versionOf(migration: Migration): number {
  const match = /^(\d{4})_[a-z0-9_]+$/.exec(migration.name)
  if (!match) throw new AppError('invalid', `store: migration name "${migration.name}" is not NNNN_name`)
  return Number(match[1])
}

/** The highest applied version, 0 for a database never migrated. */
export function schemaVersion(sqlite: BetterSqlite3.Database): number {
  const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get()
  if (!table) return 0
  const row = sqlite.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as {
    version: number | null
  }
  return row.version ?? 0
}

/**
 * Brings the database to the newest bundled version. `file` is the database's path (null for an
 * in-memory database): when it holds a schema already and a migration is pending, it is first copied to
 * `<file>.bak-<version>`. Re-running on an up-to-date database changes nothing.
 */
export function migrate(
  sqlite: BetterSqlite3.Database,
  file: string | null,
  now: number,
  list: readonly Migration[] = bundled,
): MigrationReport {
  const ordered = [...list].sort((a, b) => versionOf(a) - versionOf(b))
  const newest = ordered.length ? versionOf(ordered[ordered.length - 1]!) : 0
  const from = schemaVersion(sqlite)
  if (from > newest) {
    throw new AppError('invalid', `store: database schema version ${from} is newer than this app knows (${newest}); refusing to open it`)
  }
  const pending = ordered.filter((m) => versionOf(m) > from)
  if (pending.length === 0) return { from, to: from, backup: null }

  const backup = from > 0 && file ? copyAside(sqlite, file, from) : null
  sqlite.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
  )`)
  const record = sqlite.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  for (const migration of pending) {
    const apply = sqlite.transaction(() => {
      sqlite.exec(migration.up)
      record.run(versionOf(migration), migration.name, now)
    })
    try {
      apply()
    } catch (cause) {
      throw new AppError('invalid', `store: migration ${migration.name} failed and was rolled back: ${String(cause)}`, { cause })
    }
  }
  return { from, to: versionOf(pending[pending.length - 1]!), backup }
}

/** A consistent copy of a live (WAL) database, never overwriting an earlier copy. */
function copyAside(sqlite: BetterSqlite3.Database, file: string, version: number): string {
  let target = `${file}.bak-${version}`
  for (let n = 1; existsSync(target); n++) target = `${file}.bak-${version}.${n}`
  // VACUUM INTO fills an empty file as it finds it: created 0600 first, the copy is as private as the database.
  preparePrivateFile(target)
  sqlite.prepare('VACUUM INTO ?').run(target)
  return target
}

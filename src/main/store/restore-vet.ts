/**
 * What a restore trusts of a backup (docs/adr/0116-a-restored-backup-is-vetted.md): a backup file is the owner's
 * or anyone's who could write into the backups folder, so its copy is vetted before it is put in place.
 *
 * - Its schema is compared with the one the migrations make, at the backup's own version: a trigger, view, index
 *   or table they did not make is dropped; a trigger, view or index of theirs whose SQL was changed is made again
 *   as the migrations wrote it; a table of theirs changed is refused (its rows cannot be trusted to mean the same).
 * - Every stored URL a Reader's card, a message or a Lane uses is checked against its Site's pin: one off the pin,
 *   or of a Site not known, is cleared (a Series URL then shows under "no URL"; a chapter's link is filled again by
 *   the next check).
 *
 * Returns what it changed, in words; throws an AppError (`invalid`) for a copy it refuses.
 */
import BetterSqlite3 from 'better-sqlite3'
import { migrations } from '../../../migrations'
import { AppError } from '../../shared/errors'
import { migrate, schemaVersion, versionOf } from './migrate'

/** Whether `url` is on the pin of the Site `site` (false for a Site not known). */
export type OnPin = (site: string, url: string) => boolean

interface SchemaObject {
  type: string
  name: string
  tbl_name: string
  sql: string | null
}

/** SQLite's own objects (autoindexes, sqlite_sequence, ANALYZE's statistics) are not the migrations' to make. */
const INTERNAL = /^sqlite_/

/** The columns that hold a URL, by table, with the key that names the row's Site. */
const URL_COLUMNS: ReadonlyArray<{ table: string; column: string }> = [
  { table: 'series', column: 'series_url' },
  { table: 'series', column: 'latest_chapter_url' },
  { table: 'chapters', column: 'url' },
  { table: 'notify_chapters', column: 'url' },
]

/** Vets the database at `file` (a copy not in use), changing it in place; returns what it changed. */
export function vetRestoredCopy(file: string, onPin: OnPin, options: { nativeBinding?: string } = {}): string[] {
  const db = new BetterSqlite3(file, { fileMustExist: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) })
  try {
    const changed = vetSchema(db, file)
    changed.push(...vetUrls(db, onPin))
    return changed
  } finally {
    db.close()
  }
}

/** The schema the migrations make up to `version`, by type and name. */
function expectedSchema(version: number): Map<string, SchemaObject> {
  const fresh = new BetterSqlite3(':memory:')
  try {
    migrate(
      fresh,
      null,
      0,
      migrations.filter((m) => versionOf(m) <= version),
    )
    return new Map(schemaOf(fresh).map((o) => [`${o.type} ${o.name}`, o]))
  } finally {
    fresh.close()
  }
}

function schemaOf(db: BetterSqlite3.Database): SchemaObject[] {
  const rows = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').all() as SchemaObject[]
  return rows.filter((o) => !INTERNAL.test(o.name))
}

const same = (a: string | null, b: string | null) => (a ?? '').replace(/\s+/g, ' ').trim() === (b ?? '').replace(/\s+/g, ' ').trim()

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

/** Drops what the migrations did not make, makes again what they made otherwise; refuses a changed table. */
function vetSchema(db: BetterSqlite3.Database, file: string): string[] {
  const expected = expectedSchema(schemaVersion(db))
  const found = schemaOf(db)
  const changedTable = found.find(
    (o) => o.type === 'table' && expected.has(`table ${o.name}`) && !same(o.sql, expected.get(`table ${o.name}`)!.sql),
  )
  if (changedTable)
    throw new AppError(
      'invalid',
      `the backup ${file} has the table ${changedTable.name} changed from what the migrations made; nothing was changed`,
    )
  const changed: string[] = []
  // Triggers and views first: they may name a table that is dropped below.
  const order = ['trigger', 'view', 'index', 'table']
  db.transaction(() => {
    for (const o of [...found].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type))) {
      const theirs = expected.get(`${o.type} ${o.name}`)
      if (theirs && same(theirs.sql, o.sql)) continue
      db.exec(`DROP ${o.type.toUpperCase()} IF EXISTS ${quoted(o.name)}`)
      if (theirs?.sql) {
        db.exec(theirs.sql)
        changed.push(`made the ${o.type} ${o.name} again as the migrations wrote it (it was changed)`)
      } else changed.push(`dropped the ${o.type} ${o.name}, which the migrations did not make`)
    }
    // Anything of theirs missing (an index dropped) is made again.
    for (const [key, theirs] of expected) {
      if (theirs.type === 'table' || !theirs.sql || found.some((o) => `${o.type} ${o.name}` === key)) continue
      db.exec(theirs.sql)
      changed.push(`made the missing ${theirs.type} ${theirs.name} again`)
    }
  })()
  return changed
}

/** Clears every stored URL that is not on its Site's pin; says how many, per column. */
function vetUrls(db: BetterSqlite3.Database, onPin: OnPin): string[] {
  const changed: string[] = []
  const tables = new Set(
    schemaOf(db)
      .filter((o) => o.type === 'table')
      .map((o) => o.name),
  )
  db.transaction(() => {
    for (const { table, column } of URL_COLUMNS) {
      if (!tables.has(table)) continue
      // By value, not by row: some of these tables have no rowid.
      const pairs = db.prepare(`SELECT DISTINCT site, ${column} AS url FROM ${table} WHERE ${column} <> ''`).all() as Array<{
        site: string
        url: string
      }>
      const clear = db.prepare(`UPDATE ${table} SET ${column} = '' WHERE site = ? AND ${column} = ?`)
      let cleared = 0
      const off = pairs.filter((r) => !onPin(r.site, r.url))
      for (const r of off) cleared += clear.run(r.site, r.url).changes
      if (off.length)
        changed.push(
          `cleared ${cleared} ${table}.${column} off their Site's pin (${off
            .slice(0, 3)
            .map((r) => `${r.site}: ${r.url.slice(0, 80)}`)
            .join('; ')}${off.length > 3 ? '; …' : ''})`,
        )
    }
  })()
  return changed
}

/**
 * A data directory whose database opens but has a damaged page, with a good backup beside it
 * (docs/adr/0046-the-file-the-app-opened.md): what the integrity and restore tests start from. Used only by tests.
 */
import { closeSync, openSync, statSync, truncateSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { BACKUP_DIR, backupDatabase } from '../store/backups'
import { openStore, STORE_FILE, type Db } from '../store/database'
import { corruptMiddlePage } from './faults'

export interface DamagedLibrary {
  /** The damaged database file. */
  file: string
  /** The good backup made before the damage. */
  backup: string
}

/**
 * Writes a library into `dir` (`before` the backup made at `backupAt`, then `after`), closes it and damages a page in
 * the middle of the file: write enough rows that such a page holds some (a few thousand small ones).
 */
export async function damagedLibrary(
  dir: string,
  options: { backupAt: number; before(db: Db): Promise<unknown>; after?(db: Db): Promise<unknown> },
): Promise<DamagedLibrary> {
  const file = join(dir, STORE_FILE)
  const store = openStore(file, { now: 1 })
  await options.before(store.db)
  const backup = await backupDatabase(store.sqlite, join(dir, BACKUP_DIR), options.backupAt)
  await options.after?.(store.db)
  await store.close()
  corruptMiddlePage(file)
  return { file, backup: backup.file }
}

/** Runs `write` for each of `count` rows in one transaction: thousands of commits, each synced, are slow. */
export async function inOneTransaction(db: Db, count: number, write: (trx: Db, i: number) => Promise<unknown>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i++) await write(trx, i)
  })
}

/** The damage at the start of a file that keeps SQLite from opening it for writing (docs/adr/0115-…). */
export type StartDamage = 'truncated' | 'header' | 'page-1'

/**
 * Damages a closed database at its start, as a torn copy or a bad first sector would: cut to half its length, its
 * 100-byte header overwritten, or the rest of page 1 (the schema's root) overwritten.
 */
export function damageStart(file: string, how: StartDamage): void {
  const probe = new BetterSqlite3(file)
  probe.pragma('wal_checkpoint(TRUNCATE)')
  const size = Number(probe.pragma('page_size', { simple: true }))
  probe.close()
  if (how === 'truncated') return truncateSync(file, Math.floor(statSync(file).size / 2))
  const fd = openSync(file, 'r+')
  try {
    if (how === 'header') writeSync(fd, Buffer.alloc(100, 0x41), 0, 100, 0)
    else writeSync(fd, Buffer.alloc(size - 100, 0xab), 0, size - 100, 100)
  } finally {
    closeSync(fd)
  }
}

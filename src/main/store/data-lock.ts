/**
 * One process owns a data directory (docs/design.md#shells-and-commands): two shells on one directory would run
 * two sets of Lanes against the same Sites. The lock is an exclusive SQLite lock on a small file of its own — held by the operating system for
 * as long as the process lives, so a crash never leaves a stale lock behind — and a note of who holds it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { AppError } from '../../shared/errors'
import { preparePrivateFile } from './private-files'

export const LOCK_FILE = 'manga-bookmark.lock'
const HOLDER_FILE = 'manga-bookmark.lock.holder'

export interface DataLock {
  release(): void
}

/**
 * Takes the data directory's lock, or throws a `conflict` naming the process that holds it and what to do
 * (`advice`; a shell's by default).
 */
export function lockDataDir(dir: string, options: { nativeBinding?: string; advice?: string } = {}): DataLock {
  preparePrivateFile(join(dir, LOCK_FILE))
  const lock = new BetterSqlite3(join(dir, LOCK_FILE), {
    timeout: 0,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  })
  try {
    lock.pragma('locking_mode = EXCLUSIVE')
    lock.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    lock.close()
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error
    throw new AppError(
      'conflict',
      `the data directory ${dir} is in use by ${holderOf(dir)}; ${options.advice ?? 'stop it first, or choose another --data'}`,
    )
  }
  try {
    writeFileSync(join(dir, HOLDER_FILE), `process ${process.pid} on ${hostname()} since ${new Date().toISOString()}\n`, { mode: 0o600 })
  } catch {
    // A directory that takes no new file (read-only, full): the lock holds all the same; only its holder is unnamed.
  }
  let released = false
  return {
    release() {
      if (released) return
      released = true
      rmSync(join(dir, HOLDER_FILE), { force: true })
      lock.close()
    },
  }
}

function holderOf(dir: string): string {
  try {
    return readFileSync(join(dir, HOLDER_FILE), 'utf8').trim() || 'another process'
  } catch {
    return 'another process'
  }
}

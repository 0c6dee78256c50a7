/**
 * One process owns a data directory: a second taker is refused with the holder's name, and the lock is free
 * again once released. Real lock files in a temporary directory; SQLite's locks bind a second connection of
 * the same process as they bind another process.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from '../testing/fixtures'
import { LOCK_FILE, lockDataDir, type DataLock } from './data-lock'

const HOLDER = 'manga-bookmark.lock.holder'
/** `take(dir)`: the lock of a data directory, released after the test. */
const it = test.extend('take', ({ defer }) => (dir: string): DataLock => {
  const lock = lockDataDir(dir)
  defer(() => lock.release())
  return lock
})

describe('the data directory lock', () => {
  it('refuses a second taker as a conflict that names the process holding it', ({ makeDir, take }) => {
    const dir = makeDir()
    take(dir)
    expect(readFileSync(join(dir, HOLDER), 'utf8')).toMatch(new RegExp(`^process ${process.pid} on ${hostname()} since \\d{4}-`))
    expect(() => lockDataDir(dir)).toThrow(
      expect.objectContaining({
        code: 'conflict',
        message: expect.stringMatching(
          new RegExp(`^the data directory ${dir} is in use by process ${process.pid} on .+; stop it first, or choose another --data$`),
        ),
      }),
    )
  })

  it('is free again once released: the holder note goes, and another taker gets it', ({ makeDir, take }) => {
    const dir = makeDir()
    const first = lockDataDir(dir)
    first.release()
    expect(existsSync(join(dir, HOLDER))).toBe(false)
    take(dir)
    expect(existsSync(join(dir, HOLDER))).toBe(true)
  })

  it('released twice, does not take away the note of the process that holds it now', ({ makeDir, take }) => {
    const dir = makeDir()
    const first = lockDataDir(dir)
    first.release()
    take(dir)
    first.release()
    expect(existsSync(join(dir, HOLDER))).toBe(true)
    expect(() => lockDataDir(dir)).toThrow(expect.objectContaining({ code: 'conflict' }))
  })

  it('released after its note was deleted by hand, lets go all the same', ({ makeDir, take }) => {
    const dir = makeDir()
    const lock = lockDataDir(dir)
    rmSync(join(dir, HOLDER))
    lock.release()
    take(dir)
  })

  it('held by a process whose note is gone, says "another process"', ({ makeDir, take }) => {
    const dir = makeDir()
    take(dir)
    rmSync(join(dir, HOLDER))
    expect(() => lockDataDir(dir)).toThrow(/in use by another process; stop it first/)
  })

  it('held by a process that left no note (or an empty one), says "another process"', ({ makeDir, take }) => {
    const dir = makeDir()
    take(dir)
    writeFileSync(join(dir, HOLDER), '  \n')
    expect(() => lockDataDir(dir)).toThrow(/in use by another process; stop it first/)
    writeFileSync(join(dir, HOLDER), '')
    expect(() => lockDataDir(dir)).toThrow(/in use by another process;/)
  })

  it('keeps its files to the owner: the lock and the note are 0600', ({ makeDir, take }) => {
    const dir = makeDir()
    take(dir)
    expect(statSync(join(dir, LOCK_FILE)).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, HOLDER)).mode & 0o777).toBe(0o600)
  })

  it('a lock file that is not SQLite is an error of its own, not a conflict, and the lock is not held', ({ makeDir }) => {
    const dir = makeDir()
    writeFileSync(join(dir, LOCK_FILE), 'x'.repeat(4096), { mode: 0o600 })
    let thrown: unknown
    try {
      lockDataDir(dir)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ code: 'SQLITE_NOTADB' })
    expect(existsSync(join(dir, HOLDER))).toBe(false)
  })
})

/**
 * Backups at their edges (docs/adr/0048-backups.md): which names are backups, the month's exact edge and the
 * calendar week in retention, what pruning leaves alone, and a copy that must not be kept — real files in a
 * temporary directory.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { sql } from 'kysely'
import { describe, expect, it } from '../testing/fixtures'
import { seedReader } from '../testing/store'
import { backupDatabase, backupName, backupsToKeep, backupTime, KEEP_WEEKLY_MS, listBackups, pruneBackups } from './backups'

const DAY = 86_400_000
const WEEK = 7 * DAY
const NOW = Date.UTC(2026, 2, 31, 4, 0, 0)

describe('a backup name', () => {
  it('without milliseconds is a backup of the whole second', () => {
    expect(backupTime('manga-bookmark-2026-01-02T03-04-05Z.sqlite')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5))
  })

  it.each([
    ['another prefix', 'my-manga-bookmark-2026-01-02T03-04-05Z.sqlite'],
    ['another ending', 'manga-bookmark-2026-01-02T03-04-05Z.sqlite.bak'],
    ['a half-made copy', 'manga-bookmark-2026-01-02T03-04-05Z.sqlite.partial'],
    ['the database itself', 'manga-bookmark.sqlite'],
    ['a short year', 'manga-bookmark-226-01-02T03-04-05Z.sqlite'],
  ])('with %s is not a backup', (_case, name) => {
    expect(backupTime(name)).toBeNull()
  })
})

describe('the backups in a folder', () => {
  it('are the backup files only, newest first, each with its size', ({ makeDir }) => {
    const dir = makeDir()
    writeFileSync(join(dir, backupName(NOW - DAY)), 'a'.repeat(10))
    writeFileSync(join(dir, backupName(NOW)), 'b'.repeat(20))
    writeFileSync(join(dir, backupName(NOW - 2 * DAY)), 'c'.repeat(30))
    writeFileSync(join(dir, 'notes.txt'), 'mine')
    expect(listBackups(dir)).toEqual([
      { file: join(dir, backupName(NOW)), at: NOW, bytes: 20 },
      { file: join(dir, backupName(NOW - DAY)), at: NOW - DAY, bytes: 10 },
      { file: join(dir, backupName(NOW - 2 * DAY)), at: NOW - 2 * DAY, bytes: 30 },
    ])
  })

  it('of a folder that does not exist are none, and pruning it deletes nothing', ({ makeDir }) => {
    const missing = join(makeDir(), 'backups')
    expect(listBackups(missing)).toEqual([])
    expect(pruneBackups(missing, NOW)).toEqual([])
  })
})

describe('retention', () => {
  const kept = (list: Array<{ file: string; at: number }>, now = NOW) => [...backupsToKeep(list, now)].sort()

  it('keeps the seven newest however old they are, whatever order they come in', () => {
    const old = Array.from({ length: 9 }, (_, i) => ({ file: `b${i}`, at: NOW - 100 * DAY - i * WEEK }))
    expect(kept([...old].reverse())).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6'])
  })

  it('keeps a weekly backup made exactly a month ago, and not one a moment older', () => {
    // Eight backups a day apart in the newest days fill the seven newest; the old ones count only as weeklies.
    const recent = Array.from({ length: 7 }, (_, i) => ({ file: `r${i}`, at: NOW - i * 60_000 }))
    const edge = { file: 'edge', at: NOW - KEEP_WEEKLY_MS }
    expect(kept([...recent, edge])).toContain('edge')
    expect(kept([...recent, { file: 'older', at: NOW - KEEP_WEEKLY_MS - 1 }])).not.toContain('older')
  })

  it('keeps one backup of a calendar week: the newest, with weeks starting on Thursday (the epoch was one)', () => {
    const recent = Array.from({ length: 7 }, (_, i) => ({ file: `r${i}`, at: NOW - i * 60_000 }))
    // 2026-03-12 was a Thursday: the week from it to the 18th keeps only its newest; the Wednesday before is
    // a week of its own.
    const thursday = Date.UTC(2026, 2, 12)
    const week = [
      { file: 'thu', at: thursday },
      { file: 'sat', at: thursday + 2 * DAY },
      { file: 'wed-last', at: thursday + WEEK - 1 },
      { file: 'wed-before', at: thursday - 1 },
    ]
    const result = kept([...recent, ...week])
    expect(result).toContain('wed-last')
    expect(result).toContain('wed-before')
    expect(result).not.toContain('thu')
    expect(result).not.toContain('sat')
  })
})

describe('pruning', () => {
  it('deletes half-made copies and their sides, and leaves every other file alone', ({ makeDir }) => {
    const dir = makeDir()
    const partial = `${backupName(NOW)}.partial`
    const leftovers = [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`]
    const others = ['manga-bookmark.sqlite', 'notes.txt', `${partial}-old`, `${partial}.txt`]
    for (const name of [...leftovers, ...others]) writeFileSync(join(dir, name), 'x')
    writeFileSync(join(dir, backupName(NOW)), 'whole')
    expect(pruneBackups(dir, NOW).sort()).toEqual(leftovers.map((n) => join(dir, n)).sort())
    expect(readdirSync(dir).sort()).toEqual([backupName(NOW), ...others].sort())
  })
})

describe('making a backup', () => {
  it('is one self-contained file, not in WAL mode, holding writes still in the WAL; the folder is private', async ({
    makeDir,
    defer,
    store: s,
  }) => {
    await seedReader(s.db, 'aiko')
    const dir = join(makeDir(), 'nested', 'backups')
    const made = await backupDatabase(s.sqlite, dir, NOW)
    expect(readdirSync(dir)).toEqual([backupName(NOW)])
    expect(made.bytes).toBe(statSync(made.file).size)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    const copy = new BetterSqlite3(made.file, { readonly: true })
    defer(() => copy.close())
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete')
    expect(copy.prepare('SELECT name FROM readers').all()).toEqual([{ name: 'aiko' }])
  })

  it('of a damaged database is refused, and nothing is left that could pass for a backup', async ({ makeDir, defer, store: s }) => {
    await sql`INSERT INTO readers (name, token_hash, created_at)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
      SELECT printf('reader-%0100d', i), 'h' || i, 1 FROM n`.execute(s.db)
    const root = Number(s.sqlite.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'readers'`).pluck().get())
    const size = Number(s.sqlite.pragma('page_size', { simple: true }))
    await s.close()
    const fd = openSync(s.file, 'r+')
    writeSync(fd, Buffer.alloc(64, 0xab), 0, 64, (root - 1) * size)
    closeSync(fd)
    // A connection that has not read the page before: the backup copies the damage as it is on disk.
    const damaged = new BetterSqlite3(s.file)
    defer(() => damaged.close())
    const dir = join(makeDir(), 'backups')
    await expect(backupDatabase(damaged, dir, NOW)).rejects.toThrow(
      new RegExp(`^store: backup into ${dir} failed: the copy does not pass quick_check: `),
    )
    expect(readdirSync(dir)).toEqual([])
  })

  it("with a native module that cannot load fails as a backup, saying why, and leaves nothing behind, not even an earlier crash's", async ({
    makeDir,
    store: s,
  }) => {
    const dir = makeDir()
    mkdirSync(join(dir, 'backups'))
    const partial = join(dir, 'backups', `${backupName(NOW)}.partial`)
    for (const side of ['-wal', '-shm', '-journal']) writeFileSync(`${partial}${side}`, '')
    const failed = await backupDatabase(s.sqlite, join(dir, 'backups'), NOW, { nativeBinding: join(dir, 'missing.node') }).catch(
      (e: unknown) => e,
    )
    expect(failed).toMatchObject({ message: expect.stringMatching(/^store: backup into .* failed: /), cause: expect.any(Error) })

    expect(readdirSync(join(dir, 'backups'))).toEqual([])
    expect(existsSync(join(dir, 'backups', backupName(NOW)))).toBe(false)
  })
})

/**
 * The import's write lets the event loop run (docs/adr/0140-import-write-yields-in-its-transaction.md), on a real
 * SQLite file: between its statements other tasks get turns, yet it stays one transaction — no other statement runs
 * inside it, a failure after turns leaves nothing, and a backup asked meanwhile waits for the commit (or, taken on
 * the open transaction's connection, refuses) instead of copying a half-written or broken database.
 */
import BetterSqlite3 from 'better-sqlite3'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { scheduleBackups } from '../backup-schedule'
import { silentLog } from '../log'
import { FakeClock } from '../testing/clock'
import { failingWhen } from '../testing/fakes'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { BACKUP_DIR, backupDatabase } from './backups'
import { writeImport, type ImportBatch } from './library'

const ROWS = 5_000

let store: TestStore
beforeEach(async () => {
  store = openTestStore()
  await seedReader(store.db, 'aiko')
})
afterEach(() => store.dispose())

function large(): ImportBatch {
  const ids = Array.from({ length: ROWS }, (_, i) => `s-${i}`)
  return {
    newReaders: [],
    series: ids.map((id) => ({ site: 'a', seriesId: id, title: `Title ${id}`, seriesUrl: `https://a.example/manga/${id}` })),
    bookmarks: ids.map((id) => ({ reader: 'aiko', site: 'a', seriesId: id, status: 'reading' as const, progress: 3, progressAt: 10 })),
  }
}

/**
 * Counts the event loop's turns until stopped (a `setImmediate` chain), with what the write had done at each and
 * whether the store's connection was inside a transaction then.
 */
function turns(progress: () => { done: number; total: number }) {
  const seen: Array<{ done: number; total: number; inTransaction: boolean }> = []
  let running = true
  const tick = () => {
    if (!running) return
    seen.push({ ...progress(), inTransaction: store.sqlite.inTransaction })
    setImmediate(tick)
  }
  setImmediate(tick)
  return {
    /** The turns the loop got while the write was half done, inside its transaction. */
    midWrite: () => seen.filter((s) => s.inTransaction && s.done > 0 && s.done < s.total),
    stop: () => (running = false),
  }
}

const count = async (table: 'series' | 'bookmarks') =>
  Number(
    (
      await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

describe("an import's write", () => {
  it('gives the event loop turns between its statements, while no other statement runs inside its transaction', async () => {
    let now = { done: 0, total: 0 }
    const loop = turns(() => now)
    let otherRead: Promise<number> | undefined
    const written = writeImport(store.db, large(), 5_000, (done, total) => {
      now = { done, total }
      // A read asked mid-write (another task's) waits for the commit: it sees every row or none, never half.
      otherRead ??= count('series')
    })
    const counts = await written
    loop.stop()
    expect(counts).toMatchObject({ seriesAdded: ROWS, bookmarksAdded: ROWS })
    // Fails with a write that holds the loop from BEGIN to COMMIT: no turn would see it half done.
    expect(loop.midWrite().length).toBeGreaterThan(0)
    expect(await otherRead).toBe(ROWS)
    expect(store.sqlite.inTransaction).toBe(false)
  })

  it('that fails after the loop has had turns leaves nothing written', async () => {
    let now = { done: 0, total: 0 }
    const loop = turns(() => now)
    let bookmarkInserts = 0
    // The 20th INSERT into bookmarks fails: every Series and 1,900 bookmarks were written before it.
    const failing = failingWhen(
      store.db,
      (node) => node.includes('"InsertQueryNode"') && node.includes('"bookmarks"') && ++bookmarkInserts === 20,
    )
    await expect(
      writeImport(failing, large(), 5_000, (done, total) => {
        now = { done, total }
      }),
    ).rejects.toThrow('injected failure')
    loop.stop()
    expect(loop.midWrite().length).toBeGreaterThan(0)
    expect(await count('series')).toBe(0)
    expect(await count('bookmarks')).toBe(0)
  })
})

describe("the import's commit", () => {
  it('leaves the copy of its pages into the database to a worker: no automatic checkpoint meanwhile, the whole WAL copied after', async () => {
    const autocheckpoint = () => store.sqlite.pragma('wal_autocheckpoint', { simple: true })
    const during: unknown[] = []
    await writeImport(store.db, large(), 5_000, () => {
      during.push(autocheckpoint())
    })
    expect(new Set(during)).toEqual(new Set([0]))
    expect(autocheckpoint()).toBe(1000)
    // A second connection sees every frame of the WAL already in the database: nothing is left to copy.
    const other = new BetterSqlite3(store.file)
    try {
      const [row] = other.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>
      expect(row!.log).toBeGreaterThan(0)
      expect(row!.checkpointed).toBe(row!.log)
    } finally {
      other.close()
    }
    expect(await count('bookmarks')).toBe(ROWS)
  })
})

describe('a backup during an import', () => {
  it('is refused on the connection of the open transaction, and leaves no file', async () => {
    const dir = join(store.dir, BACKUP_DIR)
    let refused: Promise<unknown> | undefined
    await writeImport(store.db, large(), 5_000, () => {
      refused ??= backupDatabase(store.sqlite, dir, 1_000).then(
        () => 'made',
        (error: Error) => error.message,
      )
    })
    expect(await refused).toMatch(/backup refused: a write is in progress on the database/)
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([])
  })

  it('"Back up now" asked mid-write waits for the commit, and the backup holds the whole import', async () => {
    const dir = join(store.dir, BACKUP_DIR)
    const backups = scheduleBackups({ store, dir, clock: new FakeClock(Date.UTC(2026, 2, 1)), log: silentLog, daily: false })
    let asked: ReturnType<typeof backups.backupNow> | undefined
    await writeImport(store.db, large(), 5_000, (done, total) => {
      if (done > 0 && done < total) asked ??= backups.backupNow()
    })
    const made = await asked!
    await backups.stop()
    const copy = new BetterSqlite3(made.file, { readonly: true })
    try {
      expect(copy.pragma('quick_check', { simple: true })).toBe('ok')
      expect(copy.prepare('SELECT (SELECT count(*) FROM series) AS s, (SELECT count(*) FROM bookmarks) AS b').get()).toEqual({
        s: ROWS,
        b: ROWS,
      })
    } finally {
      copy.close()
    }
  })
})

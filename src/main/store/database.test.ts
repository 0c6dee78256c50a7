/**
 * Opening the one SQLite file (docs/design.md#data): its pragmas, a file from a newer app refused without a
 * trace left open, a store in memory that touches no file, and a close that lets go of the file.
 */
import { chmodSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from '../testing/fixtures'
import { sql } from 'kysely'
import { failingWhen } from '../testing/fakes'
import { openStore, openStoreReadOnly, STORE_CACHE_KIB, STORE_FILE, unsyncedWrites, type Db } from './database'

describe('opening the store', () => {
  it('waits as long as it is told for a lock another connection holds, five seconds unless told', async ({ makeDir, defer }) => {
    const dir = makeDir()
    const told = openStore(join(dir, STORE_FILE), { now: 1, busyTimeoutMs: 1234 })
    defer(() => told.close())
    expect(Number(told.sqlite.pragma('busy_timeout', { simple: true }))).toBe(1234)
    const plain = openStore(join(makeDir(), STORE_FILE), { now: 1 })
    defer(() => plain.close())
    expect(Number(plain.sqlite.pragma('busy_timeout', { simple: true }))).toBe(5000)
    expect(plain.sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(plain.sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(plain.sqlite.pragma('synchronous', { simple: true })).toBe(2)
  })

  it("keeps SQLite's own 2 MB page cache, not better-sqlite3's 16 MB, on the file it opens and on one put in its place", async ({
    makeDir,
    defer,
  }) => {
    const dir = makeDir()
    const store = openStore(join(dir, STORE_FILE), { now: 1 })
    defer(() => store.close())
    // Negative: a size in KiB (docs/adr/0240-a-page-cache-the-size-sqlite-chose.md).
    expect(store.sqlite.pragma('cache_size', { simple: true })).toBe(-STORE_CACHE_KIB)
    expect(STORE_CACHE_KIB).toBe(2000)
    // What the connection would have had: better-sqlite3's build default.
    const plain = new BetterSqlite3(':memory:')
    expect(plain.pragma('cache_size', { simple: true })).toBe(-16000)
    plain.close()
    await store.replaceFile(() => undefined, 2)
    expect(store.sqlite.pragma('cache_size', { simple: true })).toBe(-STORE_CACHE_KIB)
    const readOnly = openStoreReadOnly(store.file, { now: 1 }, { kind: 'read-only', message: 'read-only', code: 'SQLITE_READONLY' })
    defer(() => readOnly.close())
    expect(readOnly.sqlite.pragma('cache_size', { simple: true })).toBe(-STORE_CACHE_KIB)
  })

  it('refuses a file a newer app wrote, and lets go of it: no connection is left open on it', ({ makeDir }) => {
    const dir = makeDir()
    const file = join(dir, STORE_FILE)
    const newer = new BetterSqlite3(file)
    newer.pragma('journal_mode = WAL')
    newer.pragma('user_version = 9999')
    newer.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER); INSERT INTO schema_migrations VALUES (9999, '9999_future', 1)",
    )
    newer.close()
    expect(() => openStore(file, { now: 1 })).toThrow(/newer than this app knows/)
    // The last connection to close a WAL database removes its -wal and -shm: none is left holding the file.
    expect(readdirSync(dir).sort()).toEqual([STORE_FILE])
  })

  it('with a native module that cannot load fails, and leaves only the empty private file', ({ makeDir }) => {
    const dir = makeDir()
    expect(() => openStore(join(dir, STORE_FILE), { now: 1, nativeBinding: join(dir, 'missing.node') })).toThrow()
    expect(readdirSync(dir)).toEqual([STORE_FILE])
  })

  it('of a file that is no database fails with what SQLite says, and leaves the file as it was', ({ makeDir }) => {
    const dir = makeDir()
    const file = join(dir, STORE_FILE)
    writeFileSync(file, 'not a database '.repeat(512), { mode: 0o600 })
    expect(() => openStore(file, { now: 1 })).toThrow(expect.objectContaining({ code: 'SQLITE_NOTADB' }))
    expect(readdirSync(dir)).toEqual([STORE_FILE])
  })

  it('takes the bits of others off a WAL and shm an older version left open', async ({ makeDir, defer }) => {
    const dir = makeDir()
    const file = join(dir, STORE_FILE)
    const older = new BetterSqlite3(file)
    older.pragma('journal_mode = WAL')
    older.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)')
    for (const side of ['', '-wal', '-shm']) chmodSync(`${file}${side}`, 0o644)
    const store = openStore(file, { now: 1 })
    defer(() => store.close())
    older.close()
    expect(['', '-wal', '-shm'].map((side) => (statSync(`${file}${side}`).mode & 0o777).toString(8))).toEqual(['600', '600', '600'])
  })

  it('in memory touches no file', async ({ defer }) => {
    const before = readdirSync(process.cwd()).sort()
    const store = openStore(':memory:', { now: 1 })
    defer(() => store.close())
    expect(store.file).toBe(':memory:')
    expect(existsSync(join(process.cwd(), ':memory:'))).toBe(false)
    expect(readdirSync(process.cwd()).sort()).toEqual(before)
    expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
  })

  it('closed, lets go of its file, even before its first query', async ({ makeDir }) => {
    const dir = makeDir()
    const store = openStore(join(dir, STORE_FILE), { now: 1 })
    await store.close()
    expect(store.sqlite.open).toBe(false)
    // The last connection to close a WAL database removes its -wal and -shm.
    expect(readdirSync(dir)).toEqual([STORE_FILE])
    const used = openStore(join(dir, STORE_FILE), { now: 1 })
    await used.db.selectFrom('readers').selectAll().execute()
    await used.close()
    expect(used.sqlite.open).toBe(false)
  })
})

describe('writes not waited for on the disk (docs/adr/0205-which-writes-wait-for-the-disk.md)', () => {
  const level = (db: Db) => sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db).then((r) => r.rows[0]!.synchronous)

  it('run at NORMAL on the connection held; a query asked meanwhile waits and runs at FULL; FULL again after', async ({
    makeDir,
    defer,
  }) => {
    const store = openStore(join(makeDir(), STORE_FILE), { now: 1 })
    defer(() => store.close())
    expect(await level(store.db)).toBe(2)
    let meanwhile: Promise<number> | undefined
    const inside = await unsyncedWrites(store.db, async (db) => {
      meanwhile = level(store.db)
      await db.insertInto('readers').values({ name: 'Ann', token_hash: 'h', created_at: 1 }).execute()
      return level(db)
    })
    expect(inside).toBe(1)
    expect(await meanwhile).toBe(2)
    expect(await level(store.db)).toBe(2)
    expect(await store.db.selectFrom('readers').select('name').execute()).toEqual([{ name: 'Ann' }])
  })

  it('back to FULL when the work fails, its transaction rolled back whole', async ({ makeDir, defer }) => {
    const store = openStore(join(makeDir(), STORE_FILE), { now: 1 })
    defer(() => store.close())
    const failing = unsyncedWrites(store.db, (db) =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('readers').values({ name: 'Ann', token_hash: 'h', created_at: 1 }).execute()
        throw new Error('no')
      }),
    )
    await expect(failing).rejects.toThrow('no')
    expect(await level(store.db)).toBe(2)
    expect(await store.db.selectFrom('readers').select('name').execute()).toEqual([])
  })

  it('work committed stands when the return to FULL fails: its result is returned, FULL again at the next try', async ({
    makeDir,
    defer,
  }) => {
    const store = openStore(join(makeDir(), STORE_FILE), { now: 1 })
    defer(() => store.close())
    let failures = 0
    // The return to FULL fails `failures` times in a row (a locked file, in the simulation's faults).
    const db = failingWhen(store.db, (node) => node.includes('PRAGMA synchronous = FULL') && failures-- > 0)
    const add = (name: string) =>
      unsyncedWrites(db, async (c) => {
        await c.insertInto('readers').values({ name, token_hash: name, created_at: 1 }).execute()
        return name
      })
    failures = 1
    expect(await add('Ann')).toBe('Ann')
    expect(await level(store.db)).toBe(2)
    failures = 5
    expect(await add('Bob')).toBe('Bob')
    failures = 0
    expect(await add('Cy')).toBe('Cy')
    expect(await level(store.db)).toBe(2)
    expect((await store.db.selectFrom('readers').select('name').orderBy('name').execute()).map((r) => r.name)).toEqual(['Ann', 'Bob', 'Cy'])
  })

  it('failed work reports its own error, not the return to FULL’s', async ({ makeDir, defer }) => {
    const store = openStore(join(makeDir(), STORE_FILE), { now: 1 })
    defer(() => store.close())
    const db = failingWhen(store.db, (node) => node.includes('PRAGMA synchronous = FULL'))
    await expect(unsyncedWrites(db, () => Promise.reject(new Error('no')))).rejects.toThrow('no')
  })

  it('inside a transaction, runs in it: the transaction’s commit is its owner’s', async ({ makeDir, defer }) => {
    const store = openStore(join(makeDir(), STORE_FILE), { now: 1 })
    defer(() => store.close())
    await store.db.transaction().execute(async (trx) => {
      expect(await unsyncedWrites(trx, (db) => level(db))).toBe(2)
    })
  })
})

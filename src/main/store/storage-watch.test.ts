/**
 * The store's watch over its own file (docs/adr/0045-storage-faults.md, docs/adr/0046-the-file-the-app-opened.md)
 * on real SQLite files in a temporary directory, with no special file system: SQLite's own page limit
 * (`max_page_count`) fills the file as a full disk does, a connection opened read-only refuses writes as a
 * read-only file does, and a damaged page is written into a closed file. What the owner and a Reader wrote is
 * never half-written, and writes are taken again by themselves once the storage is back.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { makeReadOnly } from '../testing/faults'
import { openTestStore, seedReader, seedSeries, tempDir, type TestStore } from '../testing/store'
import { listReaders } from './readers'
import { openStore, STORE_FILE, type Db } from './database'
import type { Database } from './schema'
import { guardStore, isStorageUnavailable, probeFailure, type StorageFault } from './storage'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function store(): TestStore {
  const s = openTestStore()
  cleanups.push(() => s.dispose())
  return s
}

/** Every fault the watch told its listeners about, in order. */
function told(health: TestStore['health']): Array<StorageFault | null> {
  const seen: Array<StorageFault | null> = []
  health.onChange((fault) => seen.push(fault))
  return seen
}

/** Puts another store's file in the place of `file`, as a restore by hand under the running app would. */
async function replaceWithAnother(file: string): Promise<void> {
  const other = tempDir('mb-other-')
  cleanups.push(() => other.remove())
  const elsewhere = openStore(join(other.dir, STORE_FILE), { now: 1 })
  await elsewhere.close()
  renameSync(join(other.dir, STORE_FILE), file)
}

/** A write that needs new pages: a Series whose title is longer than a page. */
const bigSeries = (db: Db, id: string) => seedSeries(db, { id, title: 'x'.repeat(20_000) })
const addReaderRow = (db: Db, name: string) =>
  db
    .insertInto('readers')
    .values({ name, token_hash: `h-${name}`, created_at: 1 })
    .execute()
const readerNames = async (db: Db) => (await listReaders(db)).map((r) => r.name)

/** Lets the file grow by no page more than it has now, as a disk with no free block. */
function fillDisk(s: TestStore): void {
  s.sqlite.pragma(`max_page_count = ${Number(s.sqlite.pragma('page_count', { simple: true }))}`)
}
const freeDisk = (s: TestStore) => s.sqlite.pragma('max_page_count = 1073741823')

describe('a full disk', () => {
  it('fails the transaction as storage-unavailable (disk full), keeps nothing of it, and says so once', async () => {
    const s = store()
    const seen = told(s.health)
    fillDisk(s)
    // SQLite ends the transaction itself on a full disk: the caller sees the full disk, not a failed rollback.
    const failed = s.db.transaction().execute(async (trx) => {
      await addReaderRow(trx, 'aiko')
      await bigSeries(trx, 'big')
    })
    await expect(failed).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: 'the app cannot store writes now: the disk is full; nothing was kept, try again later',
    })
    expect(s.health.fault()).toEqual({ kind: 'full', code: 'SQLITE_FULL', message: `cannot write to ${s.file}: disk full` })
    await expect(bigSeries(s.db, 'big')).rejects.toSatisfy(isStorageUnavailable)
    expect(seen).toEqual([s.health.fault()])
    freeDisk(s)
    expect(await readerNames(s.db)).toEqual([])
  })

  it('takes writes again by itself once there is room, and tells its listeners', async () => {
    const s = store()
    const seen = told(s.health)
    fillDisk(s)
    await expect(bigSeries(s.db, 'big')).rejects.toMatchObject({ code: 'storage-unavailable' })
    freeDisk(s)
    await bigSeries(s.db, 'big')
    expect(s.health.fault()).toBeNull()
    expect(seen.map((f) => f?.kind ?? null)).toEqual(['full', null])
  })

  it('a listener that unsubscribed hears nothing more', async () => {
    const s = store()
    const seen: Array<StorageFault | null> = []
    const stop = s.health.onChange((fault) => seen.push(fault))
    stop()
    fillDisk(s)
    await expect(bigSeries(s.db, 'big')).rejects.toMatchObject({ code: 'storage-unavailable' })
    expect(seen).toEqual([])
  })
})

describe('an error about the statement itself', () => {
  it('is passed on as it is, and the store keeps taking writes', async () => {
    const s = store()
    await expect(sql`SELECT * FROM no_such_table`.execute(s.db)).rejects.toThrow(/no such table/)
    await addReaderRow(s.db, 'aiko')
    await expect(addReaderRow(s.db, 'aiko')).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' })
    expect(s.health.fault()).toBeNull()
    expect(await readerNames(s.db)).toEqual(['aiko'])
  })
})

/** A store whose connection SQLite opened read-only, as it does when the file cannot be written at start. */
function readOnlyStore(reconnect?: () => BetterSqlite3.Database, s = store()) {
  const file = s.file
  const first = new BetterSqlite3(file, { readonly: true })
  const guarded = guardStore(file, first, reconnect ?? (() => new BetterSqlite3(file)))
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: guarded.database }) })
  cleanups.push(() => db.destroy())
  return { s, file, first, guarded, db }
}

describe('a connection opened read-only', () => {
  it('answers reads, refuses writes as storage-unavailable (read-only), and takes them once the file is writable', async () => {
    const base = store()
    await seedReader(base.db, 'aiko')
    const { file, first, guarded, db } = readOnlyStore(undefined, base)
    expect(await readerNames(db)).toContain('aiko')
    await expect(addReaderRow(db, 'bo')).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: 'the app cannot store writes now: the database is read-only; nothing was kept, try again later',
    })
    expect(guarded.health.fault()).toEqual({ kind: 'read-only', code: 'SQLITE_READONLY', message: `cannot write to ${file}: read-only` })
    // The file is writable (it always was here): the next write attempt opens it again, and is taken.
    await addReaderRow(db, 'bo')
    expect(guarded.health.fault()).toBeNull()
    expect(guarded.connection).not.toBe(first)
    expect(first.open).toBe(false)
    expect(await readerNames(db)).toContain('bo')
  })

  it('is opened again by the periodic look, and the statements of the old connection are not used again', async () => {
    const { first, guarded, db } = readOnlyStore()
    await expect(addReaderRow(db, 'bo')).rejects.toMatchObject({ code: 'storage-unavailable' })
    // Whether the new connection writes is known only at the next write.
    expect(guarded.health.check()).toMatchObject({ kind: 'read-only' })
    expect(guarded.connection).not.toBe(first)
    await addReaderRow(db, 'bo')
    expect(guarded.health.fault()).toBeNull()
  })

  it('is not replaced inside a transaction: the transaction ends on the connection it began on', async () => {
    const { first, guarded, db } = readOnlyStore()
    await db.transaction().execute(async (trx) => {
      await expect(addReaderRow(trx, 'bo')).rejects.toMatchObject({ code: 'storage-unavailable' })
      expect(guarded.health.check()).toMatchObject({ kind: 'read-only' })
      expect(guarded.connection).toBe(first)
      expect(await readerNames(trx)).toEqual([])
    })
  })

  it('is not opened again while the file itself still refuses writes', async (ctx) => {
    let attempts = 0
    const { s, first, guarded, db } = readOnlyStore(() => {
      attempts++
      return new BetterSqlite3(s.file)
    })
    const fileReadOnly = makeReadOnly(s.file)
    if ('skip' in fileReadOnly) return ctx.skip(fileReadOnly.skip)
    let undone = false
    cleanups.push(() => undone || fileReadOnly.undo())
    await expect(addReaderRow(db, 'bo')).rejects.toMatchObject({ code: 'storage-unavailable' })
    expect(guarded.health.check()).toMatchObject({ kind: 'read-only' })
    expect(guarded.connection).toBe(first)
    expect(attempts).toBe(0)
    fileReadOnly.undo()
    undone = true
    expect(guarded.health.check()).toMatchObject({ kind: 'read-only' })
    expect(attempts).toBe(1)
    await addReaderRow(db, 'bo')
  })

  it('that cannot be opened again stays in use, and writes stay refused', async () => {
    let attempts = 0
    const { first, guarded, db } = readOnlyStore(() => {
      attempts++
      throw new Error('cannot open')
    })
    // The write that finds the fault, then each later one, fails; the later ones tried to open the file again
    // once between them, not at every statement, and the periodic look tries once more.
    for (const name of ['bo', 'cy', 'dee']) await expect(addReaderRow(db, name)).rejects.toMatchObject({ code: 'storage-unavailable' })
    expect(attempts).toBe(1)
    expect(guarded.health.check()).toMatchObject({ kind: 'read-only' })
    expect(attempts).toBe(2)
    expect(guarded.connection).toBe(first)
    expect(await readerNames(db)).toEqual([])
  })
})

/** A store on a connection that writes a rollback journal beside the file (no WAL): each write makes a file. */
async function journalStore() {
  const s = store()
  await s.close()
  const first = new BetterSqlite3(s.file)
  first.pragma('journal_mode = DELETE')
  const guarded = guardStore(s.file, first, () => new BetterSqlite3(s.file))
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: guarded.database }) })
  cleanups.push(() => db.destroy())
  return { s, file: s.file, guarded, db }
}

describe('a file the store cannot make beside its database', () => {
  it('is an I/O error in words, with what SQLite said, while the folder takes files', async () => {
    const { file, guarded, db } = await journalStore()
    // Something else already where the journal goes.
    mkdirSync(`${file}-journal`)
    await expect(addReaderRow(db, 'bo')).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: 'the app cannot store writes now: the disk reported an I/O error; nothing was kept, try again later',
    })
    // SQLite opens the folder in the journal's place and cannot read it.
    const fault = guarded.health.fault()!
    expect(fault).toEqual({
      kind: 'io',
      code: expect.stringMatching(/^SQLITE_IOERR/),
      message: `cannot write to ${file}: I/O error (${fault.code})`,
    })
    rmSync(`${file}-journal`, { recursive: true })
    await addReaderRow(db, 'bo')
    expect(guarded.health.fault()).toBeNull()
    expect(await readerNames(db)).toEqual(['bo'])
  })

  it('moved away under a store writing a rollback journal: SQLite refuses the write, named as the file moved away', async () => {
    const { s: base, file, guarded, db } = await journalStore()
    renameSync(file, join(base.dir, 'aside.sqlite'))
    await expect(addReaderRow(db, 'bo')).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: /file was moved away while the app ran/,
    })
    expect(guarded.health.fault()).toMatchObject({ kind: 'moved', code: 'moved' })
  })

  it('in a folder that refuses new files is named read-only, from what the file system says', async (ctx) => {
    const { s, file, guarded, db } = await journalStore()
    const folderReadOnly = makeReadOnly(s.dir)
    if ('skip' in folderReadOnly) return ctx.skip(folderReadOnly.skip)
    let undone = false
    cleanups.push(() => undone || folderReadOnly.undo())
    await expect(addReaderRow(db, 'bo')).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: 'the app cannot store writes now: the database is read-only; nothing was kept, try again later',
    })
    expect(guarded.health.fault()).toMatchObject({
      kind: 'read-only',
      message: expect.stringMatching(new RegExp(`^cannot write to ${file}: read-only`)),
    })
    folderReadOnly.undo()
    undone = true
    await addReaderRow(db, 'bo')
    expect(guarded.health.fault()).toBeNull()
  })
})

/** A closed store whose Series table has its first page overwritten with garbage, opened again. */
async function damagedStore(): Promise<TestStore> {
  const first = store()
  await seedReader(first.db, 'aiko')
  await sql`INSERT INTO series (site, series_id, title, series_url, created_at)
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
    SELECT 'a', 'series-' || i, printf('%0100d', i), 'https://a.example/' || i, 1 FROM n`.execute(first.db)
  const root = await sql<{ rootpage: number }>`SELECT rootpage FROM sqlite_master WHERE name = 'series'`.execute(first.db)
  await first.close()
  overwritePageHeader(first.file, root.rows[0]!.rootpage)
  const again = openStore(first.file, { now: 2 })
  cleanups.push(() => again.close())
  return { ...again, dir: first.dir, dispose: () => again.close() }
}

/** Writes garbage over the header of a page of a closed database, as a bad sector would. */
function overwritePageHeader(file: string, page: number): void {
  const probe = new BetterSqlite3(file)
  probe.pragma('wal_checkpoint(TRUNCATE)')
  const size = Number(probe.pragma('page_size', { simple: true }))
  probe.close()
  const fd = openSync(file, 'r+')
  try {
    writeSync(fd, Buffer.alloc(64, 0xab), 0, 64, (page - 1) * size)
  } finally {
    closeSync(fd)
  }
}

describe('a damaged file', () => {
  it('found by a read: the read is refused with the reason, and from then on every write, until a restart', async () => {
    const s = await damagedStore()
    const readAll = () => sql`SELECT * FROM series`.execute(s.db)
    let damage: unknown
    try {
      await readAll()
    } catch (error) {
      damage = error
    }
    expect(damage).toMatchObject({ code: 'storage-unavailable', message: 'the app cannot read its database now: the database is damaged' })
    expect(s.health.fault()).toMatchObject({
      kind: 'damaged',
      message: `cannot write to ${s.file}: the database is damaged; restore the newest good backup (Settings → Backups → Restore, or quit and run npm run restore -- --latest)`,
    })
    expect(s.health.fault()!.code).toMatch(/^SQLITE_CORRUPT/)
    // A write that touches no damaged page is refused all the same: the file is not made worse.
    await expect(addReaderRow(s.db, 'bo')).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: 'the app cannot store writes now: the database is damaged; nothing was kept, the owner has to restore a backup first',
    })
    expect(s.health.check()).toMatchObject({ kind: 'damaged' })
    expect(await readerNames(s.db)).toEqual(['aiko'])
  })
})

describe('a file that is no database at all', () => {
  it('is damaged: reads and writes are refused, each in its own words, before any statement runs', async () => {
    const dir = tempDir('mb-notadb-')
    cleanups.push(() => dir.remove())
    const file = join(dir.dir, STORE_FILE)
    writeFileSync(file, 'not a database '.repeat(512))
    const guarded = guardStore(file, new BetterSqlite3(file), () => new BetterSqlite3(file))
    cleanups.push(() => guarded.database.close())
    expect(() => guarded.database.prepare('\n  SELECT * FROM readers')).toThrow(
      expect.objectContaining({ code: 'storage-unavailable', message: 'the app cannot read its database now: the database is damaged' }),
    )
    expect(guarded.health.fault()).toMatchObject({ kind: 'damaged', code: 'SQLITE_NOTADB' })
    expect(() => guarded.database.prepare("INSERT INTO readers (name) SELECT 'bo'")).toThrow(
      expect.objectContaining({
        code: 'storage-unavailable',
        message: 'the app cannot store writes now: the database is damaged; nothing was kept, the owner has to restore a backup first',
      }),
    )
  })
})

describe('damage the integrity check found', () => {
  it("refuses writes with the check's words and the advice, answers reads, and is kept as first told", async () => {
    const s = store()
    await seedReader(s.db, 'aiko')
    const seen = told(s.health)
    s.health.markDamaged('Tree 3 page 113: btreeInitPage() returns error code 11')
    const damaged = {
      kind: 'damaged',
      code: 'integrity-check',
      message: `cannot write to ${s.file}: the database is damaged (Tree 3 page 113: btreeInitPage() returns error code 11); restore the newest good backup (Settings → Backups → Restore, or quit and run npm run restore -- --latest)`,
    }
    expect(s.health.fault()).toEqual(damaged)
    await expect(addReaderRow(s.db, 'bo')).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: /the database is damaged; nothing was kept/,
    })
    await expect(s.db.transaction().execute((trx) => addReaderRow(trx, 'bo'))).rejects.toMatchObject({ code: 'storage-unavailable' })
    expect(await readerNames(s.db)).toEqual(['aiko'])
    // Nothing replaces or clears it: not another finding, not a full disk, not a look at a file that is still there.
    s.health.markDamaged('something else', 'other advice')
    fillDisk(s)
    await expect(bigSeries(s.db, 'big')).rejects.toMatchObject({ code: 'storage-unavailable' })
    expect(s.health.check()).toEqual(damaged)
    expect(seen).toEqual([damaged])
  })

  it('found while a transaction is under way: the transaction is not committed', async () => {
    const s = store()
    const write = s.db.transaction().execute(async (trx) => {
      await addReaderRow(trx, 'bo')
      s.health.markDamaged('bad page')
    })
    await expect(write).rejects.toMatchObject({ code: 'storage-unavailable', message: /the database is damaged/ })
    expect(await readerNames(s.db)).toEqual([])
  })

  it('says the advice it is given', () => {
    const s = store()
    s.health.markDamaged('bad page', 'restore manga-bookmark-2026.sqlite')
    expect(s.health.fault()!.message).toBe(
      `cannot write to ${s.file}: the database is damaged (bad page); restore manga-bookmark-2026.sqlite`,
    )
  })
})

describe('the file under a running store', () => {
  it('moved away: the write is not acknowledged, and the file put back takes writes again by itself', async () => {
    const s = store()
    const seen = told(s.health)
    await addReaderRow(s.db, 'aiko')
    const aside = join(s.dir, 'aside.sqlite')
    renameSync(s.file, aside)
    await expect(addReaderRow(s.db, 'bo')).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: 'the app cannot store writes now: the database file was moved away while the app ran; nothing was kept, try again later',
    })
    expect(s.health.fault()).toEqual({
      kind: 'moved',
      code: 'moved',
      message: `cannot write to ${s.file}: the file was moved away while the app ran; put it back and writes resume by themselves`,
    })
    // Reads still answer, from what the app had.
    expect(await readerNames(s.db)).toContain('aiko')
    // Put back: the periodic look sees it, and the next write is taken.
    renameSync(aside, s.file)
    expect(s.health.check()).toBeNull()
    await addReaderRow(s.db, 'cy')
    expect(s.health.fault()).toBeNull()
    expect(await readerNames(s.db)).toEqual(expect.arrayContaining(['aiko', 'cy']))
    expect(seen.map((f) => f?.kind ?? null)).toEqual(['moved', null])
  })

  it('deleted: said as deleted, not moved, and the advice is to restore a backup', async () => {
    const s = store()
    await addReaderRow(s.db, 'aiko')
    rmSync(s.file)
    await expect(addReaderRow(s.db, 'bo')).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: /file was deleted while the app ran/,
    })
    expect(s.health.fault()).toEqual({
      kind: 'deleted',
      code: 'deleted',
      message: `cannot write to ${s.file}: the file was deleted while the app ran`,
    })
  })

  it('moved away and put back: the next write looks again itself and is taken, with no periodic look between', async () => {
    const s = store()
    const aside = join(s.dir, 'aside.sqlite')
    renameSync(s.file, aside)
    await expect(addReaderRow(s.db, 'bo')).rejects.toMatchObject({ code: 'storage-unavailable' })
    renameSync(aside, s.file)
    await addReaderRow(s.db, 'cy')
    expect(s.health.fault()).toBeNull()
    expect(await readerNames(s.db)).toContain('cy')
  })

  it('once known moved away, takes no later write into the file it lost', async () => {
    const s = store()
    const aside = join(s.dir, 'aside.sqlite')
    renameSync(s.file, aside)
    await expect(addReaderRow(s.db, 'bo')).rejects.toMatchObject({ code: 'storage-unavailable' })
    await expect(addReaderRow(s.db, 'cy')).rejects.toMatchObject({ code: 'storage-unavailable', message: /file was moved away/ })
    expect(s.health.fault()).toMatchObject({ kind: 'moved' })
    // What the connection holds is what went into the file it lost.
    expect(s.sqlite.prepare('SELECT name FROM readers').pluck().all()).not.toContain('cy')
  })

  it('once known replaced, takes no write into the file it had', async () => {
    const s = store()
    await replaceWithAnother(s.file)
    expect(s.health.check()).toMatchObject({ kind: 'replaced' })
    await expect(addReaderRow(s.db, 'bo')).rejects.toMatchObject({ code: 'storage-unavailable' })
    expect(s.sqlite.prepare('SELECT name FROM readers').pluck().all()).toEqual([])
  })

  it('deleted between two writes of a transaction: the commit is not acknowledged', async () => {
    const s = store()
    const write = s.db.transaction().execute(async (trx) => {
      await addReaderRow(trx, 'bo')
      rmSync(s.file)
      await addReaderRow(trx, 'cy')
    })
    await expect(write).rejects.toMatchObject({ code: 'storage-unavailable', message: /file was deleted/ })
    expect(s.health.fault()).toMatchObject({ kind: 'deleted' })
  })

  it('replaced by another file: noticed by the periodic look before any write, and no write is taken', async () => {
    const s = store()
    await replaceWithAnother(s.file)
    expect(s.health.check()).toEqual({
      kind: 'replaced',
      code: 'replaced',
      message: `cannot write to ${s.file}: the file was replaced by another while the app ran; restart the app to open the new one`,
    })
    await expect(addReaderRow(s.db, 'bo')).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: 'the app cannot store writes now: the database file was replaced while the app ran; nothing was kept, try again later',
    })
  })

  it('in memory has no file to lose', async () => {
    const s = openStore(':memory:', { now: 1 })
    cleanups.push(() => s.close())
    await addReaderRow(s.db, 'aiko')
    expect(s.health.check()).toBeNull()
    expect(s.health.file).toBe(':memory:')
  })
})

describe('the statement cache', () => {
  it('gives the same statement for the same SQL, and forgets the oldest beyond its bound', () => {
    const s = store()
    const guarded = guardStore(s.file, new BetterSqlite3(s.file), () => new BetterSqlite3(s.file), 2)
    cleanups.push(() => guarded.database.close())
    const [a, b, c] = ['SELECT 1', 'SELECT 2', 'SELECT 3']
    const first = guarded.database.prepare(a)
    expect(guarded.database.prepare(a)).toBe(first)
    const second = guarded.database.prepare(b)
    guarded.database.prepare(c)
    expect(guarded.database.prepare(b)).toBe(second)
    expect(guarded.database.prepare(a)).not.toBe(first)
    expect([...(guarded.database.prepare(a).iterate([]) as Iterable<unknown>)]).toEqual([{ 1: 1 }])
  })
})

describe('what the file system says of an I/O error', () => {
  // The probe's own errors come only from a real read-only mount or a full disk (storage-faults.test.ts, on a
  // tmpfs and an ext4 image); here, each answer the kernel can give.
  it.each([
    ['EROFS', 'read-only', 'a file system mounted read-only'],
    ['EACCES', 'read-only', 'a folder the app may not write in'],
    ['EPERM', 'read-only', 'an immutable folder'],
    ['ENOSPC', 'full', 'no space left'],
    ['EDQUOT', 'full', "the owner's quota used up"],
    ['EIO', 'io', 'the disk itself failing'],
    [undefined, 'io', 'an error with no code'],
  ] as Array<[string | undefined, string, string]>)('%s is %s: %s', (code, kind) => {
    expect(probeFailure(code)).toBe(kind)
  })
})

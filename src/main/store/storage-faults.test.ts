/**
 * The store on real storage faults (docs/adr/0045-storage-faults.md): a full file system (a small tmpfs filled
 * to its last byte) and a read-only file. Writes the storage cannot take are `storage-unavailable` with the
 * reason in words, nothing is half-written, and writes are taken again by themselves once the storage is back.
 */
import { renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { makeReadOnly, mountExt4Image, mountSmallTmpfs, type SmallTmpfs } from '../testing/faults'
import { seedReader, seedSeries, tempDir } from '../testing/store'
import { getBookmark, updateBookmark } from './bookmarks'
import { openStore, STORE_FILE, type Store } from './database'
import { groupCommit } from './group-commit'
import { addReader } from './readers'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

// Mounted while the tests are collected, so a machine that cannot mount skips them with the reason.
const tmpfs = mountSmallTmpfs(4 * 1024 * 1024)
const mounted = 'dir' in tmpfs ? (tmpfs as SmallTmpfs) : null
const fullDiskSkip = 'skip' in tmpfs ? tmpfs.skip : ''
afterEach(() => mounted?.free())
afterAll(() => mounted?.unmount())

async function storeWithBookmarks(dir: string): Promise<{ store: Store; alice: number }> {
  const store = openStore(join(dir, STORE_FILE), { now: 1 })
  cleanups.push(() => store.close())
  const alice = await seedReader(store.db, 'alice')
  for (const id of ['a', 'b', 'c']) await seedSeries(store.db, { id, readers: [alice] })
  return { store, alice }
}

const progressWrites = (store: Store, alice: number) =>
  groupCommit(store.db, (trx, n: number) =>
    updateBookmark(trx, alice, { site: 'a', seriesId: ['a', 'b', 'c'][n % 3]! }, { progress: n, progressAt: n }, 100),
  )

describe.skipIf(!mounted)(`a full disk${fullDiskSkip ? ` (skipped: ${fullDiskSkip})` : ''}`, () => {
  it('every write of a batch fails as storage-unavailable (disk full), none is half-written, and writes resume by themselves', async () => {
    const dir = join(mounted!.dir, `full-${Date.now()}`)
    const { store, alice } = await storeWithBookmarks(dir)
    const writes = progressWrites(store, alice)
    await Promise.all([1, 2, 3].map((n) => writes.run(n)))

    mounted!.fill()
    const failed = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => writes.run(10 + i)))
    const reasons = failed.map((r) => (r.status === 'rejected' ? (r.reason as { code?: string; message?: string }) : null))
    expect(
      reasons.every((r) => r?.code === 'storage-unavailable'),
      JSON.stringify(reasons[0]),
    ).toBe(true)
    expect(reasons[0]!.message).toMatch(/disk is full; nothing was kept/)
    expect(store.health.fault()).toMatchObject({ kind: 'full', message: `cannot write to ${store.file}: disk full` })
    // Nothing of the failed batch is in the file, and what was acknowledged before is.
    const progress = async () =>
      Promise.all(['a', 'b', 'c'].map(async (id) => (await getBookmark(store.db, alice, { site: 'a', seriesId: id }))?.progress))
    expect(await progress()).toEqual([3, 1, 2])
    // A plain write outside a batch says the same.
    await expect(addReader(store.db, { name: 'bob', tokenHash: 'h-bob', now: 2 })).rejects.toMatchObject({ code: 'storage-unavailable' })

    mounted!.free()
    expect(await writes.run(42)).toMatchObject({ progress: 42 })
    expect(store.health.fault()).toBeNull()
    expect(await progress()).toEqual([42, 1, 2])
  })
})

describe('a read-only file', () => {
  it('opens, answers reads, refuses writes as storage-unavailable (read-only), and takes writes once the file is writable', async (ctx) => {
    const temp = tempDir('mb-readonly-')
    cleanups.push(() => temp.remove())
    const file = join(temp.dir, STORE_FILE)
    const first = await storeWithBookmarks(temp.dir)
    await first.store.close()
    cleanups.pop()

    const readOnly = makeReadOnly(file)
    if ('skip' in readOnly) return ctx.skip(readOnly.skip)
    let undone = false
    cleanups.push(() => undone || readOnly.undo())

    const store = openStore(file, { now: 2 })
    cleanups.push(() => store.close())
    expect(await getBookmark(store.db, first.alice, { site: 'a', seriesId: 'a' })).toMatchObject({ progress: null })
    const writes = progressWrites(store, first.alice)
    const failed = await Promise.allSettled([writes.run(3), writes.run(4)])
    expect(failed.map((r) => r.status === 'rejected' && (r.reason as { code: string }).code)).toEqual([
      'storage-unavailable',
      'storage-unavailable',
    ])
    expect(store.health.fault()).toMatchObject({ kind: 'read-only', message: `cannot write to ${file}: read-only` })

    readOnly.undo()
    undone = true
    // The connection SQLite opened read-only is opened again, by the next write or the periodic look.
    expect(store.health.check()).toMatchObject({ kind: 'read-only' })
    expect(await writes.run(5)).toMatchObject({ progress: 5 })
    expect(store.health.fault()).toBeNull()
  })
})

describe('a file made read-only (immutable for root) under the running store', () => {
  it('is named read-only, not an I/O error, when SQLite cannot write into it', async (ctx) => {
    const temp = tempDir('mb-immutable-')
    cleanups.push(() => temp.remove())
    const { store } = await storeWithBookmarks(temp.dir)
    const readOnly = makeReadOnly(store.file)
    if ('skip' in readOnly) return ctx.skip(readOnly.skip)
    let undone = false
    cleanups.push(() => undone || readOnly.undo())
    // The WAL takes the writes; moving them into the file is where the file refuses (SQLite: SQLITE_IOERR_WRITE).
    await addReader(store.db, { name: 'bob', tokenHash: 'h-bob', now: 2 })
    await expect(sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(store.db)).rejects.toMatchObject({ code: 'storage-unavailable' })
    expect(store.health.fault()).toMatchObject({
      kind: 'read-only',
      message: `cannot write to ${store.file}: read-only (the file refuses writes: it is immutable or not writable)`,
    })
    readOnly.undo()
    undone = true
  })
})

describe('a file system the kernel turns read-only under the running store', () => {
  it('refuses writes as storage-unavailable, named read-only from what the file system says; reads answer', async (ctx) => {
    const disk = mountExt4Image(16 * 1024 * 1024)
    if ('skip' in disk) return ctx.skip(disk.skip)
    cleanups.push(() => disk.unmount())
    const { store, alice } = await storeWithBookmarks(join(disk.dir, 'data'))
    const writes = progressWrites(store, alice)
    expect(await writes.run(1)).toMatchObject({ progress: 1 })

    disk.failReadOnly()
    await expect(writes.run(2)).rejects.toMatchObject({ code: 'storage-unavailable', message: /database is read-only; nothing was kept/ })
    expect(store.health.fault()).toMatchObject({
      kind: 'read-only',
      message: `cannot write to ${store.file}: read-only (the file system or the folder refuses writes)`,
    })
    expect(await getBookmark(store.db, alice, { site: 'a', seriesId: 'b' })).toMatchObject({ progress: 1 })
  })
})

describe('the file under a running store', () => {
  it('deleted: the write is not acknowledged, and no later write is taken', async () => {
    const temp = tempDir('mb-deleted-')
    cleanups.push(() => temp.remove())
    const { store, alice } = await storeWithBookmarks(temp.dir)
    const writes = progressWrites(store, alice)
    expect(await writes.run(1)).toMatchObject({ progress: 1 })

    rmSync(store.file)
    await expect(writes.run(2)).rejects.toMatchObject({ code: 'storage-unavailable', message: /file was deleted/ })
    expect(store.health.fault()).toMatchObject({
      kind: 'deleted',
      message: `cannot write to ${store.file}: the file was deleted while the app ran`,
    })
    await expect(addReader(store.db, { name: 'bob', tokenHash: 'h-bob', now: 2 })).rejects.toMatchObject({ code: 'storage-unavailable' })
    // Reads still answer, from what the app had.
    expect(await getBookmark(store.db, alice, { site: 'a', seriesId: 'a' })).toBeTruthy()
  })

  it('replaced by another file: noticed by the periodic look before any write', async () => {
    const temp = tempDir('mb-replaced-')
    cleanups.push(() => temp.remove())
    const { store } = await storeWithBookmarks(temp.dir)
    const other = tempDir('mb-other-')
    cleanups.push(() => other.remove())
    const elsewhere = openStore(join(other.dir, STORE_FILE), { now: 1 })
    await elsewhere.close()
    renameSync(join(other.dir, STORE_FILE), store.file)

    expect(store.health.check()).toMatchObject({ kind: 'replaced' })
    await expect(addReader(store.db, { name: 'bob', tokenHash: 'h-bob', now: 2 })).rejects.toMatchObject({
      code: 'storage-unavailable',
      message: /file was replaced/,
    })
  })
})

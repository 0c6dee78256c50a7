/**
 * The store putting another file in place of its own while it runs (a restore in the app,
 * docs/adr/0089-restore-in-place.md): what was written before is kept in the file set aside, the file put at
 * the path is the store from then on (migrated, its writes taken, an earlier fault forgotten), and a swap that
 * fails leaves the store on its own file. Real SQLite files in a temporary directory.
 */
import { copyFileSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { listReaders } from './readers'

const opened: TestStore[] = []
afterEach(async () => {
  for (const store of opened.splice(0).reverse()) await store.dispose()
})

function store(): TestStore {
  const s = openTestStore()
  opened.push(s)
  return s
}

const names = async (s: TestStore) => (await listReaders(s.db)).map((r) => r.name)
const namesIn = (file: string) => {
  const sqlite = new BetterSqlite3(file, { readonly: true })
  try {
    return sqlite.prepare('SELECT name FROM readers ORDER BY name').pluck().all()
  } finally {
    sqlite.close()
  }
}

/** A closed store's file holding one Reader, `name`. */
async function anotherFile(name: string): Promise<string> {
  const other = store()
  await seedReader(other.db, name)
  await other.close()
  return other.file
}

describe('replacing the store file while the app runs', () => {
  it('keeps what was written in the file set aside, and serves and writes the file put in its place', async () => {
    const s = store()
    await seedReader(s.db, 'before')
    const replacement = await anotherFile('restored')
    const aside = join(s.dir, 'aside.sqlite')
    await s.replaceFile(() => {
      // Only the main file is moved: what was written must be in it, not left in the journal beside it.
      renameSync(s.file, aside)
      copyFileSync(replacement, s.file)
    }, 2_000)
    expect(namesIn(aside)).toEqual(['before'])
    expect(await names(s)).toEqual(['restored'])
    await seedReader(s.db, 'after')
    expect(await names(s)).toEqual(['after', 'restored'])
    expect(s.health.fault()).toBeNull()
  })

  it('forgets the fault of the file it replaced: a deleted file restored takes writes again', async () => {
    const s = store()
    rmSync(s.file)
    await expect(seedReader(s.db, 'lost')).rejects.toMatchObject({ code: 'storage-unavailable' })
    expect(s.health.fault()).toMatchObject({ kind: 'deleted' })
    const replacement = await anotherFile('restored')
    const seen: Array<string | null> = []
    s.health.onChange((fault) => seen.push(fault?.kind ?? null))
    await s.replaceFile(() => copyFileSync(replacement, s.file), 2_000)
    expect(seen).toEqual([null])
    expect(s.health.fault()).toBeNull()
    expect(s.health.check()).toBeNull()
    await seedReader(s.db, 'after')
    expect(await names(s)).toEqual(['after', 'restored'])
  })

  it('a swap that fails leaves the store on its own file, reading and writing', async () => {
    const s = store()
    await seedReader(s.db, 'kept')
    await expect(
      s.replaceFile(() => {
        throw new Error('the backup could not be copied')
      }, 2_000),
    ).rejects.toThrow('the backup could not be copied')
    await seedReader(s.db, 'after')
    expect(await names(s)).toEqual(['after', 'kept'])
    expect(s.health.fault()).toBeNull()
  })

  // The store holds a descriptor of its file (to tell a moved file from a deleted one); each is let go with its
  // connection. Linux lists a process's descriptors in /proc/self/fd.
  it.skipIf(process.platform !== 'linux')('leaves no descriptor open once closed, however often its file was replaced', async () => {
    const open = () => readdirSync('/proc/self/fd').length
    const replacement = await anotherFile('restored')
    const before = open()
    const s = openTestStore()
    await seedReader(s.db, 'before')
    for (let i = 0; i < 3; i++) await s.replaceFile(() => copyFileSync(replacement, s.file), 2_000)
    await s.dispose()
    expect(open()).toBe(before)
  })
})

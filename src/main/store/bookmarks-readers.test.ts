import { describe, expect, it } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import { addBookmark, getBookmark, readerBookmarks, removeBookmark, updateBookmark } from './bookmarks'
import { addReader, getReader, listReaders, readerByTokenHash, removeReader, setReaderTokenHash } from './readers'

let alice: number
const key = { site: 'a', seriesId: 'x' }

it.beforeEach(async ({ store }) => {
  alice = await seedReader(store.db, 'alice')
  await seedSeries(store.db, { id: 'x', latest: 10 })
  await addBookmark(store.db, { ...key, readerId: alice, now: 100 })
})

describe('Progress keeps the latest write', () => {
  it('a later progressAt wins, an earlier one or a replay changes nothing', async ({ store }) => {
    await updateBookmark(store.db, alice, key, { progress: 5, progressAt: 2000 }, 3000)
    const late = await updateBookmark(store.db, alice, key, { progress: 3, progressAt: 1000 }, 3100)
    expect(late).toMatchObject({ progress: 5, progress_at: 2000, updated_at: 3000 })
    const replay = await updateBookmark(store.db, alice, key, { progress: 5, progressAt: 2000 }, 3200)
    expect(replay.updated_at).toBe(3000)
    const newer = await updateBookmark(store.db, alice, key, { progress: 7, progressAt: 2500 }, 3300)
    expect(newer).toMatchObject({ progress: 7, progress_at: 2500, updated_at: 3300 })
  })

  it('the final Progress is the same whatever order the writes arrive in', async ({ store }) => {
    const writes = [1, 2, 3, 4, 5, 6].map((n) => ({ progress: n, progressAt: n * 100 }))
    for (const order of [writes, [...writes].reverse(), [writes[2]!, writes[5]!, writes[0]!, writes[4]!, writes[1]!, writes[3]!]]) {
      await store.db.updateTable('bookmarks').set({ progress: null, progress_at: 0 }).execute()
      for (const w of order) await updateBookmark(store.db, alice, key, w, 9999)
      expect(await getBookmark(store.db, alice, key)).toMatchObject({ progress: 6, progress_at: 600 })
    }
  })

  it('status applies on its own and bumps updated_at', async ({ store }) => {
    const row = await updateBookmark(store.db, alice, key, { status: 'waiting' }, 4000)
    // A new bookmark starts caught up (migration 0009): the Latest Chapter, at progress_at 0.
    expect(row).toMatchObject({ status: 'waiting', updated_at: 4000, progress: 10, progress_at: 0 })
  })

  it("another Reader's bookmark is not found", async ({ store }) => {
    const bob = await seedReader(store.db, 'bob')
    await expect(updateBookmark(store.db, bob, key, { progress: 1 }, 1)).rejects.toThrow(/no bookmark a\/x for Reader/)
    await expect(removeBookmark(store.db, bob, key, 5)).rejects.toThrow(/no bookmark/)
  })
})

describe("a Reader's bookmarks", () => {
  it('carry the Series and the derived unread flag', async ({ store }) => {
    const [row] = await readerBookmarks(store.db, alice)
    expect(row).toMatchObject({ site: 'a', series_id: 'x', unread: false, progress: 10, series: { latest_chapter: 10, title: 'x' } })
    await updateBookmark(store.db, alice, key, { progress: 0, progressAt: 4 }, 150)
    expect((await readerBookmarks(store.db, alice))[0]?.unread).toBe(true)
    await updateBookmark(store.db, alice, key, { progress: 10, progressAt: 5 }, 200)
    expect((await readerBookmarks(store.db, alice))[0]?.unread).toBe(false)
  })

  it('since returns only bookmarks changed, or Series moved, at or after it', async ({ store }) => {
    await seedSeries(store.db, { id: 'y', latest: 1 })
    await addBookmark(store.db, { site: 'a', seriesId: 'y', readerId: alice, now: 100 })
    expect(await readerBookmarks(store.db, alice, { since: 150 })).toEqual([])
    await updateBookmark(store.db, alice, { site: 'a', seriesId: 'y' }, { status: 'planned' }, 200)
    expect((await readerBookmarks(store.db, alice, { since: 150 })).map((b) => b.series_id)).toEqual(['y'])
    await store.db.updateTable('series').set({ latest_changed_at: 300 }).where('series_id', '=', 'x').execute()
    expect((await readerBookmarks(store.db, alice, { since: 250 })).map((b) => b.series_id)).toEqual(['x'])
  })

  it('a second add of the same bookmark changes nothing', async ({ store }) => {
    expect(await addBookmark(store.db, { ...key, readerId: alice, status: 'dropped', now: 999 })).toBe(false)
    expect(await getBookmark(store.db, alice, key)).toMatchObject({ status: 'reading', created_at: 100 })
  })
})

describe('readers', () => {
  it('are found by token hash; rotation replaces it', async ({ store }) => {
    const r = await addReader(store.db, { name: 'carol', tokenHash: 'h1', now: 5 })
    expect((await readerByTokenHash(store.db, 'h1'))?.id).toBe(r.id)
    await setReaderTokenHash(store.db, r.id, 'h2')
    expect(await readerByTokenHash(store.db, 'h1')).toBeUndefined()
    expect((await readerByTokenHash(store.db, 'h2'))?.name).toBe('carol')
  })

  it('names are unique: a second Reader of a name is a conflict, and nothing is added', async ({ store }) => {
    await expect(addReader(store.db, { name: 'alice', tokenHash: 'zz', now: 1 })).rejects.toMatchObject({
      code: 'conflict',
      message: 'a Reader named "alice" already exists',
    })
    expect((await listReaders(store.db)).map((r) => r.name)).toEqual(['alice'])
  })

  it('are listed by name', async ({ store }) => {
    await addReader(store.db, { name: 'zoe', tokenHash: 'h-z', now: 1 })
    await addReader(store.db, { name: 'bea', tokenHash: 'h-b', now: 1 })
    expect((await listReaders(store.db)).map((r) => r.name)).toEqual(['alice', 'bea', 'zoe'])
  })

  it('a Reader who is not there has no token to rotate and cannot be removed', async ({ store }) => {
    await expect(setReaderTokenHash(store.db, alice + 100, 'h')).rejects.toMatchObject({
      code: 'not-found',
      message: `no Reader ${alice + 100}`,
    })
    await expect(removeReader(store.db, alice + 100)).rejects.toMatchObject({ code: 'not-found', message: `no Reader ${alice + 100}` })
    expect(await getReader(store.db, alice)).toBeDefined()
  })

  it('removing a Reader removes their bookmarks', async ({ store }) => {
    await removeReader(store.db, alice)
    expect(await getBookmark(store.db, alice, key)).toBeUndefined()
  })
})

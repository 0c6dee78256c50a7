import { describe, expect, it } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import { addBookmark, bookmarkCounts, isUnread, readerBookmarks, removeBookmark, seriesReaders, updateBookmark } from './bookmarks'

let aiko: number
let bo: number
const x = { site: 'a', seriesId: 'x' }
const y = { site: 'a', seriesId: 'y' }

it.beforeEach(async ({ store }) => {
  aiko = await seedReader(store.db, 'aiko')
  bo = await seedReader(store.db, 'bo')
  await seedSeries(store.db, { id: 'x', title: 'Xylo', latest: 10 })
  await seedSeries(store.db, { id: 'y', title: 'Yarrow', latest: 3 })
})

describe('unread: the Latest Chapter is past the Reader’s Progress', () => {
  it.each([
    ['nothing known, nothing read', null, null, false],
    ['nothing known, something read', null, 4, false],
    ['a chapter known, nothing read', 10, null, true],
    ['read up to an earlier chapter', 10, 9.5, true],
    ['read up to the Latest Chapter', 10, 10, false],
    ['read past it (a Sighting was corrected down)', 10, 12, false],
    ['chapter 0 known, nothing read', 0, null, true],
  ])('%s', (_name, latest, progress, expected) => {
    expect(isUnread(latest, progress)).toBe(expected)
  })
})

describe("a Reader's bookmarks", () => {
  it('are the bookmark’s own row and times, with its Series beside it', async ({ store }) => {
    await addBookmark(store.db, { ...x, readerId: aiko, status: 'waiting', now: 500 })
    const [row] = await readerBookmarks(store.db, aiko)
    expect(row).toMatchObject({
      reader_id: aiko,
      site: 'a',
      series_id: 'x',
      status: 'waiting',
      created_at: 500,
      updated_at: 500,
      // Caught up by default (migration 0009).
      progress: 10,
      progress_at: 0,
      unread: false,
      series: { title: 'Xylo', latest_chapter: 10, created_at: 1 },
    })
  })

  it('one of them by its Series', async ({ store }) => {
    await addBookmark(store.db, { ...x, readerId: aiko, now: 5 })
    await addBookmark(store.db, { ...y, readerId: aiko, now: 5 })
    expect((await readerBookmarks(store.db, aiko, { key: y })).map((b) => b.series_id)).toEqual(['y'])
    expect((await readerBookmarks(store.db, aiko)).map((b) => b.series_id)).toEqual(['x', 'y'])
  })

  it('a change that changes nothing returns the row as it is', async ({ store }) => {
    await addBookmark(store.db, { ...x, readerId: aiko, now: 5 })
    await updateBookmark(store.db, aiko, x, { status: 'waiting', progress: 4, progressAt: 50 }, 60)
    expect(await updateBookmark(store.db, aiko, x, { status: 'waiting', progress: 4, progressAt: 50 }, 70)).toMatchObject({
      status: 'waiting',
      progress: 4,
      progress_at: 50,
      updated_at: 60,
    })
  })

  it('not held: updating or removing it is not-found, and says whose', async ({ store }) => {
    const message = `no bookmark a/x for Reader ${bo}`
    await expect(updateBookmark(store.db, bo, x, { status: 'dropped' }, 1)).rejects.toMatchObject({ code: 'not-found', message })
    await expect(removeBookmark(store.db, bo, x, 6)).rejects.toMatchObject({ code: 'not-found', message })
  })
})

describe('counts and holders', () => {
  it('how many bookmarks each Reader holds; a Reader with none is absent', async ({ store }) => {
    await addBookmark(store.db, { ...x, readerId: aiko, now: 5 })
    await addBookmark(store.db, { ...y, readerId: aiko, now: 5 })
    await addBookmark(store.db, { ...x, readerId: bo, now: 5 })
    expect(await bookmarkCounts(store.db)).toEqual(
      new Map([
        [aiko, 2],
        [bo, 1],
      ]),
    )
    await removeBookmark(store.db, bo, x, 6)
    expect(await bookmarkCounts(store.db)).toEqual(new Map([[aiko, 2]]))
  })

  it('the Readers holding a Series, by name, with their Progress', async ({ store }) => {
    await addBookmark(store.db, { ...x, readerId: bo, status: 'waiting', now: 5 })
    await addBookmark(store.db, { ...x, readerId: aiko, now: 5 })
    await addBookmark(store.db, { ...y, readerId: aiko, now: 5 })
    await updateBookmark(store.db, bo, x, { progress: 7, progressAt: 70 }, 80)
    expect(await seriesReaders(store.db, x)).toEqual([
      { reader_id: aiko, name: 'aiko', status: 'reading', progress: 10, progress_at: 0 },
      { reader_id: bo, name: 'bo', status: 'waiting', progress: 7, progress_at: 70 },
    ])
  })
})

/**
 * The import's write and the reads around it, on a real SQLite file
 * (docs/adr/0036-import-plans-and-one-transaction.md): new rows are added, nothing the owner or a Reader wrote
 * is overwritten, Progress keeps the later write, a failed import writes nothing, and a second import of the
 * same rows changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import {
  existingBookmarks,
  existingSeries,
  libraryForExport,
  removeSourceMapping,
  saveSourceMapping,
  sourceMappings,
  writeImport,
  type ImportBatch,
  type ImportBookmarkRow,
  type ImportSeriesRow,
} from './library'

const NOW = 5_000
let store: TestStore
beforeEach(() => {
  store = openTestStore()
})
afterEach(() => store.dispose())

const series = (id: string, extra: Partial<ImportSeriesRow> = {}): ImportSeriesRow => ({
  site: 'a',
  seriesId: id,
  title: `Title ${id}`,
  seriesUrl: `https://a.example/manga/${id}`,
  ...extra,
})
const bookmark = (reader: string, id: string, extra: Partial<ImportBookmarkRow> = {}): ImportBookmarkRow => ({
  reader,
  site: 'a',
  seriesId: id,
  status: 'reading',
  ...extra,
})
const batch = (b: Partial<ImportBatch>): ImportBatch => ({ newReaders: [], series: [], bookmarks: [], ...b })

const seriesRow = (id: string, site = 'a') =>
  store.db.selectFrom('series').selectAll().where('site', '=', site).where('series_id', '=', id).executeTakeFirstOrThrow()
const bookmarkRow = (readerId: number, id: string) =>
  store.db.selectFrom('bookmarks').selectAll().where('reader_id', '=', readerId).where('series_id', '=', id).executeTakeFirstOrThrow()
const everything = async () => {
  const all = await libraryForExport(store.db)
  return JSON.stringify(all)
}

describe("a backup source's Site", () => {
  it('is remembered, changed in place, listed by name, and forgotten alone', async () => {
    await saveSourceMapping(store.db, { sourceId: '2', sourceName: 'Zeta', site: 'a', origin: 'https://a.example', now: 1 })
    await saveSourceMapping(store.db, { sourceId: '1', sourceName: 'Alpha', site: 'b', origin: 'https://b.example', now: 2 })
    await saveSourceMapping(store.db, { sourceId: '2', sourceName: 'Beta', site: 'c', origin: 'https://c.example', now: 3 })
    expect(await sourceMappings(store.db)).toEqual([
      { source_id: '1', source_name: 'Alpha', site: 'b', origin: 'https://b.example', updated_at: 2 },
      { source_id: '2', source_name: 'Beta', site: 'c', origin: 'https://c.example', updated_at: 3 },
    ])
    await removeSourceMapping(store.db, '1')
    expect((await sourceMappings(store.db)).map((m) => m.source_id)).toEqual(['2'])
  })
})

describe('what an import finds present', () => {
  it('finds the Series of each Site among many, in reads of a bounded size', async () => {
    await seedSeries(store.db, { site: 'a', id: 's-0', title: 'Zero' })
    await seedSeries(store.db, { site: 'b', id: 's-1200', title: 'Far' })
    await seedSeries(store.db, { site: 'b', id: 's-0', title: 'Other site' })
    const keys = [
      ...Array.from({ length: 1201 }, (_, i) => ({ site: 'b', seriesId: `s-${i}` })),
      { site: 'a', seriesId: 's-0' },
      { site: 'a', seriesId: 's-0' },
    ]
    const found = await existingSeries(store.db, keys)
    expect([...found.keys()].sort()).toEqual(['a\u0000s-0', 'b\u0000s-0', 'b\u0000s-1200'])
    expect(found.get('b\u0000s-1200')).toEqual({ title: 'Far', series_url: 'https://b.example/manga/s-1200' })
  })

  it("finds only the named Readers' bookmarks, and none for no Reader, without a read", async () => {
    const aiko = await seedReader(store.db, 'aiko')
    const bo = await seedReader(store.db, 'bo')
    await seedSeries(store.db, { id: 'x', readers: [aiko, bo] })
    await seedSeries(store.db, { id: 'y', readers: [bo] })
    const keys = [
      { site: 'a', seriesId: 'x' },
      { site: 'a', seriesId: 'y' },
    ]
    expect([...(await existingBookmarks(store.db, [aiko], keys)).keys()]).toEqual([`${aiko}\u0000a\u0000x`])
    let reads = 0
    const counted = store.db.withPlugin({ transformQuery: (args) => (reads++, args.node), transformResult: async (args) => args.result })
    expect(await existingBookmarks(counted, [], keys)).toEqual(new Map())
    expect(reads).toBe(0)
  })
})

describe('an import', () => {
  it('adds Readers, Series and bookmarks that do not exist, and counts them', async () => {
    const counts = await writeImport(
      store.db,
      batch({
        newReaders: [{ name: 'aiko', tokenHash: 'h-aiko', createdAt: 7 }],
        series: [series('x'), series('y')],
        bookmarks: [bookmark('aiko', 'x', { status: 'waiting', progress: 3, progressAt: 40, createdAt: 9 }), bookmark('aiko', 'y')],
      }),
      NOW,
    )
    expect(counts).toEqual({ readersCreated: ['aiko'], seriesAdded: 2, bookmarksAdded: 2, bookmarksPresent: 0, progressUpdated: 0 })
    const { readers, series: rows, bookmarks } = await libraryForExport(store.db)
    expect(readers).toMatchObject([{ name: 'aiko', token_hash: 'h-aiko', created_at: 7 }])
    expect(rows.map((r) => [r.series_id, r.title, r.series_url, r.latest_chapter, r.created_at])).toEqual([
      ['x', 'Title x', 'https://a.example/manga/x', null, NOW],
      ['y', 'Title y', 'https://a.example/manga/y', null, NOW],
    ])
    expect(bookmarks.map((b) => [b.series_id, b.status, b.progress, b.progress_at, b.created_at, b.updated_at])).toEqual([
      ['x', 'waiting', 3, 40, 9, NOW],
      ['y', 'reading', null, 0, NOW, NOW],
    ])
  })

  it('keeps a Series as an export had it: its Latest Chapter and stamps', async () => {
    const snapshot = {
      latest_chapter: 12,
      latest_chapter_label: 'Chapter 12',
      latest_chapter_url: 'https://a.example/c/12',
      latest_source: 'check' as const,
      latest_changed_at: 300,
      latest_checked_at: 400,
      finished_at: 500,
      created_at: 100,
    }
    await writeImport(
      store.db,
      batch({ series: [series('x', { snapshot }), series('y', { snapshot: { ...snapshot, created_at: 0 } })] }),
      NOW,
    )
    expect(await seriesRow('x')).toMatchObject(snapshot)
    // An export that does not say when a Series was added: it is added now.
    expect(await seriesRow('y')).toMatchObject({ latest_chapter: 12, created_at: NOW })
  })

  it('uses a Reader that exists rather than making another, and says it made none', async () => {
    const aiko = await seedReader(store.db, 'aiko')
    const counts = await writeImport(
      store.db,
      batch({
        newReaders: [{ name: 'aiko', tokenHash: 'other', createdAt: 7 }],
        series: [series('x')],
        bookmarks: [bookmark('aiko', 'x')],
      }),
      NOW,
    )
    expect(counts.readersCreated).toEqual([])
    const { readers, bookmarks } = await libraryForExport(store.db)
    expect(readers).toHaveLength(1)
    expect(readers[0]!.token_hash).not.toBe('other')
    expect(bookmarks.map((b) => b.reader_id)).toEqual([aiko])
  })

  it('naming a Reader that does not exist fails as not-found and writes nothing at all', async () => {
    const before = await everything()
    await expect(
      writeImport(
        store.db,
        batch({
          newReaders: [{ name: 'aiko', tokenHash: 'h', createdAt: 1 }],
          series: [series('x')],
          bookmarks: [bookmark('aiko', 'x'), bookmark('nobody', 'x')],
        }),
        NOW,
      ),
    ).rejects.toMatchObject({ code: 'not-found', message: 'no Reader "nobody"' })
    expect(await everything()).toBe(before)
  })

  it('fills only what a known Series lacks, and marks its bookmarks changed so Readers sync it; a title the owner has stays', async () => {
    const aiko = await seedReader(store.db, 'aiko')
    await seedSeries(store.db, { id: 'no-url', title: 'Kept', url: '', readers: [aiko] })
    await seedSeries(store.db, { id: 'no-title', title: '', readers: [aiko] })
    await seedSeries(store.db, { id: 'whole', title: 'Whole', readers: [aiko] })
    await seedSeries(store.db, { id: 'empty', title: '', url: '', readers: [aiko] })
    const counts = await writeImport(
      store.db,
      batch({
        series: [
          series('no-url', { title: 'Imported' }),
          series('no-title', { seriesUrl: '' }),
          series('whole', { title: 'Imported', seriesUrl: 'https://elsewhere/' }),
          series('empty', { title: '', seriesUrl: '' }),
        ],
      }),
      NOW,
    )
    expect(counts.seriesAdded).toBe(0)
    expect(await seriesRow('no-url')).toMatchObject({ title: 'Kept', series_url: 'https://a.example/manga/no-url' })
    expect(await seriesRow('no-title')).toMatchObject({ title: 'Title no-title', series_url: 'https://a.example/manga/no-title' })
    expect(await seriesRow('whole')).toMatchObject({ title: 'Whole', series_url: 'https://a.example/manga/whole' })
    expect(await seriesRow('empty')).toMatchObject({ title: '', series_url: '' })
    expect((await bookmarkRow(aiko, 'no-url')).updated_at).toBe(NOW)
    expect((await bookmarkRow(aiko, 'no-title')).updated_at).toBe(NOW)
    expect((await bookmarkRow(aiko, 'whole')).updated_at).toBe(1)
    expect((await bookmarkRow(aiko, 'empty')).updated_at).toBe(1)
  })

  it('a known Series missing a title gets none from an import that has none either', async () => {
    const aiko = await seedReader(store.db, 'aiko')
    await seedSeries(store.db, { id: 'no-title', title: '', readers: [aiko] })
    await writeImport(store.db, batch({ series: [series('no-title', { title: '' })] }), NOW)
    expect(await seriesRow('no-title')).toMatchObject({ title: '' })
    expect((await bookmarkRow(aiko, 'no-title')).updated_at).toBe(1)
  })
})

describe('an import that names only Readers', () => {
  it('creates those missing and leaves one that exists as it is', async () => {
    await seedReader(store.db, 'aiko')
    const counts = await writeImport(
      store.db,
      batch({
        newReaders: [
          { name: 'aiko', tokenHash: 'other', createdAt: 7 },
          { name: 'bo', tokenHash: 'h-bo', createdAt: 8 },
        ],
      }),
      NOW,
    )
    expect(counts.readersCreated).toEqual(['bo'])
    expect((await libraryForExport(store.db)).readers.map((r) => [r.name, r.token_hash === 'other'])).toEqual([
      ['aiko', false],
      ['bo', false],
    ])
  })
})

describe("an import's Progress on a bookmark the Reader has", () => {
  let aiko: number
  beforeEach(async () => {
    aiko = await seedReader(store.db, 'aiko')
    for (const id of ['read', 'unread']) await seedSeries(store.db, { id, readers: [aiko] })
    await store.db
      .updateTable('bookmarks')
      .set({ progress: 5, progress_at: 100, status: 'waiting' })
      .where('series_id', '=', 'read')
      .execute()
  })
  const progress = async (id: string) => {
    const row = await bookmarkRow(aiko, id)
    return [row.progress, row.progress_at, row.status, row.updated_at]
  }

  it.each([
    ['a later dated one wins', { progress: 9, progressAt: 101 }, [9, 101, 'waiting', NOW], 1],
    ['one as old loses', { progress: 9, progressAt: 100 }, [5, 100, 'waiting', 1], 0],
    ['an older one loses', { progress: 9, progressAt: 99 }, [5, 100, 'waiting', 1], 0],
    ['an undated one loses to something read', { progress: 9 }, [5, 100, 'waiting', 1], 0],
    ['none at all changes nothing', {}, [5, 100, 'waiting', 1], 0],
  ])('on a bookmark with Progress: %s, and the status stays', async (_case, given, expected, updated) => {
    const counts = await writeImport(store.db, batch({ bookmarks: [bookmark('aiko', 'read', { status: 'dropped', ...given })] }), NOW)
    expect(await progress('read')).toEqual(expected)
    expect(counts).toMatchObject({ bookmarksAdded: 0, bookmarksPresent: 1, progressUpdated: updated })
  })

  it.each([
    ['an undated one fills it', { progress: 4 }, [4, 0, 'reading', NOW], 1],
    ['a dated one fills it', { progress: 4, progressAt: 50 }, [4, 50, 'reading', NOW], 1],
  ])('on a bookmark with nothing read: %s', async (_case, given, expected, updated) => {
    const counts = await writeImport(store.db, batch({ bookmarks: [bookmark('aiko', 'unread', given)] }), NOW)
    expect(await progress('unread')).toEqual(expected)
    expect(counts.progressUpdated).toBe(updated)
  })

  it('on a bookmark with nothing read, none at all changes nothing', async () => {
    const counts = await writeImport(store.db, batch({ bookmarks: [bookmark('aiko', 'unread', { progressAt: 70 })] }), NOW)
    expect(await progress('unread')).toEqual([null, 0, 'reading', 1])
    expect(counts.progressUpdated).toBe(0)
  })

  it('a new bookmark without Progress is undated, even when the source gives a time', async () => {
    await seedSeries(store.db, { id: 'new' })
    await writeImport(store.db, batch({ bookmarks: [bookmark('aiko', 'new', { progressAt: 70 })] }), NOW)
    expect(await progress('new')).toEqual([null, 0, 'reading', NOW])
  })
})

describe('an import that names a row twice', () => {
  it('writes the Series and the bookmark once, and of two Progress for one bookmark keeps the later', async () => {
    const aiko = await seedReader(store.db, 'aiko')
    await seedSeries(store.db, { id: 'held', readers: [aiko] })
    await store.db.updateTable('bookmarks').set({ progress: 1, progress_at: 100 }).execute()
    await writeImport(
      store.db,
      batch({
        series: [series('x'), series('x')],
        bookmarks: [
          bookmark('aiko', 'x'),
          bookmark('aiko', 'x'),
          bookmark('aiko', 'held', { progress: 7, progressAt: 300 }),
          bookmark('aiko', 'held', { progress: 5, progressAt: 200 }),
        ],
      }),
      NOW,
    )
    const { series: rows, bookmarks } = await libraryForExport(store.db)
    expect(rows.map((r) => r.series_id)).toEqual(['held', 'x'])
    expect(bookmarks.map((b) => [b.series_id, b.progress, b.progress_at])).toEqual([
      ['held', 7, 300],
      ['x', null, 0],
    ])
  })
})

describe('a large import', () => {
  it('writes every row in bounded statements, says how far it is between them, and a second time adds nothing', async () => {
    const aiko = await seedReader(store.db, 'aiko')
    await seedSeries(store.db, { id: 's-0', readers: [aiko] })
    const rows = Array.from({ length: 1100 }, (_, i) => series(`s-${i}`))
    const marks = rows.map((r) => bookmark('aiko', r.seriesId, { progress: 1, progressAt: 10 }))
    const seen: Array<[number, number]> = []
    const counts = await writeImport(store.db, batch({ series: rows, bookmarks: marks }), NOW, (done, total) => {
      seen.push([done, total])
    })
    expect(counts).toMatchObject({ seriesAdded: 1099, bookmarksAdded: 1099, bookmarksPresent: 1, progressUpdated: 1 })
    // 100 rows per INSERT (each runs the per-row triggers; the loop may run between two).
    const hundreds = (from: number) => Array.from({ length: 10 }, (_, i): [number, number] => [from + 100 * i, 2200])
    expect(seen).toEqual([...hundreds(100), [1099, 2200], [1100, 2200], [1101, 2200], ...hundreds(1201), [2200, 2200]])
    const { series: all, bookmarks } = await libraryForExport(store.db)
    expect(all).toHaveLength(1100)
    expect(bookmarks).toHaveLength(1100)

    const before = await everything()
    const again = await writeImport(store.db, batch({ series: rows, bookmarks: marks }), NOW + 1)
    expect(again).toEqual({ readersCreated: [], seriesAdded: 0, bookmarksAdded: 0, bookmarksPresent: 1100, progressUpdated: 0 })
    expect(await everything()).toBe(before)
  })
})

describe('an export', () => {
  it('lists Series by Site and id, Readers by name, bookmarks by Reader, Site and id', async () => {
    const bo = await seedReader(store.db, 'bo')
    const aiko = await seedReader(store.db, 'aiko')
    await seedSeries(store.db, { site: 'b', id: 'a', readers: [bo, aiko] })
    await seedSeries(store.db, { site: 'a', id: 'z', readers: [aiko, bo] })
    await seedSeries(store.db, { site: 'a', id: 'c', readers: [bo] })
    const { series: rows, readers, bookmarks } = await libraryForExport(store.db)
    expect(rows.map((s) => `${s.site}/${s.series_id}`)).toEqual(['a/c', 'a/z', 'b/a'])
    expect(readers.map((r) => r.name)).toEqual(['aiko', 'bo'])
    expect(bookmarks.map((b) => `${b.reader_id}:${b.site}/${b.series_id}`)).toEqual([
      `${bo}:a/c`,
      `${bo}:a/z`,
      `${bo}:b/a`,
      `${aiko}:a/z`,
      `${aiko}:b/a`,
    ])
  })
})

describe("an import's Lane pauses (from an export document)", () => {
  const pausedUntil = async () =>
    Object.fromEntries(
      (await store.db.selectFrom('poll_lanes').select(['site', 'paused_until']).orderBy('site').execute()).map((l) => [
        l.site,
        l.paused_until,
      ]),
    )

  it('pauses each Lane as recorded; a Lane paused longer keeps its own pause and is not counted', async () => {
    await store.db
      .insertInto('poll_lanes')
      .values({ site: 'longer', paused_until: NOW + 9_000 })
      .execute()
    await store.db
      .insertInto('poll_lanes')
      .values({ site: 'shorter', paused_until: NOW + 1_000 })
      .execute()
    const lanePauses = [
      { site: 'new', until: NOW + 5_000 },
      { site: 'longer', until: NOW + 5_000 },
      { site: 'shorter', until: NOW + 5_000 },
    ]
    const counts = await writeImport(store.db, batch({ lanePauses }), NOW)
    expect(counts.lanesPaused).toBe(2)
    expect(await pausedUntil()).toEqual({ longer: NOW + 9_000, new: NOW + 5_000, shorter: NOW + 5_000 })
  })

  it('no pause recorded, or none taken: no count of Lanes paused in the answer', async () => {
    expect('lanesPaused' in (await writeImport(store.db, batch({}), NOW))).toBe(false)
    await store.db
      .insertInto('poll_lanes')
      .values({ site: 'longer', paused_until: NOW + 9_000 })
      .execute()
    const counts = await writeImport(store.db, batch({ lanePauses: [{ site: 'longer', until: NOW + 1 }] }), NOW)
    expect('lanesPaused' in counts).toBe(false)
    expect(await pausedUntil()).toEqual({ longer: NOW + 9_000 })
  })
})

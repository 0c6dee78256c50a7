/**
 * Export against a real SQLite file: the whole library, and one Reader's download as the same document or a
 * CSV (docs/export-format.md). The round trip through an import is in library-import.test.ts.
 */
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fixtureSites } from '../demo/fixture-sites'
import { parseCsv } from '../library/csv'
import { BUILT_IN_SITES } from '../sites/builtin'
import { createRegistry } from '../sites/registry'
import { updateBookmark } from '../store/bookmarks'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { exportLibrary, exportReader, exportReaderCsv, READER_CSV_COLUMNS } from './library-export'

const HOST = 'fixture.example:8080'
const registry = createRegistry([...BUILT_IN_SITES, ...fixtureSites(HOST)])
const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name: string; version: string }

let store: TestStore
let aiko: number
let ben: number
beforeEach(async () => {
  store = openTestStore()
  aiko = await seedReader(store.db, 'Aiko')
  ben = await seedReader(store.db, 'Ben')
  // Two Sites in use, named out of order; one Site no longer configured; Series no Reader of Aiko's holds.
  await seedSeries(store.db, {
    site: 'webtoons',
    id: 'moons',
    title: 'Moons',
    url: 'https://www.webtoons.com/m',
    latest: 7,
    readers: [ben],
  })
  await seedSeries(store.db, { site: 'fixture-madara', id: 'tower', title: 'Tower', latest: 12, readers: [aiko, ben] })
  await seedSeries(store.db, { site: 'fixture-madara', id: 'bakery', title: 'Bakery', latest: null, readers: [aiko] })
  await seedSeries(store.db, { site: 'gone-scans', id: 'relic', title: 'Relic', latest: 3, readers: [aiko] })
  await updateBookmark(
    store.db,
    aiko,
    { site: 'fixture-madara', seriesId: 'tower' },
    { progress: 10, progressAt: 500, status: 'waiting' },
    600,
  )
})
afterEach(() => store.dispose())

describe('the whole library', () => {
  it('names the app, and each Site in use once, by key; a Site no longer configured keeps its key and no hosts', async () => {
    const doc = await exportLibrary({ db: store.db, registry, now: 9_000 })
    expect(doc).toMatchObject({ format: 'manga-bookmark-library', version: 1, exportedAt: 9_000, app: `${pkg.name} ${pkg.version}` })
    expect(doc.app).toMatch(/^manga-bookmark \d+\.\d+\.\d+/)
    expect(doc.sites).toEqual([
      { key: 'fixture-madara', name: 'Fixture Scans (Madara)', hosts: [HOST] },
      { key: 'gone-scans', name: 'gone-scans', hosts: [] },
      { key: 'webtoons', name: 'Webtoons', hosts: registry.get('webtoons')!.hosts },
    ])
    expect(doc.series.map((s) => `${s.site}/${s.seriesId}`)).toEqual([
      'fixture-madara/bakery',
      'fixture-madara/tower',
      'gone-scans/relic',
      'webtoons/moons',
    ])
    expect(doc.readers.map((r) => [r.name, r.bookmarks.map((b) => b.seriesId)])).toEqual([
      ['Aiko', ['bakery', 'tower', 'relic']],
      ['Ben', ['tower', 'moons']],
    ])
  })

  it('a library with no Series names no Site', async () => {
    const empty = openTestStore()
    try {
      const doc = await exportLibrary({ db: empty.db, registry, now: 1 })
      expect([doc.sites, doc.series, doc.readers]).toEqual([[], [], []])
    } finally {
      await empty.dispose()
    }
  })
})

describe("a Reader's download", () => {
  it("holds only the Reader's bookmarks, the Series they point at and those Series' Sites", async () => {
    const doc = await exportReader({ db: store.db, registry, now: 9_000 }, ben)
    expect(doc).toMatchObject({ format: 'manga-bookmark-library', version: 1, exportedAt: 9_000 })
    expect(doc.sites.map((s) => s.key)).toEqual(['fixture-madara', 'webtoons'])
    expect(doc.series.map((s) => [s.seriesId, s.title, s.latestChapter])).toEqual([
      ['moons', 'Moons', 7],
      ['tower', 'Tower', 12],
    ])
    expect(doc.readers).toEqual([
      {
        name: 'Ben',
        createdAt: 1,
        bookmarks: [
          { site: 'webtoons', seriesId: 'moons', status: 'reading', progress: null, progressAt: 0, createdAt: 1 },
          { site: 'fixture-madara', seriesId: 'tower', status: 'reading', progress: null, progressAt: 0, createdAt: 1 },
        ],
      },
    ])
  })

  it('a Reader who is not there downloads an empty document', async () => {
    const doc = await exportReader({ db: store.db, registry, now: 9_000 }, 999)
    expect([doc.sites, doc.series, doc.readers]).toEqual([[], [], []])
  })

  it('as CSV: one row per bookmark by title, with the columns an import reads back; no Progress, no Progress time', async () => {
    const csv = parseCsv(await exportReaderCsv({ db: store.db }, aiko))
    expect(csv[0]).toEqual([...READER_CSV_COLUMNS])
    expect(READER_CSV_COLUMNS).toEqual(['site', 'seriesId', 'title', 'url', 'status', 'progress', 'progressAt', 'latestChapter'])
    expect(csv.slice(1).filter((row) => row.join('') !== '')).toEqual([
      ['fixture-madara', 'bakery', 'Bakery', 'https://fixture-madara.example/manga/bakery', 'reading', '', '', ''],
      ['gone-scans', 'relic', 'Relic', 'https://gone-scans.example/manga/relic', 'reading', '', '', '3'],
      ['fixture-madara', 'tower', 'Tower', 'https://fixture-madara.example/manga/tower', 'waiting', '10', '500', '12'],
    ])
  })

  it('as CSV, a Reader with no bookmarks is the header alone', async () => {
    const nobody = await seedReader(store.db, 'Chie')
    const rows = parseCsv(await exportReaderCsv({ db: store.db }, nobody)).filter((row) => row.join('') !== '')
    expect(rows).toEqual([[...READER_CSV_COLUMNS]])
  })
})

/**
 * Import and export against a real SQLite file and the Site registry of the fixture site (a real HTTP server
 * whose hit log proves that an import sends no request).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { gzipSync } from 'node:zlib'
import type { ImportJobView } from '../../shared/admin-api'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { readLibrary } from '../library/read'
import { BUILT_IN_SITES } from '../sites/builtin'
import { createRegistry, type SiteRegistry } from '../sites/registry'
import { updateBookmark } from '../store/bookmarks'
import { dueSeries } from '../store/due'
import { finishSeries } from '../store/series'
import { recordSighting } from '../store/sightings'
import { FakeClock } from '../testing/clock'
import { MANGADEX_EN, netscapeBookmarks, tachibk } from '../testing/library-files'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { exportLibrary } from './library-export'
import { applyPlan, ImportJobs, loadMappings, mapSource, planLibrary, previewPlan, type LibraryDeps } from './library-import'

// A source the Known Sites table does not know (the backup names it).
const ASURA = '1234567890123456789'
let fixture: FixtureSite
let registry: SiteRegistry
const clock = new FakeClock()

beforeAll(async () => {
  fixture = await startFixtureSite({ now: () => clock.now() })
  registry = createRegistry([...BUILT_IN_SITES, ...fixtureSites(fixture.host)])
})
afterAll(() => fixture.close())

let store: TestStore
let deps: LibraryDeps
let aiko: { id: number; name: string }
beforeEach(async () => {
  store = openTestStore()
  deps = { db: store.db, registry, clock }
  aiko = { id: await seedReader(store.db, 'Aiko'), name: 'Aiko' }
  fixture.hits.length = 0
})
afterEach(() => store.dispose())

/** Reads, plans and writes a file as `npm run import` does. */
async function importFile(bytes: Buffer | string, fileName: string, reader: { id: number; name: string } | undefined = aiko) {
  const parsed = await readLibrary(Buffer.from(bytes), fileName)
  const plan = await planLibrary(deps, parsed, reader)
  const preview = await previewPlan(deps, plan, fileName, reader)
  const result = await applyPlan(deps, plan)
  return { plan, preview, result }
}

/** Every row an import can touch, as a Reader or the owner would see it. */
async function tables() {
  return {
    readers: await store.db.selectFrom('readers').selectAll().orderBy('id').execute(),
    series: await store.db.selectFrom('series').selectAll().orderBy('site').orderBy('series_id').execute(),
    bookmarks: await store.db.selectFrom('bookmarks').selectAll().orderBy('reader_id').orderBy('site').orderBy('series_id').execute(),
  }
}

const page = (path: string) => `${fixture.origin}${path}`

describe("importing a browser's bookmarks", () => {
  const file = () =>
    netscapeBookmarks([
      {
        folder: 'Manga',
        items: [
          { title: 'The Tower Climber', url: page('/madara/manga/tower/') },
          { title: 'Iron Bloom', url: page('/themesia/manga/iron-bloom/') },
          { folder: 'Dropped', items: [{ title: 'Old Bakery', url: page('/madara/manga/bakery/chapter-3/') }] },
          { title: 'Not a Series', url: page('/madara/about') },
        ],
      },
      { title: 'News', url: 'https://news.example/' },
      { title: 'Video', url: 'https://video.example/watch?v=1' },
    ])

  it('previews per Site, then adds Series (title and URL from the file) and bookmarks in one go, sending no request', async () => {
    const { preview, result } = await importFile(file(), 'bookmarks.html')
    expect(preview.sites).toEqual([
      { site: 'fixture-madara', name: 'Fixture Scans (Madara)', add: 2, present: 0, progress: 0, newSeries: 2, skipped: 1 },
      { site: 'fixture-themesia', name: 'Fixture Themesia', add: 1, present: 0, progress: 0, newSeries: 1, skipped: 0 },
    ])
    expect(preview.skipped.map((s) => [s.reason, s.count])).toEqual([
      ['unknown-host', 2],
      ['not-series', 1],
    ])
    expect(preview.unknownHosts).toEqual([
      { host: 'news.example', count: 1 },
      { host: 'video.example', count: 1 },
    ])
    expect(result).toMatchObject({ seriesAdded: 3, bookmarksAdded: 3, bookmarksPresent: 0, skipped: 3 })

    const { series, bookmarks } = await tables()
    expect(series.map((s) => [s.series_id, s.title, s.series_url, s.latest_checked_at])).toEqual([
      ['bakery', 'Old Bakery', page('/madara/manga/bakery/'), 0],
      ['tower', 'The Tower Climber', page('/madara/manga/tower/'), 0],
      ['iron-bloom', 'Iron Bloom', page('/themesia/manga/iron-bloom/'), 0],
    ])
    expect(bookmarks.map((b) => [b.series_id, b.status])).toEqual([
      ['bakery', 'dropped'],
      ['tower', 'reading'],
      ['iron-bloom', 'reading'],
    ])
    expect(fixture.hits).toEqual([])
    // Never checked, so due: the Lanes read them at their own pace.
    const due = await dueSeries(store.db, 'fixture-madara', {
      restCutoff: clock.now() - 3_600_000,
      ceilingCutoff: clock.now() - 86_400_000,
    })
    expect(due.map((s) => s.series_id).sort()).toEqual(['bakery', 'tower'])
  })

  it('a second import of the same file changes nothing', async () => {
    await importFile(file(), 'bookmarks.html')
    const before = await tables()
    await clock.advance(60_000)
    const again = await importFile(file(), 'bookmarks.html')
    expect(again.preview.totals).toMatchObject({ add: 0, present: 3, newSeries: 0, progress: 0 })
    expect(again.result).toMatchObject({ seriesAdded: 0, bookmarksAdded: 0, bookmarksPresent: 3, progressUpdated: 0 })
    expect(await tables()).toEqual(before)
  })

  it("an import never changes a bookmark's status the Reader set, nor a Series' title", async () => {
    await importFile(file(), 'bookmarks.html')
    await updateBookmark(store.db, aiko.id, { site: 'fixture-madara', seriesId: 'tower' }, { status: 'waiting' }, clock.now())
    const renamed = file()
      .replace('The Tower Climber', 'Tower (renamed)')
      .replace(`${page('/madara/manga/tower/')}"`, `${page('/madara/manga/tower/')}" `)
    const moved = netscapeBookmarks([{ folder: 'Dropped', items: [{ title: 'Tower (renamed)', url: page('/madara/manga/tower/') }] }])
    await importFile(renamed, 'a.html')
    await importFile(moved, 'b.html')
    const { series, bookmarks } = await tables()
    expect(series.find((s) => s.series_id === 'tower')?.title).toBe('The Tower Climber')
    expect(bookmarks.find((b) => b.series_id === 'tower')?.status).toBe('waiting')
  })
})

describe('importing a Mihon/Tachiyomi backup', () => {
  const backup = (readAt?: number) =>
    tachibk({
      manga: [
        {
          source: MANGADEX_EN,
          url: '/manga/a96676e5-8ae2-425e-b549-7f15dd34a6d8',
          title: 'Komi',
          read: [1, 2, 3],
          ...(readAt ? { readAt: { 3: readAt } } : {}),
        },
        { source: ASURA, url: '/madara/manga/solo-lantern/', title: 'Solo Lantern', read: [4, 5], categories: [2] },
        { source: ASURA, url: '/madara/manga/night-sky/', title: 'Night Sky' },
      ],
      categories: [{ name: 'Plan to read', order: 2 }],
      sources: [{ name: 'Asura Scans', sourceId: ASURA }],
    })

  async function until(jobs: ImportJobs, id: string, phase: ImportJobView['phase']): Promise<ImportJobView> {
    return vi.waitFor(
      () => {
        const job = jobs.get(id)
        if (job.phase === 'failed' && phase !== 'failed') throw new Error(`the import failed: ${job.error}`)
        if (job.phase !== phase) throw new Error(`still ${job.phase}`)
        return job
      },
      { timeout: 10_000, interval: 5 },
    )
  }

  it('MangaDex resolves on its own; an unknown source is listed once, mapped by the owner, and remembered for the next import', async () => {
    const jobs = new ImportJobs(deps)
    const started = await jobs.start({ readerId: aiko.id, fileName: 'library.tachibk', bytes: backup() })
    const first = await until(jobs, started.id, 'previewed')
    expect(first.preview!.sites).toEqual([expect.objectContaining({ site: 'mangadex', add: 1 })])
    expect(first.preview!.unknownSources).toEqual([
      { sourceId: ASURA, name: 'Asura Scans', count: 2, example: '/madara/manga/solo-lantern/' },
    ])

    const mapped = await jobs.map(started.id, { sourceId: ASURA, site: 'fixture-madara' })
    expect(mapped.preview!.unknownSources).toEqual([])
    expect(mapped.preview!.sites).toEqual([
      expect.objectContaining({ site: 'fixture-madara', add: 2, newSeries: 2 }),
      expect.objectContaining({ site: 'mangadex', add: 1 }),
    ])
    expect(mapped.preview!.mappings).toEqual([
      { sourceId: ASURA, sourceName: 'Asura Scans', site: 'fixture-madara', siteName: 'Fixture Scans (Madara)', origin: fixture.origin },
    ])
    expect([...(await loadMappings(store.db)).values()]).toEqual([
      { sourceId: ASURA, sourceName: 'Asura Scans', site: 'fixture-madara', origin: fixture.origin },
    ])

    jobs.confirm(started.id)
    const done = await until(jobs, started.id, 'done')
    expect(done.result).toMatchObject({ bookmarksAdded: 3, seriesAdded: 3 })
    const { bookmarks, series } = await tables()
    expect(series.map((s) => s.series_url)).toEqual([
      page('/madara/manga/night-sky/'),
      page('/madara/manga/solo-lantern/'),
      'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8',
    ])
    // The highest chapter read is the Progress; the category "Plan to read" is the status.
    expect(bookmarks.map((b) => [b.series_id, b.status, b.progress])).toEqual([
      ['night-sky', 'reading', null],
      ['solo-lantern', 'planned', 5],
      ['a96676e5-8ae2-425e-b549-7f15dd34a6d8', 'reading', 3],
    ])
    expect(fixture.hits).toEqual([])

    // The next import of a backup with that source needs no mapping.
    const next = await jobs.start({ readerId: aiko.id, fileName: 'library.tachibk', bytes: backup() })
    const preview = (await until(jobs, next.id, 'previewed')).preview!
    expect(preview.unknownSources).toEqual([])
    expect(preview.totals).toMatchObject({ add: 0, present: 3 })
  })

  it("Progress keeps the later write: a backup's older reading loses to the Reader's newer one, a newer one wins, an undated one only fills nothing read", async () => {
    const key = { site: 'mangadex', seriesId: 'a96676e5-8ae2-425e-b549-7f15dd34a6d8' }
    await importFile(backup(), 'a.tachibk')
    let komi = (await tables()).bookmarks.find((b) => b.series_id === key.seriesId)!
    // Undated: it filled a bookmark with nothing read, at time 0 — any dated write wins over it.
    expect([komi.progress, komi.progress_at]).toEqual([3, 0])

    await updateBookmark(store.db, aiko.id, key, { progress: 9, progressAt: 2_000 }, clock.now())
    const older = await importFile(backup(1_000), 'b.tachibk')
    expect(older.preview.totals.progress).toBe(0)
    komi = (await tables()).bookmarks.find((b) => b.series_id === key.seriesId)!
    expect([komi.progress, komi.progress_at]).toEqual([9, 2_000])

    const newer = await importFile(backup(3_000), 'c.tachibk')
    expect(newer.preview.totals.progress).toBe(1)
    expect(newer.result.progressUpdated).toBe(1)
    komi = (await tables()).bookmarks.find((b) => b.series_id === key.seriesId)!
    expect([komi.progress, komi.progress_at]).toEqual([3, 3_000])
  })

  it('plans a large backup in slices: the event loop runs while it is planned (issue 40)', async () => {
    const manga = Array.from({ length: 20_000 }, (_, i) => ({
      source: MANGADEX_EN,
      url: `/manga/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    }))
    const parsed = await readLibrary(tachibk({ manga }), 'big.tachibk')
    // A timer due at once fires before the plan is done only if the plan lets the loop run (the whole plan is
    // a few hundred milliseconds; its slices about 10).
    let fired = false
    const timer = setTimeout(() => (fired = true), 0)
    const plan = await planLibrary(deps, parsed, aiko)
    clearTimeout(timer)
    expect(plan.bookmarks).toHaveLength(20_000)
    expect(fired).toBe(true)
  })

  it('reports its progress while writing', async () => {
    const manga = Array.from({ length: 1_200 }, (_, i) => ({
      source: MANGADEX_EN,
      url: `/manga/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    }))
    const parsed = await readLibrary(tachibk({ manga }), 'big.tachibk')
    const plan = await planLibrary(deps, parsed, aiko)
    const seen: Array<[number, number]> = []
    await applyPlan(deps, plan, (done, total) => void seen.push([done, total]))
    expect(seen.length).toBeGreaterThan(3)
    expect(seen.at(-1)).toEqual([2_400, 2_400])
    expect(seen.every(([done], i) => i === 0 || done >= seen[i - 1]![0])).toBe(true)
  })
})

describe('a bad file ends with a clear error and nothing written', () => {
  const big = () => Buffer.alloc(64 * 1024 * 1024 + 1, 0x41)
  it.each<[string, string, () => Buffer, RegExp]>([
    ['not gzip', 'library.tachibk', () => Buffer.from('just text'), /^backup: library\.tachibk is not gzip/],
    ['a gzip of something else', 'library.tachibk', () => gzipSync('{"a": 1}'), /^backup: .*not a Mihon\/Tachiyomi backup/],
    [
      'a truncated backup',
      'library.tachibk',
      () => tachibk({ manga: [{ source: ASURA, url: '/m/1' }] }).subarray(0, 25),
      /^backup: truncated/,
    ],
    ['a file over 64 MiB', 'huge.txt', big, /^huge\.txt: 67,108,865 bytes; an import reads files up to 64 MiB \(67,108,864 bytes\)$/],
    [
      'a bookmarks file with 100,000 links',
      'bookmarks.html',
      () =>
        Buffer.from(netscapeBookmarks(Array.from({ length: 100_000 }, (_, i) => ({ title: `${i}`, url: page(`/madara/manga/s${i}/`) })))),
      /^bookmarks file: 100,000 links/,
    ],
    [
      'binary that is not a backup',
      'photo.jpg',
      () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]),
      /^photo\.jpg: not a file an import reads/,
    ],
    [
      'an export from a newer app',
      'library.json',
      () => Buffer.from('{"format":"manga-bookmark-library","version":2}'),
      /^export document: version 2 was written by a newer app/,
    ],
  ])('%s', async (_name, fileName, bytes, message) => {
    const before = await tables()
    const jobs = new ImportJobs(deps)
    const job = await jobs.start({ readerId: aiko.id, fileName, bytes: bytes() })
    const failed = await vi.waitFor(
      () => {
        const j = jobs.get(job.id)
        if (j.phase !== 'failed') throw new Error(j.phase)
        return j
      },
      { timeout: 10_000, interval: 5 },
    )
    expect(failed.error).toMatch(message)
    expect(() => jobs.confirm(job.id)).toThrow(/this import is failed/)
    expect(await tables()).toEqual(before)
  })
})

describe('export and import: the round trip', () => {
  it('importing an export into an empty data directory restores the library; no token is in it', async () => {
    const ben = { id: await seedReader(store.db, 'Ben'), name: 'Ben' }
    await importFile(
      netscapeBookmarks([
        { title: 'Tower', url: page('/madara/manga/tower/') },
        { folder: 'Dropped', items: [{ title: 'Bloom', url: page('/themesia/manga/bloom/') }] },
      ]),
      'aiko.html',
    )
    await importFile(`${page('/madara/manga/tower/')}\n${page('/webtoons/en/fantasy/moons/list?title_no=7')}\n`, 'ben.txt', ben)
    await updateBookmark(
      store.db,
      ben.id,
      { site: 'fixture-madara', seriesId: 'tower' },
      { progress: 4, progressAt: clock.now() - 5 },
      clock.now(),
    )
    await recordSighting(store.db, {
      site: 'fixture-madara',
      seriesId: 'tower',
      readerId: ben.id,
      chapter: 12,
      sightedAt: clock.now(),
      now: clock.now(),
    })
    await finishSeries(store.db, { site: 'fixture-themesia', seriesId: 'bloom' }, clock.now())
    // An orphan Series (no Reader holds it) is part of the library too.
    await store.db
      .insertInto('series')
      .values({
        site: 'fixture-madara',
        series_id: 'orphan',
        title: 'Orphan',
        series_url: page('/madara/manga/orphan/'),
        latest_chapter: 2,
        created_at: 7,
      })
      .execute()

    const doc = await exportLibrary({ db: store.db, registry, now: clock.now() })
    expect(doc.series).toHaveLength(4)
    expect(doc.readers.map((r) => [r.name, r.bookmarks.length])).toEqual([
      ['Aiko', 2],
      ['Ben', 2],
    ])
    const text = JSON.stringify(doc)
    for (const r of (await tables()).readers) expect(text).not.toContain(r.token_hash)
    expect(text).not.toMatch(/token/i)

    const empty = openTestStore()
    try {
      const restoreDeps = { db: empty.db, registry, clock }
      const parsed = await readLibrary(Buffer.from(text), 'library.json')
      const plan = await planLibrary(restoreDeps, parsed, undefined)
      const result = await applyPlan(restoreDeps, plan)
      expect(result.readersCreated.map((r) => r.name)).toEqual(['Aiko', 'Ben'])
      expect(result.readersCreated.every((r) => r.token.length >= 43)).toBe(true)
      await clock.advance(1_000)
      const again = await exportLibrary({ db: empty.db, registry, now: clock.now() })
      expect({ ...again, exportedAt: 0 }).toEqual({ ...doc, exportedAt: 0 })
      expect(fixture.hits).toEqual([])
    } finally {
      await empty.dispose()
    }
  })
})

describe("the window's import jobs", () => {
  it('the tokens of Readers an export creates are shown once; a chosen Reader removed meanwhile is never re-created', async () => {
    const doc = await exportLibrary({ db: store.db, registry, now: clock.now() })
    const empty = openTestStore()
    try {
      const jobs = new ImportJobs({ db: empty.db, registry, clock })
      const job = await jobs.start({ fileName: 'library.json', bytes: Buffer.from(JSON.stringify(doc)) })
      await vi.waitFor(() => expect(jobs.get(job.id).phase).toBe('previewed'), { interval: 5, timeout: 15_000 })
      jobs.confirm(job.id)
      const done = await vi.waitFor(
        () => {
          const j = jobs.get(job.id)
          expect(j.phase).toBe('done')
          return j
        },
        { interval: 5 },
      )
      expect(done.result!.readersCreated).toEqual([{ name: 'Aiko', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }])
      expect(jobs.get(job.id).result!.readersCreated).toEqual([{ name: 'Aiko', token: '' }])
    } finally {
      await empty.dispose()
    }

    const jobs = new ImportJobs(deps)
    const list = await jobs.start({ readerId: aiko.id, fileName: 'list.txt', bytes: Buffer.from(`${page('/madara/manga/tower/')}\n`) })
    await vi.waitFor(() => expect(jobs.get(list.id).phase).toBe('previewed'), { interval: 5, timeout: 15_000 })
    await store.db.deleteFrom('readers').where('id', '=', aiko.id).execute()
    jobs.confirm(list.id)
    await vi.waitFor(() => expect(jobs.get(list.id).phase).toBe('failed'), { interval: 5 })
    expect(jobs.get(list.id).error).toBe(`no Reader ${aiko.id}`)
    expect((await tables()).readers).toEqual([])
  })

  it('mapping by a URL no Site has gives the sites.json entry that would add the Site, and remembers nothing', async () => {
    const error = await mapSource(deps, { sourceId: ASURA, sourceName: 'Asura Scans', url: 'https://asura.example/manga/x/' }).catch(
      (e: Error) => e,
    )
    expect((error as Error).message).toBe(
      'no Site has the host asura.example. Its family cannot be told from the address: add it with Add a Site, which recognises the family from one of its pages, or as a Site in sites.json (its family or selectors as the site is built), restart, and map again: {"key":"asura-scans","name":"Asura Scans","hosts":["asura.example"]}',
    )
    expect((await loadMappings(store.db)).size).toBe(0)
  })
})

/**
 * The edges of an import against a real SQLite file: the file with no Reader chosen, an export document's
 * Reader names, what a preview counts and lists, and mapping a backup source by a Site's key or by one of its
 * URLs. An import sends no request (library-import.test.ts proves it on the fixture site); here the Sites'
 * host is a loopback address nothing listens on.
 */
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppError } from '../../shared/errors'
import { fixtureSites } from '../demo/fixture-sites'
import { readLibrary } from '../library/read'
import type { Log } from '../log'
import { BUILT_IN_SITES } from '../sites/builtin'
import { createRegistry } from '../sites/registry'
import { updateBookmark } from '../store/bookmarks'
import { FakeClock } from '../testing/clock'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { applyPlan, loadMappings, mapSource, planLibrary, previewPlan, type LibraryDeps } from './library-import'

const HOST = '127.0.0.1:45678'
const ORIGIN = `http://${HOST}`
const registry = createRegistry([...BUILT_IN_SITES, ...fixtureSites(HOST)])
const clock = new FakeClock()
const page = (path: string) => `${ORIGIN}${path}`

let store: TestStore
let deps: LibraryDeps
let aiko: { id: number; name: string }
beforeEach(async () => {
  store = openTestStore()
  deps = { db: store.db, registry, clock }
  aiko = { id: await seedReader(store.db, 'Aiko'), name: 'Aiko' }
})
afterEach(() => store.dispose())

const rows = async () => ({
  readers: await store.db.selectFrom('readers').selectAll().orderBy('id').execute(),
  series: await store.db.selectFrom('series').selectAll().orderBy('site').orderBy('series_id').execute(),
  bookmarks: await store.db.selectFrom('bookmarks').selectAll().orderBy('reader_id').orderBy('series_id').execute(),
  mappings: await store.db.selectFrom('import_source_mappings').selectAll().execute(),
})

/** Reads and previews a file for `reader` (Aiko unless told; null: the Readers an export document names). */
async function plan(text: string, fileName: string, chosen: { id: number; name: string } | null = aiko) {
  const reader = chosen ?? undefined
  const parsed = await readLibrary(Buffer.from(text), fileName)
  const planned = await planLibrary(deps, parsed, reader)
  return { plan: planned, preview: await previewPlan(deps, planned, fileName, reader) }
}

/** An export document naming Readers (with no bookmarks of their own unless given). */
const exportDoc = (readers: Array<{ name: string; bookmarks?: unknown[] }>, series: unknown[] = []) =>
  JSON.stringify({
    format: 'manga-bookmark-library',
    version: 1,
    exportedAt: 1,
    app: 'manga-bookmark 0.1.0',
    sites: [],
    series,
    readers: readers.map((r) => ({ name: r.name, createdAt: 5, bookmarks: r.bookmarks ?? [] })),
  })

describe('whose bookmarks', () => {
  it('a list of URLs with no Reader chosen is refused: only an export document names its own Readers', async () => {
    const parsed = await readLibrary(Buffer.from(`${page('/madara/manga/tower/')}\n`), 'list.txt')
    await expect(planLibrary(deps, parsed, undefined)).rejects.toMatchObject({
      code: 'invalid',
      message: 'choose the Reader the bookmarks are for (only an export document names its own Readers)',
    })
  })

  it('an export document naming a Reader this app would not create is refused, naming it, and writes nothing', async () => {
    const before = await rows()
    for (const name of ['a/b', '-dash first', 'x'.repeat(39) + '/']) {
      const parsed = await readLibrary(Buffer.from(exportDoc([{ name: 'Ben' }, { name }])), 'library.json')
      await expect(planLibrary(deps, parsed, undefined)).rejects.toMatchObject({
        code: 'invalid',
        message: `export document: "${name}" is not a Reader name this app takes`,
      })
    }
    expect(await rows()).toEqual(before)
  })

  it('an export document shows the Readers it would create, and no chosen Reader; a chosen Reader is shown and creates none', async () => {
    const doc = exportDoc([{ name: 'Aiko' }, { name: 'Chie' }, { name: 'Ben' }])
    const { preview } = await plan(doc, 'library.json', null)
    expect(preview.reader).toBeNull()
    expect(preview.readersToCreate).toEqual(['Chie', 'Ben'])

    const chosen = await plan(`${page('/madara/manga/tower/')}\n`, 'list.txt')
    expect(chosen.preview.reader).toEqual(aiko)
    expect(chosen.preview.readersToCreate).toEqual([])
  })
})

describe('what a preview counts', () => {
  it('Progress it would move is counted as the write then moves it: a later dated one, an undated one only where nothing was read', async () => {
    const keys = ['fresh', 'blank', 'read', 'same', 'older', 'later', 'none'] as const
    await applyPlan(deps, (await plan(keys.map((k) => page(`/madara/manga/${k}/`)).join('\n'), 'seed.txt')).plan)
    const set = (id: string, progress: number, progressAt: number) =>
      updateBookmark(store.db, aiko.id, { site: 'fixture-madara', seriesId: id }, { progress, progressAt }, clock.now())
    await set('read', 5, 1_000)
    await set('same', 5, 1_000)
    await set('older', 5, 1_000)
    await set('later', 5, 1_000)
    const csv = [
      'url,progress,progressAt',
      `${page('/madara/manga/fresh/')},3,`, // undated, nothing read: fills it
      `${page('/madara/manga/blank/')},0,`,
      `${page('/madara/manga/read/')},7,`, // undated, something read: leaves it
      `${page('/madara/manga/same/')},7,1000`, // the same moment: the Reader's write stands
      `${page('/madara/manga/older/')},7,999`,
      `${page('/madara/manga/later/')},7,1001`,
      `${page('/madara/manga/none/')},,`, // no Progress at all
    ].join('\n')
    const { plan: planned, preview } = await plan(csv, 'progress.csv')
    expect(preview.totals).toMatchObject({ add: 0, present: 7, progress: 3 })
    const result = await applyPlan(deps, planned)
    expect(result.progressUpdated).toBe(3)
    const progress = Object.fromEntries((await rows()).bookmarks.map((b) => [b.series_id, [b.progress, b.progress_at]]))
    expect(progress).toEqual({
      fresh: [3, 0],
      blank: [0, 0],
      read: [5, 1_000],
      same: [5, 1_000],
      older: [5, 1_000],
      later: [7, 1_001],
      none: [null, 0],
    })
  })

  it('skips are grouped by reason, most first, each with three examples at most, its detail cut to 160 characters', async () => {
    const long = `https://far.example/${'p'.repeat(300)}`
    const lines = [
      'not a url one',
      long,
      'not a url two',
      'not a url three',
      'not a url four',
      page('/madara/about'),
      'https://near.example/x',
    ]
    const { preview } = await plan(lines.join('\n'), 'list.txt')
    expect(preview.skipped).toEqual([
      {
        reason: 'unreadable',
        count: 4,
        examples: ['line 1: not a URL: not a url one', 'line 3: not a URL: not a url two', 'line 4: not a URL: not a url three'],
      },
      { reason: 'unknown-host', count: 2, examples: [`line 2: ${long.slice(0, 160)}`, 'line 7: https://near.example/x'] },
      { reason: 'not-series', count: 1, examples: [`line 6: ${page('/madara/about')}`] },
    ])
    expect(preview.totals.skipped).toBe(7)
    expect(preview.sites).toEqual([expect.objectContaining({ site: 'fixture-madara', skipped: 1, add: 0 })])
  })

  it('unknown hosts are listed by count, then by name, ten at most', async () => {
    const counts: Record<string, number> = { 'b.example': 3, 'a.example': 3, 'c.example': 5 }
    for (let i = 0; i < 10; i++) counts[`h${i}.example`] = 1
    const lines = Object.entries(counts).flatMap(([host, n]) => Array.from({ length: n }, (_, i) => `https://${host}/m/${i}`))
    const { preview } = await plan(lines.reverse().join('\n'), 'list.txt')
    expect(preview.unknownHosts).toEqual([
      { host: 'c.example', count: 5 },
      { host: 'a.example', count: 3 },
      { host: 'b.example', count: 3 },
      ...['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => ({ host: `${h}.example`, count: 1 })),
    ])
  })

  it('offers every configured Site to map a source to, by name', async () => {
    const { preview } = await plan(`${page('/madara/manga/tower/')}\n`, 'list.txt')
    const names = preview.siteChoices.map((c) => c.name)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)))
    expect(preview.siteChoices.map((c) => c.site).sort()).toEqual(registry.sites.map((s) => s.key).sort())
    expect(preview.siteChoices).toContainEqual({ site: 'mangadex', name: 'MangaDex' })
    expect(preview.siteChoices).toContainEqual({ site: 'fixture-madara', name: 'Fixture Scans (Madara)' })
  })
})

describe('the write', () => {
  it("reports the write's own time, and leaves one line in the log with its counts", async () => {
    const lines: string[] = []
    const log = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) })) as Log
    const { plan: planned } = await plan(`${page('/madara/manga/tower/')}\n${page('/madara/manga/bakery/')}\n`, 'list.txt')
    const before = performance.now()
    const result = await applyPlan({ ...deps, log }, planned)
    const elapsed = performance.now() - before
    expect(result.ms).toBeGreaterThanOrEqual(0)
    expect(result.ms).toBeLessThanOrEqual(Math.ceil(elapsed))
    const records = lines.map((l) => JSON.parse(l) as { msg: string; bookmarksAdded?: number; seriesAdded?: number; format?: string })
    expect(records).toEqual([
      expect.objectContaining({
        format: 'list',
        bookmarksAdded: 2,
        seriesAdded: 2,
        msg: expect.stringMatching(/2 bookmarks and 2 Series/),
      }),
    ])
  })
})

describe('mapping a backup source', () => {
  const map = (input: { site?: string; url?: string; sourceName?: string }) =>
    mapSource(deps, { sourceId: '42', sourceName: input.sourceName ?? 'Asura Scans', ...input })

  it("by a Site's key: its manga paths are read on the Site's first host; remembered", async () => {
    await clock.advance(5_000)
    expect(await map({ site: 'fixture-themesia' })).toEqual({
      sourceId: '42',
      sourceName: 'Asura Scans',
      site: 'fixture-themesia',
      origin: ORIGIN,
    })
    expect((await rows()).mappings).toEqual([
      { source_id: '42', source_name: 'Asura Scans', site: 'fixture-themesia', origin: ORIGIN, updated_at: clock.now() },
    ])
  })

  it('by a key no Site has: not-found, naming it, and nothing remembered', async () => {
    await expect(map({ site: 'nowhere' })).rejects.toMatchObject({ code: 'not-found', message: 'no Site "nowhere"' })
    expect((await loadMappings(store.db)).size).toBe(0)
  })

  it("by one URL of the source: the host picks the Site, whose scheme and host are kept; a host's case does not matter", async () => {
    const mapping = { sourceId: '42', sourceName: 'Asura Scans', site: 'fixture-madara', origin: ORIGIN }
    expect(await map({ url: page('/madara/manga/x/') })).toEqual(mapping)
    expect(await map({ url: `http://${HOST.toUpperCase()}/madara/manga/x/` })).toEqual(mapping)
    expect(await map({ url: 'https://MangaDex.org/title/abc' })).toEqual({ ...mapping, site: 'mangadex', origin: 'https://mangadex.org' })
    expect([...(await loadMappings(store.db)).values()]).toEqual([{ ...mapping, site: 'mangadex', origin: 'https://mangadex.org' }])
  })

  it.each([
    ['not a URL', 'not a url'],
    ['an ftp URL', 'ftp://127.0.0.1:45678/madara/manga/x/'],
    ['a scheme that only ends in https', 'git+https://127.0.0.1:45678/madara/manga/x/'],
    ['a file URL', 'file:///etc/passwd'],
  ])('by %s: invalid, naming it, and nothing remembered', async (_name, url) => {
    await expect(map({ url })).rejects.toMatchObject({ code: 'invalid', message: `not an http(s) URL: ${url}` })
    expect((await loadMappings(store.db)).size).toBe(0)
  })

  it('a refused URL is named by its first 200 characters', async () => {
    const url = `ftp://x.example/${'y'.repeat(300)}`
    await expect(map({ url })).rejects.toMatchObject({ message: `not an http(s) URL: ${url.slice(0, 200)}` })
  })

  it.each([
    ['a name of words and signs', '  Asura -- Scans!! ', 'asura-scans'],
    ['no name: the host', '', 'asura-example'],
    ['a name of signs only', '!!!', 'new-site'],
    ['a long name: 40 characters of key, 80 of name', 'Manga '.repeat(20), `${'manga-'.repeat(6)}mang`],
  ])('by a URL no Site has, with %s: the sites.json entry that would add the Site', async (_name, sourceName, key) => {
    const error = (await map({ sourceName, url: 'https://Asura.example/manga/x/' }).catch((e: unknown) => e)) as AppError
    expect(error.code).toBe('not-found')
    const at = error.message.indexOf('{')
    expect(error.message.slice(0, at)).toBe(
      'no Site has the host asura.example. Its family cannot be told from the address: add it with Add a Site, which recognises the family from one of its pages, or as a Site in sites.json (its family or selectors as the site is built), restart, and map again: ',
    )
    expect(JSON.parse(error.message.slice(at))).toEqual({ key, name: sourceName.slice(0, 80), hosts: ['asura.example'] })
    expect((await loadMappings(store.db)).size).toBe(0)
  })

  it('by a URL on a host the Known Sites table knows: the family it names (mirrors too), or the theme no family reads', async () => {
    const manganato = (await map({ sourceName: 'Manganato', url: 'https://www.manganato.gg/manga/x' }).catch((e: unknown) => e)) as AppError
    expect(manganato.message).toContain('no Site has the host www.manganato.gg. It is Manganato, a MangaBox site: add it with Add a Site')
    expect(JSON.parse(manganato.message.slice(manganato.message.indexOf('{')))).toMatchObject({ family: 'mangabox' })
    const asura = (await map({ sourceName: 'Asura', url: 'https://asurascans.com/manga/x' }).catch((e: unknown) => e)) as AppError
    expect(asura.message).toContain('The extension repository knows it as Asura Scans, which no family of this app reads yet.')
    expect(asura.message).not.toContain('"family"')
    expect((await loadMappings(store.db)).size).toBe(0)
  })
})

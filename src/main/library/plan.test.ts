import { describe, expect, it } from 'vitest'
import { BUILT_IN_SITES } from '../sites/builtin'
import { createRegistry } from '../sites/registry'
import { testSite } from '../testing/fakes'
import { MANGADEX_EN } from '../testing/library-files'
import type { ImportEntry, ParsedLibrary, SeriesSnapshot } from './entries'
import { KNOWN_SITES } from '../sites/known-sites'
import { defaultOrigin, planImport, planImportInSlices, type SourceMapping } from './plan'

// A source the Known Sites table does not know (the backup names it).
const ASURA = '1234567890123456789'
const registry = createRegistry([...BUILT_IN_SITES, testSite('a'), testSite('local', { hosts: ['127.0.0.1:8080'] })])
const reader = { id: 1, name: 'Aiko' }

function library(entries: ImportEntry[], format: ParsedLibrary['format'] = 'mihon'): ParsedLibrary {
  return { format, entries, sourceNames: new Map([[ASURA, 'Asura Scans (EN)']]), unreadable: [] }
}
const url = (u: string, more: Partial<ImportEntry> = {}): ImportEntry => ({ ref: u, target: { kind: 'url', url: u }, title: '', ...more })
const manga = (sourceId: string, path: string, more: Partial<ImportEntry> = {}): ImportEntry => ({
  ref: path,
  target: { kind: 'source', sourceId, path },
  title: path,
  ...more,
})

// Named by the Known Sites table; no family of this app reads it (a one-off).
const ASURA_EN = '6247824327199706550'

describe('planning an import through the Site registry', () => {
  it.each<[string, ImportEntry, object]>([
    ['a Series URL on a pin', url('https://a.example/manga/tower/chapter-3'), { series: { site: 'a', seriesId: 'tower' } }],
    ['a URL no Site pins', url('https://news.example/x'), { skip: { reason: 'unknown-host', host: 'news.example' } }],
    ['a URL on a pin that is no Series', url('https://a.example/about'), { skip: { reason: 'not-series', site: 'a' } }],
    [
      'a MangaDex manga, by its source id alone',
      manga(MANGADEX_EN, '/manga/a96676e5-8ae2-425e-b549-7f15dd34a6d8'),
      {
        series: {
          site: 'mangadex',
          seriesId: 'a96676e5-8ae2-425e-b549-7f15dd34a6d8',
          seriesUrl: 'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8',
        },
      },
    ],
    ['an old numeric MangaDex id', manga(MANGADEX_EN, '/manga/1234'), { skip: { reason: 'not-series' } }],
    ['a manga of a source nobody mapped', manga(ASURA, '/manga/solo/'), { skip: { reason: 'unmapped-source', sourceId: ASURA } }],
    [
      'an unmapped source that keeps whole URLs',
      manga(ASURA, 'https://a.example/manga/whole/'),
      { series: { site: 'a', seriesId: 'whole' } },
    ],
    [
      'a source the table names, read by no family: skipped by name',
      manga(ASURA_EN, '/manga/solo/'),
      { skip: { reason: 'not-readable', sourceId: ASURA_EN, detail: 'Asura Scans: /manga/solo/' } },
    ],
    [
      'a source the table names, with a whole URL on a running Site',
      manga(ASURA_EN, 'https://a.example/manga/whole/'),
      { series: { site: 'a', seriesId: 'whole' } },
    ],
    ['a manga only in the history', manga(MANGADEX_EN, '/manga/x', { inLibrary: false }), { skip: { reason: 'not-in-library' } }],
  ])('%s', (_name, entry, expected) => {
    const plan = planImport(library([entry]), { registry, mappings: new Map(), reader })
    if ('series' in expected) {
      expect(plan.series).toEqual([expect.objectContaining(expected.series)])
      const { site, seriesId } = expected.series as { site: string; seriesId: string }
      expect(plan.bookmarks).toEqual([{ reader: 'Aiko', site, seriesId, status: 'reading' }])
      expect(plan.skipped).toEqual([])
    } else {
      expect(plan.series).toEqual([])
      expect(plan.skipped).toEqual([expect.objectContaining((expected as { skip: object }).skip)])
    }
  })

  it('a mapped source: its path is read on the mapped origin, the Site pin and id rule decide', () => {
    const mappings = new Map<string, SourceMapping>([
      [ASURA, { sourceId: ASURA, sourceName: 'Asura Scans (EN)', site: 'a', origin: 'https://a.example' }],
    ])
    const plan = planImport(library([manga(ASURA, '/manga/solo/'), manga(ASURA, '/series/nope')]), { registry, mappings, reader })
    expect(plan.series).toEqual([{ site: 'a', seriesId: 'solo', seriesUrl: 'https://a.example/manga/solo/', title: '/manga/solo/' }])
    expect(plan.skipped).toEqual([expect.objectContaining({ reason: 'not-series', detail: 'https://a.example/series/nope', site: 'a' })])
    expect(plan.mappingsUsed).toEqual([mappings.get(ASURA)])
  })

  it('lists each unknown source once, with its name from the backup, how many manga and one of them', () => {
    const plan = planImport(library([manga(ASURA, '/manga/one/'), manga(ASURA, '/manga/two/'), manga('42', '/x')]), {
      registry,
      mappings: new Map(),
      reader,
    })
    expect(plan.unknownSources).toEqual([
      { sourceId: ASURA, name: 'Asura Scans (EN)', count: 2, example: '/manga/one/' },
      { sourceId: '42', name: 'source 42', count: 1, example: '/x' },
    ])
  })

  it('a Site that moved: whole URLs on a domain it left are read by their path on its base URL, and the summary says so', () => {
    const manganato = '1024627298672457456'
    const plan = planImport(
      library([
        manga(manganato, 'https://chapmanganato.com/manga/one'),
        manga(manganato, 'https://chapmanganato.com/manga/two'),
        manga(manganato, '/manga/three'),
        manga(manganato, 'https://www.manganato.gg/manga/four'),
      ]),
      { registry, mappings: new Map(), reader },
    )
    expect(plan.series.map((s) => s.seriesUrl)).toEqual([
      'https://www.natomanga.com/manga/one',
      'https://www.natomanga.com/manga/two',
      'https://www.natomanga.com/manga/three',
      // A mirror is one of the Site's own hosts: read where it is.
      'https://www.manganato.gg/manga/four',
    ])
    expect(plan.sitesToAdd.map((s) => [s.entry.key, s.count])).toEqual([['manganato', 4]])
    expect(plan.sources).toEqual([
      {
        sourceId: manganato,
        name: 'Manganato',
        outcome: 'site-to-add',
        count: 4,
        resolved: 4,
        site: 'manganato',
        family: 'mangabox',
        moved: [{ from: 'chapmanganato.com', to: 'www.natomanga.com', count: 2 }],
      },
    ])
  })

  it('names every source with what becomes of its entries: a running Site, a Site to add, not readable, unknown', () => {
    const webtoons = KNOWN_SITES.sources.find((s) => s.name === 'Webtoons.com' && s.lang === 'en')!.id
    const plan = planImport(
      library([
        manga(MANGADEX_EN, '/manga/a96676e5-8ae2-425e-b549-7f15dd34a6d8'),
        manga(webtoons, '/en/fantasy/tower-of-god/list?title_no=95'),
        manga(ASURA_EN, '/manga/one/'),
        manga(ASURA_EN, '/manga/two/'),
        manga(ASURA, '/x'),
      ]),
      { registry, mappings: new Map(), reader },
    )
    expect(plan.bookmarks.map((b) => b.site)).toEqual(['mangadex', 'webtoons'])
    expect(plan.sources).toEqual([
      { sourceId: ASURA_EN, name: 'Asura Scans', outcome: 'not-readable', count: 2, resolved: 0, moved: [] },
      { sourceId: ASURA, name: 'Asura Scans (EN)', outcome: 'unknown', count: 1, resolved: 0, moved: [] },
      { sourceId: MANGADEX_EN, name: 'MangaDex', outcome: 'site', count: 1, resolved: 1, site: 'mangadex', family: 'mangadex', moved: [] },
      { sourceId: webtoons, name: 'Webtoons.com', outcome: 'site', count: 1, resolved: 1, site: 'webtoons', family: 'webtoons', moved: [] },
    ])
    // The owner may still map a named source to a Site of their own.
    expect(plan.unknownSources.map((s) => [s.name, s.count])).toEqual([
      ['Asura Scans', 2],
      ['Asura Scans (EN)', 1],
    ])
  })

  it('the same Series twice is one bookmark; the second is skipped as a duplicate and keeps nothing of its own', () => {
    const plan = planImport(
      library(
        [
          url('https://a.example/manga/tower/', { status: 'dropped' }),
          url('https://a.example/manga/tower/chapter-9', { status: 'planned' }),
        ],
        'bookmarks',
      ),
      { registry, mappings: new Map(), reader },
    )
    expect(plan.bookmarks).toEqual([{ reader: 'Aiko', site: 'a', seriesId: 'tower', status: 'dropped' }])
    expect(plan.skipped).toEqual([expect.objectContaining({ reason: 'duplicate', site: 'a' })])
  })

  it("an export document's bookmarks go to the Readers it names, unless one Reader is chosen", () => {
    const doc = library(
      [
        { ...url('https://a.example/manga/tower/'), reader: { name: 'Aiko', createdAt: 5 } },
        { ...url('https://a.example/manga/tower/'), reader: { name: 'Ben', createdAt: 6 } },
      ],
      'export',
    )
    const own = planImport(doc, { registry, mappings: new Map() })
    expect(own.bookmarks.map((b) => b.reader)).toEqual(['Aiko', 'Ben'])
    expect(own.readers).toEqual([
      { name: 'Aiko', createdAt: 5 },
      { name: 'Ben', createdAt: 6 },
    ])
    const chosen = planImport(doc, { registry, mappings: new Map(), reader: { id: 9, name: 'Cai' } })
    expect(chosen.bookmarks.map((b) => b.reader)).toEqual(['Cai'])
    expect(chosen.skipped.map((s) => s.reason)).toEqual(['duplicate'])
  })

  it('a mapped Site is read over https, or http for a host on this machine', () => {
    expect(defaultOrigin({ hosts: ['asura.example'] })).toBe('https://asura.example')
    expect(defaultOrigin({ hosts: ['127.0.0.1:8080'] })).toBe('http://127.0.0.1:8080')
    expect(defaultOrigin({ hosts: ['localhost:3000'] })).toBe('http://localhost:3000')
  })
})

describe('an export document is read as if a stranger typed it', () => {
  const NOW = 1_800_000_000_000
  const snapshot = (more: Partial<SeriesSnapshot> = {}): SeriesSnapshot => ({
    latestChapter: 12,
    latestChapterLabel: 'Chapter 12',
    latestChapterUrl: 'https://a.example/manga/tower/chapter-12',
    latestSource: 'check',
    latestChangedAt: 1_700_000_000_000,
    latestCheckedAt: 1_700_000_000_000,
    finishedAt: 0,
    createdAt: 1_600_000_000_000,
    ...more,
  })
  const series = (seriesId: string, url: string, more: Partial<ImportEntry> = {}): ImportEntry => ({
    ref: `Series ${seriesId}`,
    target: { kind: 'series', site: 'a', seriesId, url },
    title: seriesId,
    series: snapshot(),
    reader: { name: 'Aiko', createdAt: 5 },
    ...more,
  })
  const plan = (entries: ImportEntry[]) => planImport(library(entries, 'export'), { registry, mappings: new Map(), now: NOW })

  it("a chapter link off the Site's pin is not kept (a Reader's card would open a phishing page)", () => {
    const planned = plan([
      series('tower', 'https://a.example/manga/tower/', {
        series: snapshot({ latestChapterUrl: 'https://phish.example/a.example/login' }),
      }),
      series('blade', 'https://a.example/manga/blade/', { series: snapshot({ latestChapterUrl: 'javascript:alert(1)' }) }),
      series('bakery', 'https://a.example/manga/bakery/'),
    ])
    expect(planned.series.map((s) => s.snapshot?.latestChapterUrl)).toEqual(['', '', 'https://a.example/manga/tower/chapter-12'])
  })

  it('the id is the one the Site reads from the URL: a document naming another is reported, and nothing of it stored', () => {
    const planned = plan([series('solo-leveling', 'https://a.example/manga/evil-page/'), series('tower', 'https://a.example/manga/tower/')])
    expect(planned.series.map((s) => s.seriesId)).toEqual(['tower'])
    expect(planned.bookmarks.map((b) => b.seriesId)).toEqual(['tower'])
    expect(planned.skipped).toEqual([
      {
        ref: 'Series solo-leveling',
        reason: 'id-mismatch',
        detail: 'a/solo-leveling: its URL https://a.example/manga/evil-page/ is Series evil-page',
        site: 'a',
      },
    ])
  })

  it('no time lies beyond now: a check stamp in 2243 would keep the Lane from ever reading the Series', () => {
    const far = 8_600_000_000_000
    const planned = plan([
      series('tower', 'https://a.example/manga/tower/', {
        series: snapshot({ latestCheckedAt: far, latestChangedAt: far, finishedAt: far, createdAt: far }),
        progress: 3,
        progressAt: far,
        createdAt: far,
        reader: { name: 'Aiko', createdAt: far },
      }),
    ])
    expect(planned.series[0]!.snapshot).toMatchObject({ latestCheckedAt: NOW, latestChangedAt: NOW, finishedAt: NOW, createdAt: NOW })
    expect(planned.bookmarks[0]).toMatchObject({ progressAt: NOW, createdAt: NOW })
    expect(planned.readers).toEqual([{ name: 'Aiko', createdAt: NOW }])
  })

  it('titles and chapter labels lose control characters and bidi overrides, and are cut to 500 characters', () => {
    const planned = plan([
      series('tower', 'https://a.example/manga/tower/', {
        title: `Tower\u202e\u0007of\n\tGod ${'x'.repeat(1_000)}`,
        series: snapshot({ latestChapterLabel: 'Chapter\u2066 12\u0000' }),
      }),
    ])
    expect(planned.series[0]!.title).toBe(`Tower of God ${'x'.repeat(487)}`)
    expect(planned.series[0]!.snapshot!.latestChapterLabel).toBe('Chapter 12')
  })
})

describe('planning a large file in slices (issue 40: a 20,000-entry backup held the event loop while it was planned)', () => {
  const big = library(
    Array.from({ length: 5_000 }, (_, i) =>
      i % 5 === 4
        ? url(`https://news.example/${i}`)
        : manga(MANGADEX_EN, `/manga/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, { progress: i % 90 }),
    ),
  )

  it('gives the plan planImport gives, the event loop running between its slices', async () => {
    let turns = 0
    let ticking = true
    const tick = () => {
      turns++
      if (ticking) setImmediate(tick)
    }
    setImmediate(tick)
    // Slices of 0 ms: the loop runs after every step of 256 entries, whatever the machine's speed.
    const sliced = await planImportInSlices(big, { registry, mappings: new Map(), reader }, 0)
    ticking = false
    expect(turns).toBeGreaterThanOrEqual(Math.floor(5_000 / 256) - 1)
    expect(sliced).toEqual(planImport(big, { registry, mappings: new Map(), reader }))
    expect(sliced.bookmarks).toHaveLength(4_000)
    expect(sliced.skipped.filter((s) => s.reason === 'unknown-host')).toHaveLength(1_000)
  })
})

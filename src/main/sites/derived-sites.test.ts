import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { load } from 'cheerio'
import { describe, expect, it } from 'vitest'
import { coverageTable, formatDerived, withCoverage } from '../../../scripts/derived-sites'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { proposeSite, type FetchPage } from './recognise-site'
import { DEFAULT_PACE, seriesRules } from './site'
import { pageFromSelectors } from '../testing/page-from-selectors'
import { selectorAdapter } from './families/selectors'
import derived from './derived-sites.json' with { type: 'json' }
import {
  DERIVED_KIND,
  FAMILY_TABLE,
  KNOWN_SITES,
  isDerivedSite,
  knownHosts,
  knownSiteByHost,
  knownSiteEntry,
  knownSiteKind,
  withDerived,
  type DerivedSitesTable,
} from './known-sites'
import { checkSiteEntry } from './sites-file'

const TABLE = derived as DerivedSitesTable

function read(selectors: Parameters<typeof selectorAdapter>[0], body: string, url = 'https://example.test/series/x') {
  const step = selectorAdapter(selectors).read({ status: 200, url, body, contentType: 'text/html', headers: {} } as never, new URL(url))
  if (step.kind !== 'parsed') throw new Error(`not parsed: ${step.kind}`)
  return step.result
}

const CHAPTERS = [
  { label: 'Chapter 12', path: '/read/c12' },
  { label: 'Chapter 11.5', path: '/read/c11-5' },
  { label: 'Chapter 3', path: '/read/c3' },
]

describe('derived selector entries', () => {
  it('cite the repository and commit they were derived from', () => {
    expect(TABLE.source).toMatchObject({ repository: 'https://github.com/keiyoushi/extensions-source', license: 'Apache-2.0' })
    expect(TABLE.source.commit).toBe('fd4236e034ea55f9df1799bf34b7c713f1a46780')
    expect(TABLE.generatedBy).toMatch(/scripts\/derived-sites\.ts/)
    // As the script writes it (one Site a line), never edited by hand.
    expect(readFileSync(join(import.meta.dirname, 'derived-sites.json'), 'utf8')).toBe(formatDerived(TABLE))
  })

  it('every entry reads a page built from its own selectors: each chapter, its number and its link', () => {
    expect(TABLE.sites.length).toBeGreaterThan(20)
    for (const site of TABLE.sites.filter((s): s is typeof s & { selectors: object } => !!s.selectors)) {
      const body = pageFromSelectors(site.selectors, 'A Series', CHAPTERS)
      expect(load(body)(site.selectors.chapter).length, `${site.key}: rows`).toBe(3)
      const result = read(site.selectors, body, `${site.baseUrl}/series/x`)
      expect(
        result.chapters.map((c) => [c.number, c.url && new URL(c.url).pathname]),
        `${site.key}: ${JSON.stringify(site.selectors)}`,
      ).toEqual([
        [12, '/read/c12'],
        [11.5, '/read/c11-5'],
        [3, '/read/c3'],
      ])
      if (site.selectors.title) expect(result.title, site.key).toBe('A Series')
    }
  })

  it('hold every shape the script accepts: the name and the link each the row or inside it', () => {
    const shapes = new Set(TABLE.sites.filter((s) => s.selectors).map((s) => s.shape.replace(/^\w+, /, '')))
    expect([...shapes]).toEqual(
      expect.arrayContaining(['name inside, link inside', 'name inside, link the row', 'name the row, link the row']),
    )
    const how = new Set(TABLE.sites.map((s) => s.shape.split(',')[0]))
    expect([...how].sort()).toEqual(expect.arrayContaining(['adapter', 'function', 'hand', 'lambda', 'update lambda']))
    for (const h of how) expect(['adapter', 'function', 'hand', 'lambda', 'update lambda', 'update function', 'parsed']).toContain(h)
  })

  it('read the name where `name` says, not the whole row (a date beside it is no number)', () => {
    const selectors = { chapter: 'li.row', number: 'text' as const, name: '.name', link: 'a.go' }
    const body = `<h1>T</h1><ul><li class="row"><a class="go" href="/c/7">Read</a><span class="name">Episode 7</span><span>2025</span></li>
      <li class="row"><a class="go" href="/c/8">Read</a><span>Episode 8</span></li></ul>`
    const result = read(selectors, body)
    expect(result.chapters.map((c) => [c.number, c.label, new URL(c.url).pathname])).toEqual([[7, 'Episode 7', '/c/7']])
    // Without the name's selector the row's whole text is read, the year beside the name in it.
    expect(read({ chapter: 'li.row', number: 'text' }, body).chapters.map((c) => c.number)).not.toContain(7)
  })

  it("are Known Sites of their own: the import and Add a Site take them; a family's host stays the family's", () => {
    const derivedKeys = new Set(TABLE.sites.filter((s) => s.selectors).map((s) => s.key))
    const merged = KNOWN_SITES.sites.filter((s) => derivedKeys.has(s.key))
    expect(merged.length).toBeGreaterThan(20)
    for (const known of merged) {
      expect(known.family).toBeUndefined()
      expect(knownSiteKind(known)).toBe(DERIVED_KIND)
      expect(knownSiteByHost(new URL(known.baseUrl).host)).toBe(known)
      const entry = knownSiteEntry(known, new Set())
      expect(entry).toMatchObject({ key: known.key, name: known.name, selectors: known.selectors })
      const checked = checkSiteEntry(entry, new Map())
      expect('site' in checked ? [] : checked.problems).toEqual([])
      expect(isDerivedSite(entry.hosts!, known.selectors)).toBe(true)
      expect(isDerivedSite(entry.hosts!, { ...known.selectors!, chapter: 'li.other' })).toBe(false)
    }
    const sourceIds = new Set(TABLE.sites.filter((s) => s.selectors).flatMap((s) => s.sources))
    const rows = KNOWN_SITES.sources.filter((r) => sourceIds.has(r.id))
    expect(rows.length).toBe(sourceIds.size)
    for (const row of rows) expect(derivedKeys.has(row.site!), row.name).toBe(true)
  })

  it('a one-off read by a hand-written API adapter is a Known Site of that family: Naver Webtoon, its three sources', () => {
    const naver = knownSiteByHost('comic.naver.com')!
    expect(naver).toMatchObject({ name: 'Naver Webtoon', lang: 'ko', family: 'navercomic', baseUrl: 'https://comic.naver.com' })
    expect(naver.selectors).toBeUndefined()
    expect(
      KNOWN_SITES.sources
        .filter((r) => r.site === naver.key)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['Naver Webtoon', 'Naver Webtoon Best Challenge', 'Naver Webtoon Challenge'])
    expect(knownSiteEntry(naver, new Set())).toMatchObject({ family: 'navercomic' })
  })

  it('Add a Site reads a derived Known Site by its selectors, over real HTTP, and proposes its entry', async () => {
    const known = KNOWN_SITES.sites.find((s) => s.selectors?.name && s.selectors.link)!
    const body = pageFromSelectors(known.selectors!, 'A Series', CHAPTERS)
    const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const onLoopback = { ...known, baseUrl: `http://${host}` }
      const probe = {
        key: 'probe',
        name: 'probe',
        hosts: [host],
        fetcher: 'http' as const,
        fallback: 'none' as const,
        pace: { ...DEFAULT_PACE },
        origin: 'sites.json' as const,
      }
      const adapter = {
        request: (u: URL) => ({ url: u.href, method: 'GET' as const }),
        read: () => ({ kind: 'parsed' as const, result: { chapters: [] } }),
      }
      const fetchPage: FetchPage = (request) =>
        createHttpFetcher({ timeoutMs: 2_000 }).fetch(request, { ...probe, adapter, ...seriesRules(undefined) })
      const proposal = await proposeSite(fetchPage, `http://${host}/series/a-series`, { sites: [], knownSite: () => onLoopback })
      if (!proposal.ok) throw new Error(proposal.reason)
      expect(proposal.entry).toMatchObject({ key: known.key, name: known.name, selectors: known.selectors })
      expect(proposal.recognisedBy).toMatch(
        new RegExp(`^${DERIVED_KIND.replace(/[()]/g, '\\$&')}: its answer for this Series read 3 chapters`),
      )
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('the coverage table is written between its markers in docs/sites.md, and nowhere without them', () => {
    const table = coverageTable([
      { lang: '(overall)', total: 10, before: 2, after: 5 },
      { lang: 'vi', total: 4, before: 1, after: 2 },
    ])
    expect(table.split('\n').slice(2)).toEqual(['| overall | 10 | 2 (20.0 %) | 5 (50.0 %) |', '| vi | 4 | 1 (25.0 %) | 2 (50.0 %) |'])
    const start = '<!-- derived-sites coverage: start (scripts/derived-sites.ts writes it) -->'
    const end = '<!-- derived-sites coverage: end -->'
    const doc = `# Sites\n\n${start}\n| old |\n${end}\n\nAfter.\n`
    expect(withCoverage(doc, table)).toBe(`# Sites\n\n${start}\n${table}\n${end}\n\nAfter.\n`)
    expect(withCoverage('# Sites\n| old |\n', table)).toBe('# Sites\n| old |\n')
    expect(readFileSync(join(import.meta.dirname, '../../../docs/sites.md'), 'utf8')).toContain(start)
  })

  it('never take a host or a key a family has', () => {
    const family = FAMILY_TABLE.sites[0]!
    const clash = {
      ...TABLE,
      sites: [
        {
          key: 'on-a-family-host',
          name: 'X',
          lang: 'en',
          baseUrl: family.baseUrl,
          selectors: { chapter: 'li', number: 'text' as const },
          shape: 'lambda',
          sources: ['1'],
        },
        {
          key: family.key,
          name: 'Y',
          lang: 'en',
          baseUrl: 'https://y.example',
          selectors: { chapter: 'li', number: 'text' as const },
          shape: 'lambda',
          sources: ['2'],
        },
      ],
    }
    const merged = withDerived(FAMILY_TABLE, clash)
    expect(merged.sites).toHaveLength(FAMILY_TABLE.sites.length)
    expect(merged.sites.find((s) => knownHosts(s).includes(new URL(family.baseUrl).host))).toBe(family)
  })
})

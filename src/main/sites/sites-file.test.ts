import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../testing/store'
import { BUILT_IN_SITES } from './builtin'
import { createRegistry } from './registry'
import { DEFAULT_PACE } from './site'
import { loadSites, parseSitesFile } from './sites-file'

const parse = (json: unknown) => parseSitesFile(JSON.stringify(json), 'sites.json', BUILT_IN_SITES)
const keys = (report: { sites: Array<{ key: string }> }) => report.sites.map((s) => s.key)

const example = {
  key: 'example',
  name: 'Example Scans',
  hosts: ['example.org'],
  fetcher: 'http',
  fallback: 'none',
  family: 'madara',
  idPattern: '^/manga/([^/]+)',
  pace: { restMs: 7_200_000, minGapMs: 10_000 },
}

describe('sites.json', () => {
  it('adds a Site of a built-in family with its pace over the defaults', () => {
    const report = parse({ sites: [example] })
    expect(report.problems).toEqual([])
    const site = report.sites.find((s) => s.key === 'example')!
    expect(site).toMatchObject({ name: 'Example Scans', hosts: ['example.org'], fetcher: 'http', fallback: 'none', origin: 'sites.json' })
    expect(site.pace).toEqual({ ...DEFAULT_PACE, restMs: 7_200_000, minGapMs: 10_000 })
    expect(site.seriesIdOf(new URL('https://example.org/manga/some-title/'))).toBe('some-title')
  })

  it('a Site with selectors reads pages with them', () => {
    const report = parse({
      sites: [{ key: 'tiny', name: 'Tiny', hosts: ['tiny.example:8080'], selectors: { chapter: 'a.ch', number: 'attr:data-n' } }],
    })
    const site = report.sites.find((s) => s.key === 'tiny')!
    const step = site.adapter.read(
      { url: 'http://tiny.example:8080/x', status: 200, contentType: 'text/html', body: '<a class="ch" data-n="4" href="/4">four</a>' },
      new URL('http://tiny.example:8080/x'),
    )
    expect(step).toEqual({ kind: 'parsed', result: { chapters: [{ number: 4, label: 'four', url: 'http://tiny.example:8080/4' }] } })
    expect(site.seriesIdOf(new URL('http://tiny.example:8080/series/abc/'))).toBe('series/abc')
  })

  it('overrides a built-in Site field by field', () => {
    const report = parse({ sites: [{ key: 'mangadex', pace: { restMs: 10_800_000 } }] })
    expect(report.problems).toEqual([])
    const site = report.sites.find((s) => s.key === 'mangadex')!
    expect(site).toMatchObject({ name: 'MangaDex', hosts: ['mangadex.org', 'api.mangadex.org'], origin: 'sites.json' })
    expect(site.pace.restMs).toBe(10_800_000)
    expect(site.seriesIdOf(new URL('https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/komi'))).toBe(
      'a96676e5-8ae2-425e-b549-7f15dd34a6d8',
    )
  })

  it.each([
    ['an unknown field', { ...example, colour: 'red' }, /site "example": field "\(entry\)": Unrecognized key: "colour"/],
    ['hosts with a scheme', { ...example, hosts: ['https://example.org'] }, /site "example": field "hosts.0": a host or host:port/],
    ['an unknown family', { ...example, family: 'wordpress' }, /site "example": field "family":/],
    ['a bad fetcher', { ...example, fetcher: 'curl' }, /site "example": field "fetcher":/],
    ['a pace of the wrong type', { ...example, pace: { restMs: '1h' } }, /site "example": field "pace.restMs":/],
    ['an idPattern that is not a regex', { ...example, idPattern: '([' }, /site "example": field "idPattern": not a regular expression/],
    ['an idPattern without a group', { ...example, idPattern: '^/manga/' }, /field "idPattern": needs a capturing group/],
    [
      'a bad number source',
      { key: 'x', name: 'X', hosts: ['x.org'], selectors: { chapter: 'a', number: 'html' } },
      /site "x": field "selectors.number": "text" or "attr:NAME"/,
    ],
    ['a new Site without hosts', { key: 'x', name: 'X', family: 'madara' }, /site "x": field "hosts": required for a new Site/],
    [
      'a new Site without an adapter',
      { key: 'x', name: 'X', hosts: ['x.org'] },
      /site "x": field "family": a new Site needs "family" or "selectors"/,
    ],
    ['both family and selectors', { ...example, selectors: { chapter: 'a' } }, /site "example": field "selectors": give either/],
    ['min gap above max gap', { ...example, pace: { minGapMs: 10, maxGapMs: 5 } }, /field "pace.minGapMs": 10 is above maxGapMs 5/],
    [
      'two rests past the ceiling',
      { ...example, pace: { restMs: 18 * 3_600_000, ceilingMs: 24 * 3_600_000 } },
      /field "pace.ceilingMs": 86400000 is below two rests \(restMs 64800000\)/,
    ],
    [
      'two rests past the default ceiling',
      { ...example, pace: { restMs: 13 * 3_600_000 } },
      /field "pace.ceilingMs": 86400000 is below two rests/,
    ],
    ['a bad key', { ...example, key: 'Bad Key' }, /site "Bad Key": field "key": lowercase/],
    ['no key at all', { name: 'Nameless' }, /site #1: field "key":/],
    [
      'a language code that is not one',
      { ...example, family: 'mangadex', languages: ['English'] },
      /site "example": field "languages.0": a language code/,
    ],
    ['no languages at all', { ...example, family: 'mangadex', languages: [] }, /site "example": field "languages":/],
    [
      'a language listed twice',
      { ...example, family: 'mangadex', languages: ['en', 'en'] },
      /field "languages": a language is listed twice/,
    ],
    [
      'languages on a family that reads none',
      { ...example, languages: ['en'] },
      /site "example": field "languages": only a Site of the mangadex family/,
    ],
    [
      'an idPattern with a backreference',
      { ...example, idPattern: '^/(\\w+)/\\1' },
      /site "example": field "idPattern": not a regular expression the linear-time engine accepts/,
    ],
    [
      'an idPattern with lookbehind',
      { ...example, idPattern: '(?<=/manga/)([^/]+)' },
      /field "idPattern": not a regular expression the linear-time engine/,
    ],
    [
      'an idPattern whose only group does not capture',
      { ...example, idPattern: '^/manga/(?:[^/]+)' },
      /field "idPattern": needs a capturing group/,
    ],
  ])('reports %s with file, site and field, and keeps the valid Sites', (_name, bad, message) => {
    const good = { ...example, key: 'good' }
    const report = parse({ sites: [bad, good] })
    expect(report.problems.join('\n')).toMatch(message)
    expect(report.problems.every((p) => p.startsWith('sites.json: site '))).toBe(true)
    expect(keys(report)).toContain('good')
    expect(keys(report)).toEqual(expect.arrayContaining(['mangadex', 'webtoons']))
  })

  it('languages retune the built-in MangaDex: the feed is asked for them and the read keeps them', () => {
    const report = parse({ sites: [{ key: 'mangadex', languages: ['en', 'pt-br'] }] })
    expect(report.problems).toEqual([])
    const site = report.sites.find((s) => s.key === 'mangadex')!
    const title = new URL('https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/komi')
    expect(new URL(site.adapter.request(title).url).searchParams.getAll('translatedLanguage[]')).toEqual(['en', 'pt-br'])
    const feed = JSON.stringify({
      data: ['en', 'pt-br', 'ru'].map((lang, i) => ({
        id: `c${i}`,
        attributes: { chapter: String(10 + i), translatedLanguage: lang, pages: 5 },
      })),
    })
    const step = site.adapter.read({ url: 'x', status: 200, contentType: 'application/json', body: feed }, title)
    expect(step.kind === 'parsed' && step.result.chapters.map((c) => c.number)).toEqual([10, 11])
  })

  it('a new MangaDex-family Site without languages asks for English only', () => {
    const report = parse({ sites: [{ key: 'dex-mirror', name: 'Dex', hosts: ['mangadex.org'], family: 'mangadex' }] })
    const site = report.sites.find((s) => s.key === 'dex-mirror')!
    const request = site.adapter.request(new URL('https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8'))
    expect(new URL(request.url).searchParams.getAll('translatedLanguage[]')).toEqual(['en'])
  })

  it('an owner idPattern like ^/(a+)+$ runs in linear time: a hostile URL answers at once', () => {
    const report = parse({ sites: [{ ...example, idPattern: '^/(a+)+$' }] })
    expect(report.problems).toEqual([])
    const registry = createRegistry(report.sites)
    const started = performance.now()
    // A backtracking engine takes about 2^n steps here; this one reads the URL once.
    expect(registry.resolve(`https://example.org/${'a'.repeat(5_000)}!`)).toBeNull()
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(registry.resolve('https://example.org/aaaa')?.seriesId).toBe('aaaa')
  })

  it('a duplicate key keeps the first definition', () => {
    const report = parse({ sites: [example, { ...example, name: 'Second' }] })
    expect(report.problems).toEqual(['sites.json: site "example": field "key": defined twice; the first definition stands'])
    expect(report.sites.find((s) => s.key === 'example')?.name).toBe('Example Scans')
  })

  it.each([
    ['malformed JSON', '{ "sites": [', /sites.json: not valid JSON/],
    ['the wrong shape', '[1, 2]', /sites.json: expected \{ "sites": \[ … \] \}/],
  ])('a file of %s is reported and the built-in Sites still run', (_name, text, message) => {
    const report = parseSitesFile(text, 'sites.json', BUILT_IN_SITES)
    expect(report.problems[0]).toMatch(message)
    expect(keys(report)).toEqual(['mangadex', 'webtoons'])
  })

  it('is read from the data directory; no file means the built-in Sites', () => {
    const d = tempDir()
    try {
      expect(loadSites(d.dir, BUILT_IN_SITES)).toEqual({ sites: BUILT_IN_SITES, problems: [] })
      writeFileSync(join(d.dir, 'sites.json'), JSON.stringify({ sites: [example] }))
      expect(keys(loadSites(d.dir, BUILT_IN_SITES))).toEqual(['mangadex', 'webtoons', 'example'])
    } finally {
      d.remove()
    }
  })
})

describe('sites.json as editors save it', () => {
  const good = { ...example, key: 'good', hosts: ['good.example'] }
  const text = (sites: unknown[]) => JSON.stringify({ sites }, null, 2)

  it('a UTF-8 byte order mark (Notepad) is read as the file it starts', () => {
    const d = tempDir()
    try {
      writeFileSync(join(d.dir, 'sites.json'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text([example]))]))
      const report = loadSites(d.dir, BUILT_IN_SITES)
      expect(report.problems).toEqual([])
      expect(keys(report)).toEqual(['mangadex', 'webtoons', 'example'])
    } finally {
      d.remove()
    }
  })

  it('comments are allowed, line and block', () => {
    const commented = `// the owner's Sites
{
  /* one for now */
  "sites": [
    ${JSON.stringify(example)} // added in May
  ]
}
`
    const report = parseSitesFile(commented, 'sites.json', BUILT_IN_SITES)
    expect(report.problems).toEqual([])
    expect(keys(report)).toContain('example')
  })

  it('a syntax error says its line and column, and the built-in Sites still run', () => {
    const report = parseSitesFile('{\n  "sites": [\n    { "key": "a", }\n  ]\n}\n', 'sites.json', BUILT_IN_SITES)
    expect(report.problems).toEqual([expect.stringMatching(/^sites\.json: not valid JSON at line 3, column 19: a property name expected/)])
    expect(keys(report)).toEqual(['mangadex', 'webtoons'])
  })

  it('"sites" given twice: the file is refused with both lines, and only the built-in Sites run', () => {
    const twice = `{\n  "sites": [${JSON.stringify(example)}],\n  "sites": [${JSON.stringify(good)}]\n}\n`
    const report = parseSitesFile(twice, 'sites.json', BUILT_IN_SITES)
    expect(report.problems).toEqual([
      'sites.json: line 3: "sites" is given twice (first on line 2); which list is meant is unclear, so no Site of this file is loaded — keep one',
    ])
    expect(keys(report)).toEqual(['mangadex', 'webtoons'])
  })

  it('a field given twice in a Site: that Site is refused with the line, the others run', () => {
    const entry = JSON.stringify(example).replace('"name":"Example Scans"', '"name":"Example Scans",\n      "name":"Second"')
    const report = parseSitesFile(`{\n  "sites": [\n    ${entry},\n    ${JSON.stringify(good)}\n  ]\n}\n`, 'sites.json', BUILT_IN_SITES)
    expect(report.problems).toEqual([
      'sites.json: site "example": field "name": given twice (lines 3 and 4); this Site is not loaded — keep one',
    ])
    expect(keys(report)).toEqual(['mangadex', 'webtoons', 'good'])
  })

  it('a field given twice inside pace is refused the same way', () => {
    const entry = `{ "key": "mangadex",\n "pace": { "restMs": 7200000,\n "restMs": 3600000 } }`
    const report = parseSitesFile(`{ "sites": [ ${entry} ] }`, 'sites.json', BUILT_IN_SITES)
    expect(report.problems).toEqual([
      'sites.json: site "mangadex": field "pace.restMs": given twice (lines 2 and 3); this Site is not loaded — keep one',
    ])
    expect(report.sites.find((s) => s.key === 'mangadex')?.origin).toBe('built-in')
  })

  it('two Sites claiming one host: a problem that names both and the one its URLs go to', () => {
    const report = parse({ sites: [example, { ...good, hosts: ['good.example', 'EXAMPLE.org'] }] })
    expect(report.problems).toEqual([
      'sites.json: host "example.org" is claimed by the Sites "example" and "good"; a URL on it is matched to "example" first — give the host to one Site',
    ])
    expect(keys(report)).toEqual(['mangadex', 'webtoons', 'example', 'good'])
  })

  it('a new Site on a built-in Site’s host is reported too', () => {
    const report = parse({ sites: [{ key: 'dex-mirror', name: 'Dex', hosts: ['mangadex.org'], family: 'mangadex' }] })
    expect(report.problems).toEqual([
      'sites.json: host "mangadex.org" is claimed by the Sites "mangadex" and "dex-mirror"; a URL on it is matched to "mangadex" first — give the host to one Site',
    ])
  })
})

describe('canonical Series URLs', () => {
  const registry = createRegistry(parse({ sites: [example] }).sites)
  it.each([
    ['a chapter URL of a Madara Series', 'https://example.org/manga/abc/chapter-3/?style=list#top', 'https://example.org/manga/abc/'],
    ['the Series URL itself', 'https://example.org/manga/abc/', 'https://example.org/manga/abc/'],
    ['without the trailing slash', 'https://example.org/manga/abc', 'https://example.org/manga/abc'],
    [
      'a MangaDex title with its slug',
      'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/komi?tab=art',
      'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/',
    ],
    [
      'a Webtoons list (the id in the query)',
      'https://www.webtoons.com/en/fantasy/paper-moons/list?title_no=4021#x',
      'https://www.webtoons.com/en/fantasy/paper-moons/list?title_no=4021',
    ],
  ])('%s', (_name, url, expected) => {
    expect(registry.resolve(url)?.seriesUrl).toBe(expected)
  })
})

describe('site registry', () => {
  const registry = createRegistry(parse({ sites: [example] }).sites)
  it.each([
    ['a Series on a pinned host', 'https://example.org/manga/abc/', { site: 'example', seriesId: 'abc' }],
    ['http on a pinned host', 'http://example.org/manga/abc', { site: 'example', seriesId: 'abc' }],
    [
      'a MangaDex title',
      'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8',
      { site: 'mangadex', seriesId: 'a96676e5-8ae2-425e-b549-7f15dd34a6d8' },
    ],
    ['a host off every pin', 'https://evil.example/manga/abc/', null],
    ['a look-alike host', 'https://example.org.evil.example/manga/abc/', null],
    ['a file: URL', 'file:///etc/passwd', null],
    ['credentials in the URL', 'https://user:pw@example.org/manga/abc/', null],
    ['a link-local address', 'http://169.254.169.254/manga/abc/', null],
    ['not a Series path', 'https://example.org/about', null],
    ['not a URL', 'example.org/manga/abc', null],
  ])('resolves %s', (_name, url, expected) => {
    const match = registry.resolve(url)
    expect(match && { site: match.site.key, seriesId: match.seriesId }).toEqual(expected)
  })
})

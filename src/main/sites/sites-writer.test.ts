import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/store'
import { BUILT_IN_SITES } from './builtin'
import { createRegistry } from './registry'
import { loadSites, type SiteEntry } from './sites-file'
import { addSiteEntry, moveSitePin, withEntry } from './sites-writer'

let d: { dir: string; remove(): void }
let file: string
beforeEach(() => {
  d = tempDir()
  file = join(d.dir, 'sites.json')
})
afterEach(() => d.remove())

const harbor: SiteEntry = {
  key: 'harbor',
  name: 'Harbor Scans',
  hosts: ['harbor.example'],
  fetcher: 'http',
  family: 'madara',
  idPattern: '^/x/manga/([^/?#]+)',
}

const ownersFile = `{
    "sites": [
        {
            "key": "example",   "name": "Example Scans",
            "hosts": ["example.org"],
            "family": "madara"
        },
        { "key": "tiny", "name": "Tiny", "hosts": ["tiny.example"], "selectors": { "chapter": "a.ch" } }
    ]
}
`

describe('adding a Site to sites.json', () => {
  it("appends the entry, keeping the owner's entries and formatting byte for byte", async () => {
    writeFileSync(file, ownersFile)
    const result = await addSiteEntry(d.dir, harbor, BUILT_IN_SITES)
    expect(result).toMatchObject({ ok: true, file, site: { key: 'harbor', hosts: ['harbor.example'], origin: 'sites.json' } })
    const after = readFileSync(file, 'utf8')
    const cut = ownersFile.indexOf(' }\n    ]') + 2
    expect(after.startsWith(ownersFile.slice(0, cut))).toBe(true)
    expect(after.endsWith(ownersFile.slice(cut))).toBe(true)
    expect(after.slice(cut)).toMatch(/^,\n {8}\{\n {12}"key": "harbor",\n {12}"name": "Harbor Scans",/)
    const report = loadSites(d.dir, BUILT_IN_SITES)
    expect(report.problems).toEqual([])
    expect(report.sites.map((s) => s.key)).toEqual(['mangadex', 'webtoons', 'example', 'tiny', 'harbor'])
  })

  it('the Site it returns is the one loading makes: the registry accepts it and reads its Series ids', async () => {
    const result = await addSiteEntry(d.dir, harbor, BUILT_IN_SITES)
    if (!result.ok) throw new Error(result.reason)
    const registry = createRegistry([...BUILT_IN_SITES, result.site])
    expect(registry.resolve('https://harbor.example/x/manga/glass-harbor/chapter-2/')).toMatchObject({
      seriesId: 'glass-harbor',
      seriesUrl: 'https://harbor.example/x/manga/glass-harbor/',
    })
  })

  it('creates the file when there is none', async () => {
    expect((await addSiteEntry(d.dir, harbor, BUILT_IN_SITES)).ok).toBe(true)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ sites: [harbor] })
    expect(loadSites(d.dir, BUILT_IN_SITES).problems).toEqual([])
  })

  it.each([
    [
      'CRLF line endings and tabs',
      '{\r\n\t"sites": [\r\n\t\t{ "key": "a", "name": "A", "hosts": ["a.example"], "family": "madara" }\r\n\t]\r\n}\r\n',
    ],
    ['an empty array on its own line', '{\n  "sites": []\n}\n'],
    ['everything on one line', '{"sites":[{"key":"a","name":"A","hosts":["a.example"],"family":"madara"}]}'],
    ['an empty array on one line', '{"sites":[]}'],
    ['a key named sites inside an entry', '{ "sites": [ { "key": "a", "name": "sites", "hosts": ["a.example"], "family": "madara" } ] }\n'],
  ])('keeps the file readable and its style: %s', async (_name, text) => {
    writeFileSync(file, text)
    expect(await addSiteEntry(d.dir, harbor, BUILT_IN_SITES)).toMatchObject({ ok: true })
    const after = readFileSync(file, 'utf8')
    expect(JSON.parse(after).sites.at(-1)).toEqual(harbor)
    expect(JSON.parse(after).sites.slice(0, -1)).toEqual(JSON.parse(text).sites)
    if (text.includes('\r\n')) expect(after.replace(/\r\n/g, '')).not.toContain('\n')
    if (!text.includes('\n')) expect(after).not.toContain('\n')
    if (text.includes('\t')) expect(after).toContain('\t\t{\r\n\t\t\t"key": "harbor"')
  })

  it.each([
    [
      'a file that is not JSON',
      '{ "sites": [ { "key": "a", } ] }',
      /sites\.json: the file is not valid JSON \(line 1, column 28: a property name expected\); fix it by hand first; nothing was written/,
    ],
    ['a file of the wrong shape', '[1, 2, 3]', /sites\.json: the file is not \{ "sites": \[ … \] \}/],
  ])('never overwrites %s', async (_name, text, reason) => {
    writeFileSync(file, text)
    const result = await addSiteEntry(d.dir, harbor, BUILT_IN_SITES)
    expect(result.ok === false && result.reason).toMatch(reason)
    expect(readFileSync(file, 'utf8')).toBe(text)
  })

  it.each([
    ['a key in the file', { ...harbor, key: 'example' }, /a Site with the key "example" exists already; nothing was written/],
    ['a built-in key', { ...harbor, key: 'mangadex' }, /a Site with the key "mangadex" exists already/],
    ['a host another Site pins', { ...harbor, hosts: ['mangadex.org'] }, /the host mangadex\.org is pinned by the Site "mangadex" already/],
    [
      'an entry the loader would refuse',
      { ...harbor, idPattern: '^/(\\w+)/\\1' },
      /site "harbor": field "idPattern": not a regular expression/,
    ],
    ['an entry without an adapter', { key: 'bare', name: 'Bare', hosts: ['bare.example'] }, /field "family": a new Site needs/],
  ])('refuses %s and writes nothing', async (_name, entry, reason) => {
    writeFileSync(file, ownersFile)
    const result = await addSiteEntry(d.dir, entry as SiteEntry, BUILT_IN_SITES)
    expect(result.ok === false && result.reason).toMatch(reason)
    expect(readFileSync(file, 'utf8')).toBe(ownersFile)
  })

  it('two adds in a row both land, and no temporary file is left behind', async () => {
    writeFileSync(file, ownersFile)
    const [a, b] = await Promise.all([
      addSiteEntry(d.dir, harbor, BUILT_IN_SITES),
      addSiteEntry(d.dir, { ...harbor, key: 'lantern', hosts: ['lantern.example'] }, BUILT_IN_SITES),
    ])
    expect([a.ok, b.ok]).toEqual([true, true])
    expect(JSON.parse(readFileSync(file, 'utf8')).sites.map((s: { key: string }) => s.key)).toEqual([
      'example',
      'tiny',
      'harbor',
      'lantern',
    ])
    expect(readdirSync(d.dir)).toEqual(['sites.json'])
  })

  it("keeps the owner's comments (a note after the last entry stays with it) and byte order mark; the file reads back", async () => {
    const commented = `\uFEFF// my Sites\n{\n  "sites": [\n    /* the first */\n    { "key": "a", "name": "A", "hosts": ["a.example"], "family": "madara" } /* a */ // old\n  ]\n}\n`
    writeFileSync(file, commented)
    expect(await addSiteEntry(d.dir, harbor, BUILT_IN_SITES)).toMatchObject({ ok: true })
    const after = readFileSync(file, 'utf8')
    const cut = commented.indexOf(' } /* a */') + 2
    expect(after.slice(0, cut)).toBe(commented.slice(0, cut))
    expect(after.slice(cut)).toMatch(/^, \/\* a \*\/ \/\/ old\n {4}\{\n {6}"key": "harbor",\n/)
    expect(after.endsWith('"\n    }\n  ]\n}\n')).toBe(true)
    const report = loadSites(d.dir, BUILT_IN_SITES)
    expect(report.problems).toEqual([])
    expect(report.sites.map((s) => s.key)).toEqual(['mangadex', 'webtoons', 'a', 'harbor'])
  })

  it('an empty array in a file of lines gets the entry on lines of its own', async () => {
    writeFileSync(file, '{\n  "sites": []\n}\n')
    expect(await addSiteEntry(d.dir, { key: 'harbor', name: 'H', hosts: ['h.example'], family: 'madara' }, BUILT_IN_SITES)).toMatchObject({
      ok: true,
    })
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n  "sites": [\n    {\n      "key": "harbor",\n      "name": "H",\n      "hosts": [\n        "h.example"\n      ],\n      "family": "madara"\n    }\n  ]\n}\n',
    )
  })

  it('never writes to a file giving "sites" twice', async () => {
    const twice = '{ "sites": [], "sites": [] }'
    writeFileSync(file, twice)
    const result = await addSiteEntry(d.dir, harbor, BUILT_IN_SITES)
    expect(result.ok === false && result.reason).toMatch(
      /sites\.json: the file gives "sites" twice; keep one by hand first; nothing was written/,
    )
    expect(readFileSync(file, 'utf8')).toBe(twice)
  })

  it('withEntry finds no array in a file without one', () => {
    expect(withEntry('{ "other": [] }', harbor)).toBeNull()
  })
})

describe("moving a Site's pin (docs/adr/0112-a-permanent-redirect-is-a-proposal.md)", () => {
  const webtoons = () => BUILT_IN_SITES.find((site) => site.key === 'webtoons')!

  it('a built-in Site with no entry gets one that overrides its hosts only, the new host first', async () => {
    const moved = await moveSitePin(d.dir, webtoons(), 'WWW.Webtoons.example', BUILT_IN_SITES)
    expect(moved).toMatchObject({ ok: true, hosts: ['www.webtoons.example', 'www.webtoons.com', 'm.webtoons.com', 'webtoons.com'] })
    const loaded = loadSites(d.dir, BUILT_IN_SITES)
    expect(loaded.problems).toEqual([])
    const site = loaded.sites.find((s) => s.key === 'webtoons')!
    expect(site.hosts).toEqual(['www.webtoons.example', 'www.webtoons.com', 'm.webtoons.com', 'webtoons.com'])
    expect(site.seriesIdOf(new URL('https://www.webtoons.example/en/fantasy/tower/list?title_no=95'))).toBe('95')
  })

  it('an entry keeps every other field and the file its comments; a host already first is not listed twice', async () => {
    writeFileSync(
      join(d.dir, 'sites.json'),
      '{\n  // mine\n  "sites": [\n    { "key": "tides", "name": "Tides", "hosts": ["old.example", "www.old.example"], "family": "madara" }\n  ]\n}\n',
    )
    const [tides] = loadSites(d.dir, []).sites
    const moved = await moveSitePin(d.dir, tides!, 'www.old.example', [tides!])
    expect(moved).toMatchObject({ ok: true, hosts: ['www.old.example', 'old.example'] })
    const text = readFileSync(join(d.dir, 'sites.json'), 'utf8')
    expect(text).toContain('// mine')
    expect(loadSites(d.dir, []).sites[0]).toMatchObject({
      key: 'tides',
      name: 'Tides',
      family: 'madara',
      hosts: ['www.old.example', 'old.example'],
    })
  })

  it('a host another Site pins is refused, and nothing is written', async () => {
    const moved = await moveSitePin(d.dir, webtoons(), 'mangadex.org', BUILT_IN_SITES)
    expect(moved).toEqual({
      ok: false,
      reason: 'sites.json: the host mangadex.org is pinned by the Site "mangadex" already; nothing was written',
    })
    expect(readdirSync(d.dir)).toEqual([])
  })
})

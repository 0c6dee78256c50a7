/** sites.json's `search`: a title search for a selector Site, a URL template on the Site's pin (docs/adr/0146-…). */
import { describe, expect, it } from 'vitest'
import { BUILT_IN_SITES } from './builtin'
import { parseSitesFile } from './sites-file'

const parse = (json: unknown) => parseSitesFile(JSON.stringify(json), 'sites.json', BUILT_IN_SITES)
const tiny = { key: 'tiny', name: 'Tiny', hosts: ['tiny.example'], selectors: { chapter: 'a.ch' }, idPattern: '^/s/([^/]+)' }

describe("sites.json's search template", () => {
  it('gives a selector Site a search that asks the template with the query in it', () => {
    const report = parse({ sites: [{ ...tiny, search: 'https://tiny.example/find?q={query}' }] })
    expect(report.problems).toEqual([])
    const site = report.sites.find((s) => s.key === 'tiny')!
    expect(site.adapter.search?.request({ query: 'Solo Lantern', base: new URL('https://tiny.example/') })).toEqual({
      url: 'https://tiny.example/find?q=Solo%20Lantern',
      method: 'GET',
    })
  })

  it('a selector Site without one cannot search', () => {
    const report = parse({ sites: [tiny] })
    expect(report.sites.find((s) => s.key === 'tiny')!.adapter.search).toBeUndefined()
  })

  it.each([
    ['https://elsewhere.example/find?q={query}', /field "search": its host elsewhere.example is not on the Site's pin \(tiny.example\)/],
    ['https://tiny.example/find?q=fixed', /field "search".*\{query\}/],
    ['ftp://tiny.example/{query}', /field "search".*http\(s\) URL/],
  ])('refuses %s in words, and the Site is not made', (search, problem) => {
    const report = parse({ sites: [{ ...tiny, search }] })
    expect(report.problems.join('\n')).toMatch(problem)
    expect(report.sites.find((s) => s.key === 'tiny')).toBeUndefined()
  })
})

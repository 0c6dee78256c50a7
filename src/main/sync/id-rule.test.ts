/**
 * One id rule at every entry (src/shared/ids.ts): a Series id read from a URL that decodes to a control
 * character or a bidi override is not a Series, wherever the URL comes in — a bookmark, a Sighting, an
 * import. A row made before the rule stays removable. Real server on loopback, real SQLite file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { planImport } from '../library/plan'
import { BUILT_IN_SITES } from '../sites/builtin'
import { testSite } from '../testing/fakes'
import { createRegistry } from '../sites/registry'
import { seedSeries } from '../testing/store'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer
beforeEach(async () => {
  s = await startTestSyncServer()
})
afterEach(() => s.close())

const madara = (slug: string) => `${s.fixture.origin}/madara/manga/${slug}/`
const HOSTILE_SLUGS = ['a%00b', 'a%0Ab', 'a%1Bb', 'a%7Fb', 'a%C2%85b', 'evil%E2%80%AEcod.exe', 'x%E2%81%A6y']

describe('a Series URL whose id holds a control character or a bidi override', () => {
  it.each(HOSTILE_SLUGS)('bookmarking …/manga/%s/ is refused as not a Series URL and stores nothing', async (slug) => {
    const r = await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: madara(slug) })
    expect(r.status).toBe(422)
    expect(r.json.error.code).toBe('off-pin')
    expect(await s.store.db.selectFrom('series').selectAll().execute()).toEqual([])
    expect(await s.store.db.selectFrom('bookmarks').selectAll().execute()).toEqual([])
    expect(s.fixture.hits).toEqual([])
  })

  it('a Sighting by such a URL is refused as not a Series URL', async () => {
    const r = await s.call(s.alice.token, 'POST', '/api/v1/sightings', { url: madara('a%00b'), chapter: 3 })
    expect(r.status).toBe(422)
    expect(r.json.error.code).toBe('off-pin')
  })

  it('the same Series with a clean id is bookmarked as before', async () => {
    const r = await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: madara('ab') })
    expect([201, 202]).toContain(r.status)
    expect(r.json.bookmark.seriesId).toBe('ab')
  })

  it('an import skips such a URL, and an export document naming such an id, as not a Series', () => {
    const registry = createRegistry([...BUILT_IN_SITES, testSite('a')])
    const plan = planImport(
      {
        format: 'list',
        entries: [
          { ref: 'line 1', target: { kind: 'url', url: 'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8' }, title: '' },
          { ref: 'line 2', target: { kind: 'url', url: 'https://a.example/manga/a%00b/' }, title: '' },
          { ref: 'series 3', target: { kind: 'series', site: 'mangadex', seriesId: 'a\u202eb', url: '' }, title: '' },
        ],
        sourceNames: new Map(),
        unreadable: [],
      },
      { registry, mappings: new Map(), reader: { id: 1, name: 'Aiko' } },
    )
    expect(plan.series.map((x) => x.seriesId)).toEqual(['a96676e5-8ae2-425e-b549-7f15dd34a6d8'])
    expect(plan.skipped.map((x) => [x.ref, x.reason])).toEqual([
      ['line 2', 'not-series'],
      ['series 3', 'not-series'],
    ])
  })
})

describe('a bookmark made before the rule', () => {
  it.each(['a\u0000b', 'evil\u202ecod'])('with id %j can still be removed by its Reader', async (id) => {
    await seedSeries(s.store.db, { site: 'fixture-madara', id, url: madara(encodeURIComponent(id)), readers: [s.alice.id] })
    const path = `/api/v1/bookmarks/fixture-madara/${encodeURIComponent(id)}`
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')).json.bookmarks.map((b: any) => b.seriesId)).toEqual([id])

    // Another Reader cannot reach it; its own Reader removes it.
    expect((await s.call(s.bob.token, 'DELETE', path)).status).toBe(404)
    expect((await s.call(s.alice.token, 'DELETE', path)).status).toBe(204)
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')).json.bookmarks).toEqual([])
  })

  it('cannot be given new Progress: only removal names an id the rule refuses', async () => {
    await seedSeries(s.store.db, { site: 'fixture-madara', id: 'a\u0000b', readers: [s.alice.id] })
    const r = await s.call(s.alice.token, 'PATCH', '/api/v1/bookmarks/fixture-madara/a%00b', { progress: 2 })
    expect(r.status).toBe(422)
  })
})

/**
 * The sync API's title search (docs/adr/0145-…): the Sites and whether each can search, a search answered with the
 * Site's Series, its input validated, its per-Reader bound a 429 in words. Real server on loopback, real SQLite,
 * the fixture site's Madara search.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SEARCHES_PER_READER_PER_MINUTE } from '../../shared/search'
import { pauseLane } from '../store/lanes'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer
beforeEach(async () => {
  s = await startTestSyncServer()
})
afterEach(() => s.close())

/** A search: the fake clock moved past the Site's gap first, so the request goes out at once. */
async function search(token: string | null, site: string, q: string) {
  await s.clock.advance(10_000)
  return s.call(token, 'GET', `/api/v1/sites/${site}/search?q=${encodeURIComponent(q)}`)
}

describe('GET /api/v1/sites and /api/v1/sites/{site}/search', () => {
  it('lists the Sites, saying which can be searched by title', async () => {
    const r = await s.call(s.alice.token, 'GET', '/api/v1/sites')
    expect(r.status).toBe(200)
    expect(r.json.sites).toContainEqual({ key: 'fixture-madara', name: 'Fixture Scans (Madara)', search: true })
    expect(r.json.sites).toContainEqual(
      expect.objectContaining({ key: 'fixture-mangadex', search: false, why: expect.stringContaining('cannot be searched') }),
    )
  })

  it("answers the Site's Series with title, URL, cover and latest chapter; a result is followed by URL", async () => {
    const r = await search(s.alice.token, 'fixture-madara', 'Moonlit')
    expect(r.status).toBe(200)
    expect(r.json).toEqual({
      site: 'fixture-madara',
      query: 'Moonlit',
      results: [
        {
          title: 'Moonlit Garden',
          url: `${s.fixture.origin}/madara/manga/moonlit-garden/`,
          seriesId: 'moonlit-garden',
          coverUrl: `${s.fixture.origin}/covers/moonlit-garden.png`,
          latest: expect.stringMatching(/^Chapter \d+$/),
          following: false,
        },
      ],
    })
    expect((await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: r.json.results[0].url })).status).toBe(202)
    expect((await search(s.alice.token, 'fixture-madara', 'Moonlit')).json.results[0].following).toBe(true)
    expect((await search(s.bob.token, 'fixture-madara', 'Moonlit')).json.results[0].following).toBe(false)
  })

  it('refuses a bad query or an unknown Site in words, with no request; a token is needed', async () => {
    expect((await search(null, 'fixture-madara', 'Moonlit')).status).toBe(401)
    const short = await search(s.alice.token, 'fixture-madara', ' a ')
    expect(short.status).toBe(422)
    expect(short.json.error.message).toMatch(/at least 2 characters/)
    expect((await search(s.alice.token, 'fixture-madara', 'a\u202Eb')).status).toBe(422)
    expect((await search(s.alice.token, 'no-such-site', 'Moonlit')).status).toBe(404)
    const cannot = await search(s.alice.token, 'fixture-mangadex', 'Moonlit')
    expect(cannot.status).toBe(422)
    expect(cannot.json.error.message).toMatch(/Fixture Dex cannot be searched by title here/)
    expect(s.fixture.hits).toEqual([])
  })

  it(`answers 429 in words past ${SEARCHES_PER_READER_PER_MINUTE} searches a minute of one Reader`, async () => {
    for (let i = 0; i < SEARCHES_PER_READER_PER_MINUTE; i++) {
      // A Site's gap (5 s) apart: each goes out at once, all six inside one minute.
      await s.clock.advance(5_000)
      expect((await s.call(s.alice.token, 'GET', `/api/v1/sites/fixture-madara/search?q=q${i}`)).status).toBe(200)
    }
    const r = await s.call(s.alice.token, 'GET', '/api/v1/sites/fixture-madara/search?q=more')
    expect(r.status).toBe(429)
    expect(r.json.error).toMatchObject({ code: 'rate-limited', message: expect.stringMatching(/search again in \d+ s/) })
    expect((await search(s.bob.token, 'fixture-madara', 'Moonlit')).status).toBe(200)
  })

  it('says so with 409 while the Site is paused', async () => {
    await pauseLane(s.store.db, 'fixture-madara', s.clock.now() + 600_000, s.clock.now())
    const r = await search(s.alice.token, 'fixture-madara', 'Moonlit')
    expect(r.status).toBe(409)
    expect(r.json.error.message).toMatch(/is paused/)
    expect(s.fixture.hits).toEqual([])
  })
})

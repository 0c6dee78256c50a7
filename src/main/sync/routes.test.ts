/** Every route of the sync endpoint against the real server on a loopback port and a real SQLite file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer
beforeEach(async () => {
  s = await startTestSyncServer()
})
afterEach(() => s.close())

const madara = (slug: string) => `${s.fixture.origin}/madara/manga/${slug}/`

async function add(token: string, slug: string, status?: string) {
  return s.call(token, 'POST', '/api/v1/bookmarks', { url: madara(slug), ...(status ? { status } : {}) })
}

describe('health and me', () => {
  it('health needs no token', async () => {
    expect(await s.call(null, 'GET', '/api/v1/health')).toMatchObject({ status: 200, json: { ok: true } })
  })
  it('me is the Reader of the token', async () => {
    expect(await s.call(s.alice.token, 'GET', '/api/v1/me')).toMatchObject({ status: 200, json: { id: s.alice.id, name: 'alice' } })
  })
  it.each([
    ['no token', null],
    ['an unknown token', 'x'.repeat(43)],
  ])('%s is 401 with the error shape and a Bearer challenge', async (_name, token) => {
    const r = await s.call(token, 'GET', '/api/v1/me')
    expect(r.status).toBe(401)
    expect(r.json).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } })
    expect(r.headers.get('www-authenticate')).toBe('Bearer')
  })
  it('a malformed Authorization header is 401', async () => {
    expect((await s.call(null, 'GET', '/api/v1/me', undefined, { authorization: 'Basic abc' })).status).toBe(401)
  })
})

describe('POST /bookmarks', () => {
  it('a new Series is answered at once with 202, then read in the background: the Reader sees it fill in', async () => {
    const r = await add(s.alice.token, 'tower-climber')
    expect(r.status).toBe(202)
    expect(r.json).toMatchObject({
      bookmark: {
        site: 'fixture-madara',
        seriesId: 'tower-climber',
        status: 'reading',
        progress: null,
        series: { url: madara('tower-climber') },
      },
      acquisition: { state: 'reading' },
    })
    let bookmark: any
    for (let i = 0; i < 100 && !bookmark?.series.title; i++) {
      await new Promise((done) => setTimeout(done, 20))
      bookmark = (await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')).json.bookmarks[0]
    }
    // Caught up by default: the first Latest Chapter is the Reader's Progress, the next chapter none yet.
    const latest = s.fixture.series('/madara/manga/tower-climber/').latest
    expect(bookmark).toMatchObject({
      unread: false,
      unreadCount: 0,
      progress: latest,
      progressAt: 0,
      nextChapter: null,
      series: { title: 'Tower Climber', latestChapter: latest },
    })
  })
  it('a known Series is answered 201 with the bookmark, and no request', async () => {
    await add(s.alice.token, 'known')
    await new Promise((done) => setTimeout(done, 100))
    const hits = s.fixture.hits.length
    const r = await add(s.bob.token, 'known')
    expect(r.status).toBe(201)
    expect(r.json.acquisition).toBeUndefined()
    expect(s.fixture.hits.length).toBe(hits)
  })
  it('bookmarking again answers 200 and changes nothing', async () => {
    await add(s.alice.token, 'twice', 'planned')
    const again = await add(s.alice.token, 'twice', 'dropped')
    expect(again).toMatchObject({ status: 200, json: { bookmark: { status: 'planned' } } })
  })
  it.each([
    ['a host off every pin', 'https://evil.example/manga/x/', 422, 'off-pin'],
    ['a file: URL', 'file:///etc/passwd', 422, 'invalid-request'],
    ['a link-local address', 'http://169.254.169.254/latest/', 422, 'off-pin'],
    ['a javascript: URL', 'javascript:alert(1)', 422, 'invalid-request'],
  ])('refuses %s', async (_name, url, status, code) => {
    const r = await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url })
    expect(r).toMatchObject({ status, json: { error: { code } } })
    expect(await s.store.db.selectFrom('series').selectAll().execute()).toEqual([])
  })
  it('refuses an unknown status and unknown fields', async () => {
    expect((await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: madara('x'), status: 'hoarding' })).status).toBe(422)
    expect((await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: madara('x'), admin: true })).json.error.message).toMatch(
      /Unrecognized key/,
    )
  })
})

describe('GET /bookmarks', () => {
  it("lists only the Reader's own bookmarks", async () => {
    await add(s.alice.token, 'mine')
    await add(s.bob.token, 'his')
    const alice = await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')
    expect(alice.json.bookmarks.map((b: { seriesId: string }) => b.seriesId)).toEqual(['mine'])
    expect(alice.json.now).toBe(s.clock.now())
  })
  it('since returns only what changed at or after it', async () => {
    await add(s.alice.token, 'old')
    await s.clock.advance(10_000)
    const since = s.clock.now()
    await add(s.alice.token, 'new')
    const r = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${since}`)
    expect(r.json.bookmarks.map((b: { seriesId: string }) => b.seriesId)).toEqual(['new'])
    await s.clock.advance(10_000)
    await s.call(s.alice.token, 'PATCH', '/api/v1/bookmarks/fixture-madara/old', { status: 'waiting' })
    const later = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${s.clock.now()}`)
    expect(later.json.bookmarks.map((b: { seriesId: string }) => b.seriesId)).toEqual(['old'])
  })
  it("since sees a check correcting a Sighting's raise down, not only New Chapters", async () => {
    await add(s.alice.token, 'corrected')
    const latest = s.fixture.series('/madara/manga/corrected/').latest
    await s.call(s.alice.token, 'POST', '/api/v1/sightings', { site: 'fixture-madara', seriesId: 'corrected', chapter: latest + 10 })
    await s.clock.advance(10_000)
    const since = s.clock.now()
    const { recordCheckResult } = await import('../store/series')
    await recordCheckResult(s.store.db, {
      site: 'fixture-madara',
      seriesId: 'corrected',
      found: { chapter: latest, label: `Chapter ${latest}`, url: '' },
      now: since,
    })
    const r = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${since}`)
    expect(
      r.json.bookmarks.map((b: { seriesId: string; series: { latestChapter: number } }) => [b.seriesId, b.series.latestChapter]),
    ).toEqual([['corrected', latest]])
  })
  it('a removal reaches a Reader syncing with since as deleted; added again, the bookmark is back and not deleted', async () => {
    await add(s.alice.token, 'kept')
    await add(s.alice.token, 'dropped-one')
    await add(s.bob.token, 'dropped-one')
    await s.clock.advance(10_000)
    const since = s.clock.now()
    const none = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${since}`)
    expect(none.json).toEqual({ bookmarks: [], now: since, deleted: [] })
    await s.clock.advance(1_000)
    await s.call(s.alice.token, 'DELETE', '/api/v1/bookmarks/fixture-madara/dropped-one')
    const after = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${since}`)
    expect(after.json.bookmarks).toEqual([])
    expect(after.json.deleted).toEqual([{ site: 'fixture-madara', seriesId: 'dropped-one', at: since + 1_000 }])
    // Only the Reader who removed it is told.
    expect((await s.call(s.bob.token, 'GET', `/api/v1/bookmarks?since=${since}`)).json.deleted).toEqual([])
    // Nothing since the last answer: the removal is not said twice.
    expect((await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${after.json.now + 1}`)).json.deleted).toEqual([])
    await s.clock.advance(1_000)
    await add(s.alice.token, 'dropped-one')
    const back = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${since}`)
    expect(back.json.deleted).toEqual([])
    expect(back.json.bookmarks.map((b: { seriesId: string }) => b.seriesId)).toEqual(['dropped-one'])
    // Without since, no deleted list: the answer is the whole list.
    const full = await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')
    expect(full.json.deleted).toBeUndefined()
    expect(full.json.bookmarks.map((b: { seriesId: string }) => b.seriesId).sort()).toEqual(['dropped-one', 'kept'])
  })
  it('a since older than the app remembers removals answers every bookmark, marked full', async () => {
    await add(s.alice.token, 'one')
    await add(s.alice.token, 'two')
    await s.clock.advance(91 * 86_400_000)
    const r = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${s.clock.now() - 91 * 86_400_000}`)
    expect(r.json.full).toBe(true)
    expect(r.json.bookmarks.map((b: { seriesId: string }) => b.seriesId).sort()).toEqual(['one', 'two'])
  })
  it.each(['yesterday', '-1', '1e5', '99999999999999999999'])('refuses since=%s', async (since) => {
    expect((await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${since}`)).status).toBe(422)
  })
  it('refuses unknown query parameters', async () => {
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks?reader=2')).status).toBe(422)
  })
})

describe('PATCH /bookmarks/{site}/{seriesId}', () => {
  beforeEach(async () => {
    await add(s.alice.token, 'x')
    await s.acquired(s.alice.token)
  })
  const patch = (body: unknown, token = s.alice.token) => s.call(token, 'PATCH', '/api/v1/bookmarks/fixture-madara/x', body)

  it('keeps the Progress with the latest progressAt, whatever order the writes arrive in', async () => {
    await patch({ progress: 5, progressAt: 2_000 })
    await patch({ progress: 3, progressAt: 1_000 })
    expect((await patch({ progress: 4, progressAt: 1_500 })).json.bookmark).toMatchObject({ progress: 5, progressAt: 2_000 })
    expect((await patch({ progress: 6, progressAt: 3_000 })).json.bookmark).toMatchObject({ progress: 6, progressAt: 3_000 })
  })
  it('a replay changes nothing, not even updatedAt', async () => {
    const first = await patch({ progress: 5, progressAt: 2_000 })
    await s.clock.advance(1_000)
    const replay = await patch({ progress: 5, progressAt: 2_000 })
    expect(replay.json.bookmark).toEqual(first.json.bookmark)
  })
  it('progress without progressAt takes, stamped no later than now; status changes on its own', async () => {
    const written = (await patch({ progress: 7 })).json.bookmark
    expect(written.progress).toBe(7)
    expect(written.progressAt).toBeLessThanOrEqual(s.clock.now())
    expect((await patch({ status: 'dropped' })).json.bookmark).toMatchObject({ status: 'dropped', progress: 7 })
  })
  it('unread clears when Progress reaches the Latest Chapter', async () => {
    const latest = s.fixture.series('/madara/manga/x/').latest
    expect((await patch({ progress: latest })).json.bookmark).toMatchObject({ unread: false, unreadCount: 0 })
  })
  it.each([
    ['an empty change', {}],
    ['a negative progress', { progress: -1 }],
    ['a progress that is a string', { progress: '5' }],
    ['an infinite-looking progress', { progress: 1e308 }],
    ['progressAt without progress', { status: 'reading', progressAt: 5 }],
    ['progressAt past the last representable time', { progress: 1, progressAt: 8_640_000_000_001 }],
    ['an unknown field', { progress: 1, readerId: 2 }],
    ['a bad status', { status: 'READING' }],
  ])('refuses %s with 422, changing nothing', async (_name, body) => {
    const before = await s.store.db.selectFrom('bookmarks').selectAll().execute()
    const r = await patch(body)
    expect(r.status).toBe(422)
    expect(r.json.error.code).toBe('invalid-request')
    expect(await s.store.db.selectFrom('bookmarks').selectAll().execute()).toEqual(before)
  })
  it("another Reader's bookmark is 404, not 403", async () => {
    const r = await patch({ progress: 1 }, s.bob.token)
    expect(r).toMatchObject({ status: 404, json: { error: { code: 'not-found' } } })
  })
  it.each([
    ['a bad Site key', '/api/v1/bookmarks/Fixture_Madara/x', 422],
    ['an unknown Series', '/api/v1/bookmarks/fixture-madara/nope', 404],
    ['a control character', '/api/v1/bookmarks/fixture-madara/x%00', 422],
    ['a missing segment', '/api/v1/bookmarks/fixture-madara', 404],
  ])('%s', async (_name, path, status) => {
    expect((await s.call(s.alice.token, 'PATCH', path, { progress: 1 })).status).toBe(status)
  })
})

describe('DELETE /bookmarks/{site}/{seriesId}', () => {
  it("removes the Reader's own bookmark; the Series stays", async () => {
    await add(s.alice.token, 'gone')
    expect((await s.call(s.alice.token, 'DELETE', '/api/v1/bookmarks/fixture-madara/gone')).status).toBe(204)
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')).json.bookmarks).toEqual([])
    expect(await s.store.db.selectFrom('series').select('series_id').execute()).toEqual([{ series_id: 'gone' }])
  })
  it("another Reader's is 404 and stays", async () => {
    await add(s.alice.token, 'kept')
    expect((await s.call(s.bob.token, 'DELETE', '/api/v1/bookmarks/fixture-madara/kept')).status).toBe(404)
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')).json.bookmarks).toHaveLength(1)
  })
})

describe('POST /sightings', () => {
  beforeEach(async () => {
    await add(s.alice.token, 'seen')
  })
  it('by URL: 202, and a higher chapter raises the Latest Chapter provisionally', async () => {
    const latest = s.fixture.series('/madara/manga/seen/').latest
    const r = await s.call(s.alice.token, 'POST', '/api/v1/sightings', { url: madara('seen'), chapter: latest + 3 })
    expect(r).toMatchObject({
      status: 202,
      json: { raised: true, sighting: { site: 'fixture-madara', seriesId: 'seen', chapter: latest + 3 } },
    })
    const list = await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')
    expect(list.json.bookmarks[0].series).toMatchObject({ latestChapter: latest + 3, latestSource: 'sighting' })
  })
  it('by site and seriesId, with a time in the past', async () => {
    const r = await s.call(s.alice.token, 'POST', '/api/v1/sightings', {
      site: 'fixture-madara',
      seriesId: 'seen',
      chapter: 1,
      at: s.clock.now() - 60_000,
    })
    expect(r).toMatchObject({ status: 202, json: { raised: false, sighting: { sightedAt: s.clock.now() - 60_000 } } })
  })
  it.each([
    ['both url and site', { url: 'http://x/', site: 'fixture-madara', seriesId: 'seen', chapter: 1 }, 422],
    ['site without seriesId', { site: 'fixture-madara', chapter: 1 }, 422],
    ['no chapter', { site: 'fixture-madara', seriesId: 'seen' }, 422],
    ['a NaN-ish chapter', { site: 'fixture-madara', seriesId: 'seen', chapter: 'NaN' }, 422],
    ['a URL off the pin', { url: 'https://evil.example/manga/seen/', chapter: 1 }, 422],
    ['a Series the Reader does not hold', { site: 'fixture-madara', seriesId: 'other', chapter: 1 }, 404],
  ])('refuses %s', async (_name, body, status) => {
    expect((await s.call(s.alice.token, 'POST', '/api/v1/sightings', body)).status).toBe(status)
    expect(await s.store.db.selectFrom('sightings').selectAll().execute()).toEqual([])
  })
  it("bob cannot report on alice's bookmark", async () => {
    expect((await s.call(s.bob.token, 'POST', '/api/v1/sightings', { site: 'fixture-madara', seriesId: 'seen', chapter: 1 })).status).toBe(
      404,
    )
  })
})

describe('transport-level refusals', () => {
  it('malformed JSON is 400', async () => {
    expect(await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', '{"url": ')).toMatchObject({
      status: 400,
      json: { error: { code: 'malformed-json' } },
    })
  })
  it('a body that is not JSON is 415', async () => {
    const r = await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', 'url=x', { 'content-type': 'application/x-www-form-urlencoded' })
    expect(r).toMatchObject({ status: 415, json: { error: { code: 'unsupported-media-type' } } })
  })
  it('a body over 64 KiB is 413 before it is parsed', async () => {
    const r = await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: madara('x'), pad: 'x'.repeat(70 * 1024) })
    expect(r).toMatchObject({ status: 413, json: { error: { code: 'too-large' } } })
  })
  it('a prototype-poisoning body is refused', async () => {
    const r = await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', `{"url": "${madara('x')}", "__proto__": {"admin": true}}`)
    expect(r.status).toBeGreaterThanOrEqual(400)
    expect(r.status).toBeLessThan(500)
  })
  it('an unknown route is a JSON 404', async () => {
    expect(await s.call(null, 'GET', '/api/v2/nothing')).toMatchObject({ status: 404, json: { error: { code: 'not-found' } } })
  })
})

describe('rate limiting', () => {
  it('limits requests per token and answers 429 in the error shape', async () => {
    const limited = await startTestSyncServer({ rateLimit: { max: 5, windowMs: 60_000 } })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 7; i++) statuses.push((await limited.call(limited.alice.token, 'GET', '/api/v1/me')).status)
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
      const r = await limited.call(limited.alice.token, 'GET', '/api/v1/me')
      expect(r.json).toEqual({ error: { code: 'rate-limited', message: expect.stringMatching(/too many requests/) } })
      // Another Reader has a budget of their own.
      expect((await limited.call(limited.bob.token, 'GET', '/api/v1/me')).status).toBe(200)
    } finally {
      await limited.close()
    }
  })

  it('invented tokens share the budget of their address, so guessing is limited too', async () => {
    const limited = await startTestSyncServer({ rateLimit: { max: 5, windowMs: 60_000 } })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 7; i++) statuses.push((await limited.call(`guess-${i}-${'x'.repeat(30)}`, 'GET', '/api/v1/me')).status)
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429])
    } finally {
      await limited.close()
    }
  })
})

describe('OpenAPI', () => {
  it('describes every route from the same schemas', async () => {
    const r = await s.call(null, 'GET', '/api/v1/openapi.json')
    expect(r.status).toBe(200)
    expect(r.json.openapi).toBe('3.1.0')
    expect(Object.keys(r.json.paths).sort()).toEqual([
      '/api/v1/bookmarks',
      '/api/v1/bookmarks/{site}/{seriesId}',
      '/api/v1/bookmarks/{site}/{seriesId}/chapters',
      '/api/v1/checks',
      '/api/v1/covers/{site}/{seriesId}',
      '/api/v1/devices',
      '/api/v1/devices/{id}',
      '/api/v1/export',
      '/api/v1/health',
      '/api/v1/me',
      '/api/v1/me/notifications',
      '/api/v1/me/notifications/test',
      '/api/v1/shelf',
      '/api/v1/shelf/follow',
      '/api/v1/sightings',
      '/api/v1/sign-in',
      '/api/v1/sites',
      '/api/v1/sites/{site}/search',
      '/api/v1/updates',
    ])
    const patch = r.json.paths['/api/v1/bookmarks/{site}/{seriesId}'].patch
    expect(patch.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { progress: { type: 'number' } },
    })
    expect(patch.parameters.map((p: { name: string }) => p.name)).toEqual(['site', 'seriesId'])
  })
})

/**
 * Chapters in the sync API: each bookmark's nextChapter and unreadCount, the stored list a page at a time, and a
 * Reader's Updates — over real HTTP, a real SQLite file, and checks of the fixture site's real pages.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkSeries } from '../lanes/check'
import { fixtureSites } from '../demo/fixture-sites'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { silentLog } from '../log'
import { createRegistry } from '../sites/registry'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer
const PATH = '/madara/manga/tower/'
const key = { site: 'fixture-madara', seriesId: 'tower' }

beforeEach(async () => {
  s = await startTestSyncServer()
  await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: `${s.fixture.origin}${PATH}` })
  await s.acquired(s.alice.token)
})
afterEach(() => s.close())

/** One check of the Series, as its Lane would make it. */
async function check() {
  await s.clock.advance(60_000)
  const site = createRegistry(fixtureSites(s.fixture.host)).get(key.site)!
  const report = await checkSeries({ db: s.store.db, clock: s.clock, log: silentLog }, site, createHttpFetcher({ timeoutMs: 2_000 }), {
    site: key.site,
    series_id: key.seriesId,
    series_url: `${s.fixture.origin}${PATH}`,
  })
  expect(report.outcome).toBe('chapter')
}
const bookmark = async (token = s.alice.token) => (await s.call(token, 'GET', '/api/v1/bookmarks')).json.bookmarks[0]
const chapterUrl = (n: number) => `${s.fixture.origin}${PATH}chapter-${n}/`

describe('nextChapter and unreadCount', () => {
  it('a new bookmark is caught up; a New Chapter is the next chapter, one unread, and an Update', async () => {
    const latest = s.fixture.series(PATH).latest
    expect(await bookmark()).toMatchObject({ progress: latest, unreadCount: 0, nextChapter: null, unread: false })
    const released = s.fixture.publish(PATH)
    await check()
    expect(await bookmark()).toMatchObject({
      unread: true,
      unreadCount: 1,
      nextChapter: { number: released, label: `Chapter ${released}`, url: chapterUrl(released) },
    })
    const updates = await s.call(s.alice.token, 'GET', '/api/v1/updates')
    expect(updates).toMatchObject({
      status: 200,
      json: { updates: [{ ...key, title: 'Tower', number: released, url: chapterUrl(released) }] },
    })
    expect(updates.json.updates[0].seenAt).toBe(s.clock.now())
  })

  it('start from the beginning: the lowest stored chapter is next, every chapter unread (below the list by subtraction)', async () => {
    const latest = s.fixture.series(PATH).latest
    await check()
    const r = await s.call(s.alice.token, 'PATCH', '/api/v1/bookmarks/fixture-madara/tower', { progress: 0 })
    // The fixture page lists the newest 12 chapters: the lowest stored is latest − 11.
    expect(r.json.bookmark).toMatchObject({
      progress: 0,
      unreadCount: latest,
      nextChapter: { number: latest - 11, url: chapterUrl(latest - 11) },
    })
    // Reading on moves it: tap chapter latest − 5, and the next is latest − 4.
    await s.clock.advance(1_000)
    await s.call(s.alice.token, 'PATCH', '/api/v1/bookmarks/fixture-madara/tower', { progress: latest - 5 })
    expect(await bookmark()).toMatchObject({ unreadCount: 5, nextChapter: { number: latest - 4 } })
    // Read chapters are no Updates.
    expect((await s.call(s.alice.token, 'GET', '/api/v1/updates')).json.updates).toEqual([])
  })

  it('a `since` sync carries them too', async () => {
    const first = await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')
    s.fixture.publish(PATH)
    await check()
    const changed = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${first.json.now}`)
    expect(changed.json.bookmarks).toHaveLength(1)
    expect(changed.json.bookmarks[0]).toMatchObject({ unreadCount: 1, nextChapter: { number: s.fixture.series(PATH).latest } })
  })
})

describe('GET /bookmarks/{site}/{seriesId}/chapters', () => {
  it('pages the stored list newest first, each read or not', async () => {
    const latest = s.fixture.series(PATH).latest
    await check()
    await s.call(s.alice.token, 'PATCH', '/api/v1/bookmarks/fixture-madara/tower', { progress: latest - 2 })
    const first = await s.call(s.alice.token, 'GET', '/api/v1/bookmarks/fixture-madara/tower/chapters?limit=5')
    expect(first.status).toBe(200)
    expect(first.json.chapters.map((c: { number: number; read: boolean }) => [c.number, c.read])).toEqual([
      [latest, false],
      [latest - 1, false],
      [latest - 2, true],
      [latest - 3, true],
      [latest - 4, true],
    ])
    expect(first.json.chapters[0]).toMatchObject({ label: `Chapter ${latest}`, url: chapterUrl(latest), vanished: false, releasedAt: 0 })
    expect(first.json.next).toBe(latest - 4)
    const rest = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks/fixture-madara/tower/chapters?before=${first.json.next}`)
    expect(rest.json.chapters).toHaveLength(7)
    expect(rest.json.next).toBeUndefined()
  })

  it("another Reader's Series is 404; a bad page is 422; no token is 401", async () => {
    expect((await s.call(s.bob.token, 'GET', '/api/v1/bookmarks/fixture-madara/tower/chapters')).status).toBe(404)
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks/fixture-madara/tower/chapters?limit=0')).status).toBe(422)
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks/fixture-madara/tower/chapters?limit=9999')).status).toBe(422)
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks/fixture-madara/tower/chapters?before=x')).status).toBe(422)
    expect((await s.call(null, 'GET', '/api/v1/bookmarks/fixture-madara/tower/chapters')).status).toBe(401)
    expect((await s.call(null, 'GET', '/api/v1/updates')).status).toBe(401)
  })

  it('is in the OpenAPI document with its query', async () => {
    const doc = (await s.call(null, 'GET', '/api/v1/openapi.json')).json
    const get = doc.paths['/api/v1/bookmarks/{site}/{seriesId}/chapters'].get
    expect(get.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`).sort()).toEqual([
      'path:seriesId',
      'path:site',
      'query:before',
      'query:limit',
    ])
    expect(Object.keys(get.responses['200'].content['application/json'].schema.properties)).toEqual(['chapters', 'next'])
    const bookmarkView = doc.paths['/api/v1/bookmarks'].get.responses['200'].content['application/json'].schema
    expect(JSON.stringify(bookmarkView)).toContain('nextChapter')
  })
})

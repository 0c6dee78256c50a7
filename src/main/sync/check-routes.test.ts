/**
 * `GET /api/v1/checks` over real HTTP with a real store and the fixture site (issue 43,
 * docs/adr/0218-the-readers-next-check.md): a Reader learns when each of their Series is checked next and why —
 * its Site's round, its Site's updates page — or why not now (the Site paused, Finished); only their own bookmarks.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { untilWords } from '../../shared/format'
import { readerCheckWords } from '../../shared/reader-check-words'
import type { FeedStatus } from '../lanes/feed'
import { pauseLane } from '../store/lanes'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let server: TestSyncServer
beforeEach(async () => {
  server = await startTestSyncServer()
})
afterEach(() => server.close())

const HOUR = 3_600_000

/** Alice bookmarks a fixture Series (read once from the fixture site); returns its key and when it was checked. */
async function aliceFollows(slug: string) {
  const url = `${server.fixture.origin}/madara/manga/${slug}/`
  const added = await server.call(server.alice.token, 'POST', '/api/v1/bookmarks', { url })
  await server.acquired(server.alice.token)
  const list = await server.call(server.alice.token, 'GET', '/api/v1/bookmarks')
  const b = list.json.bookmarks.find((x: { seriesId: string }) => x.seriesId === added.json.bookmark.seriesId)
  return { site: b.site as string, seriesId: b.seriesId as string, checkedAt: b.series.latestCheckedAt as number }
}

const feed = (state: FeedStatus['state']): FeedStatus => ({
  state,
  reason: state === 'broken' ? 'no line' : '',
  lastReadAt: 1,
  nextReadAt: 2,
  intervalMs: HOUR / 2,
  coveredSince: null,
  entries: 20,
})

describe('GET /api/v1/checks', () => {
  it("says when each Series is checked next: its Site's round, then its updates page first", async () => {
    const key = await aliceFollows('solo-lantern')
    expect(key.checkedAt).toBeGreaterThan(0)
    const first = await server.call(server.alice.token, 'GET', '/api/v1/checks')
    expect(first.status).toBe(200)
    expect(first.json.now).toBe(server.clock.now())
    const [check] = first.json.checks
    expect(check).toMatchObject({ site: key.site, seriesId: key.seriesId, check: { kind: 'next-check', why: 'round' } })
    expect(check.check.everyMs).toBeGreaterThan(0)
    expect(check.check.at).toBe(key.checkedAt + check.check.everyMs)
    expect(readerCheckWords(check.check, first.json.now)).toMatch(
      /^next check in (about \d+ (min|h)|under a minute) — its Site is checked every /,
    )

    server.feeds.set(key.site, feed('reading'))
    const read = (await server.call(server.alice.token, 'GET', '/api/v1/checks')).json
    expect(read.checks[0].check.why).toBe('feed')
    expect(readerCheckWords(read.checks[0].check, read.now)).toMatch(/ — this Site’s updates page shows it first$/)
    server.feeds.set(key.site, feed('broken'))
    expect((await server.call(server.alice.token, 'GET', '/api/v1/checks')).json.checks[0].check.why).toBe('feed-broken')
  })

  it('a paused Site: not checked until the pause ends, in the Reader’s words; a Finished Series says so', async () => {
    const key = await aliceFollows('tower-climber')
    const until = server.clock.now() + 2 * HOUR
    await pauseLane(server.store.db, key.site, until, server.clock.now())
    const answer = (await server.call(server.alice.token, 'GET', '/api/v1/checks')).json
    expect(answer.checks).toEqual([{ site: key.site, seriesId: key.seriesId, check: { kind: 'paused', until } }])
    expect(readerCheckWords(answer.checks[0].check, answer.now)).toBe(`not checked: Site paused until ${untilWords(until, answer.now)}`)

    await server.store.db.updateTable('series').set({ finished_at: server.clock.now() }).execute()
    const finished = (await server.call(server.alice.token, 'GET', '/api/v1/checks')).json
    expect(finished.checks[0].check).toEqual({ kind: 'finished' })
  })

  it("answers only the Reader's own bookmarks; no token is 401, a query it does not take is refused", async () => {
    await aliceFollows('solo-lantern')
    expect((await server.call(server.bob.token, 'GET', '/api/v1/checks')).json).toEqual({ now: server.clock.now(), checks: [] })
    expect((await server.call(null, 'GET', '/api/v1/checks')).status).toBe(401)
    const refused = await server.call(server.alice.token, 'GET', '/api/v1/checks?site=x')
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.json.error.code).toBe('invalid-request')
  })
})

describe('GET /api/v1/checks a page at a time (docs/adr/0234-the-checks-answer-in-pages.md)', () => {
  /** `n` bookmarks of alice on Series the store holds already (no request to the fixture site). */
  function seed(n: number): string[] {
    const db = server.store.sqlite
    const series = db.prepare("INSERT INTO series (site, series_id, series_url, created_at) VALUES ('fixture-madara', ?, ?, 1)")
    const bookmark = db.prepare(
      "INSERT INTO bookmarks (reader_id, site, series_id, created_at, updated_at) VALUES (?, 'fixture-madara', ?, 1, 1)",
    )
    const ids = Array.from({ length: n }, (_, i) => `s-${String(i).padStart(5, '0')}`)
    db.transaction(() => {
      for (const id of ids) {
        series.run(id, `${server.fixture.origin}/madara/manga/${id}/`)
        bookmark.run(server.alice.id, id)
      }
    })()
    return ids
  }
  const get = (query = '') => server.call(server.alice.token, 'GET', `/api/v1/checks${query}`)

  it('a library up to a page is one answer, as before: no next', async () => {
    const ids = seed(3)
    const answer = await get()
    expect(answer.json.checks.map((c: { seriesId: string }) => c.seriesId)).toEqual(ids)
    expect(answer.json).not.toHaveProperty('next')
  })

  it('a larger one comes in pages of at most 1,000 that together hold every bookmark once, in key order', async () => {
    const ids = seed(1_001)
    const first = await get()
    expect(first.json.checks).toHaveLength(1_000)
    expect(first.json.next).toMatch(/^[A-Za-z0-9_-]+$/)
    const second = await get(`?after=${first.json.next}`)
    expect(second.json.checks.map((c: { seriesId: string }) => c.seriesId)).toEqual([ids[1_000]])
    expect(second.json).not.toHaveProperty('next')
    const pages: string[] = []
    let after: string | undefined
    do {
      const page = (await get(`?limit=400${after ? `&after=${after}` : ''}`)).json
      pages.push(...page.checks.map((c: { seriesId: string }) => c.seriesId))
      after = page.next
    } while (after)
    expect(pages).toEqual(ids)
  })

  it('refuses a limit past the page or a cursor it did not write, with the error shape', async () => {
    seed(2)
    for (const query of ['?limit=1001', '?limit=0', '?after=not%20a%20cursor', `?after=${Buffer.from('[1,2]').toString('base64url')}`]) {
      const refused = await get(query)
      expect(refused.status, query).toBe(422)
      expect(refused.json.error.code).toBe('invalid-request')
    }
  })
})

/**
 * Which refusal a request meets first, kept when the routes became plugins validated by Fastify (docs/adr/0100-…):
 * the rate limit, then the token, then the schemas — so a flood of invalid requests is limited, and a caller with
 * no token learns nothing of the schemas. A route refuses a query or body it does not take.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer | undefined
afterEach(() => s?.close())

describe('the order of refusals', () => {
  it('no token with an invalid body is 401, not 422', async () => {
    s = await startTestSyncServer()
    const r = await s.call(null, 'PATCH', '/api/v1/bookmarks/fixture-madara/x', { progress: 'many', admin: true })
    expect(r).toMatchObject({ status: 401, json: { error: { code: 'unauthorized' } } })
  })

  it('past the limit, an invalid body is 429: invalid requests count against the budget', async () => {
    s = await startTestSyncServer({ rateLimit: { max: 3, windowMs: 60_000 } })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: 42 })).status)
    expect(statuses).toEqual([422, 422, 422, 429, 429])
  })

  it('a route refuses a query or a body it does not take, and changes nothing', async () => {
    s = await startTestSyncServer()
    const url = `${s.fixture.origin}/madara/manga/kept/`
    expect((await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url })).status).toBe(202)
    const withBody = await s.call(s.alice.token, 'DELETE', '/api/v1/bookmarks/fixture-madara/kept', { really: true })
    expect(withBody).toMatchObject({ status: 422, json: { error: { code: 'invalid-request', message: 'body: this route takes none' } } })
    const withQuery = await s.call(s.alice.token, 'GET', '/api/v1/me?reader=2')
    expect(withQuery).toMatchObject({ status: 422, json: { error: { code: 'invalid-request', message: 'query: this route takes none' } } })
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')).json.bookmarks).toHaveLength(1)
  })

  it('names where an issue is: the part of the request and the field', async () => {
    s = await startTestSyncServer()
    const r = await s.call(s.alice.token, 'PATCH', '/api/v1/bookmarks/fixture-madara/x', { progress: -1 })
    expect(r.json.error.message).toMatch(/^body: progress: /)
    expect((await s.call(s.alice.token, 'GET', '/api/v1/bookmarks?since=soon')).json.error.message).toMatch(
      /^query: since: unix milliseconds/,
    )
    expect((await s.call(s.alice.token, 'PATCH', '/api/v1/bookmarks/Bad_Site/x', { progress: 1 })).json.error.message).toMatch(
      /^path: site: /,
    )
  })
})

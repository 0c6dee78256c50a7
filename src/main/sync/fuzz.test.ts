/**
 * Hostile input: thousands of generated bad requests against the real server. None may answer 5xx, every
 * answer must be the JSON error shape, and the database must be exactly as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer

beforeAll(async () => {
  s = await startTestSyncServer()
  for (const slug of ['a', 'b'])
    await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: `${s.fixture.origin}/madara/manga/${slug}/` })
  await s.call(s.bob.token, 'POST', '/api/v1/bookmarks', { url: `${s.fixture.origin}/madara/manga/c/` })
  await s.call(s.alice.token, 'PATCH', '/api/v1/bookmarks/fixture-madara/a', { progress: 3, progressAt: 5_000 })
})
afterAll(() => s.close())

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface BadRequest {
  kind: string
  method: string
  path: string
  token: string | null
  body?: string
  contentType?: string
}

function generate(count: number, seed: number, alice: string, bob: string): BadRequest[] {
  const random = rng(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const origin = s.fixture.origin
  const hostileUrls = [
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://example.org/manga/a/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/manga/a/',
    'http://localhost/manga/a/',
    `${origin.replace('127.0.0.1', 'localhost')}/madara/manga/a/`,
    `http://user:pass@${origin.slice(7)}/madara/manga/a/`,
    `${origin}/not-a-series`,
    `${origin.replace(/:\d+$/, ':1')}/madara/manga/a/`,
    'http://exаmple.org/manga/a/',
    `http://${'a'.repeat(3000)}.example/`,
    '',
    '   ',
    '//evil.example/manga/a/',
    'http://%00/',
  ]
  const wrongValues = [null, true, false, 0, -1, '1e309', 'x', '', [], {}, [1, 2], { $gt: 0 }, 'NaN', '<script>', 9e15]
  const statusValues = ['READING', 'done', '', 0, null, ['reading'], 'reading ']
  const badTokens = [
    null,
    '',
    'x',
    'Bearer',
    'a'.repeat(43),
    `${alice}x`,
    alice.slice(1),
    'a'.repeat(500),
    `${alice}\u0000`,
    'null',
    '../../etc',
  ]
  const oddSegments = [
    '..',
    '%2e%2e',
    '%00',
    'a%00b',
    '%ff',
    '🙂',
    'a'.repeat(300),
    ' ',
    '%20',
    'a;b',
    'a?b=c',
    'NUL',
    '%0d%0aSet-Cookie:x=y',
    'Fixture-Madara',
    '-x',
  ]
  const json = (v: unknown) => JSON.stringify(v)
  const makers: Array<() => BadRequest> = [
    () => ({
      kind: 'malformed JSON',
      method: pick(['POST', 'PATCH']),
      path: pick(['/api/v1/bookmarks', '/api/v1/bookmarks/fixture-madara/a', '/api/v1/sightings']),
      token: alice,
      body: pick(['{', '{"url":', '{"url": "x",}', "{'url': 'x'}", '[1,2', 'nul', '{"a":1}{"b":2}', '\u0000\u0001', '{"url": "\\u12"}']),
    }),
    () => ({
      kind: 'deep nesting',
      method: 'POST',
      path: '/api/v1/bookmarks',
      token: alice,
      body: `${'['.repeat(5000)}${']'.repeat(5000)}`,
    }),
    () => ({ kind: 'wrong type url', method: 'POST', path: '/api/v1/bookmarks', token: alice, body: json({ url: pick(wrongValues) }) }),
    () => ({
      kind: 'wrong status',
      method: 'POST',
      path: '/api/v1/bookmarks',
      token: alice,
      body: json({ url: `${origin}/madara/manga/new/`, status: pick(statusValues) }),
    }),
    () => ({
      kind: 'unknown field',
      method: 'POST',
      path: '/api/v1/bookmarks',
      token: alice,
      body: json({ url: `${origin}/madara/manga/new/`, [pick(['readerId', 'admin', 'site', 'constructor', 'series_id'])]: 1 }),
    }),
    () => ({ kind: 'hostile URL', method: 'POST', path: '/api/v1/bookmarks', token: alice, body: json({ url: pick(hostileUrls) }) }),
    () => ({
      kind: 'hostile URL sighting',
      method: 'POST',
      path: '/api/v1/sightings',
      token: alice,
      body: json({ url: pick(hostileUrls), chapter: 5 }),
    }),
    () => ({
      kind: 'oversized',
      method: pick(['POST', 'PATCH']),
      path: pick(['/api/v1/bookmarks', '/api/v1/bookmarks/fixture-madara/a']),
      token: alice,
      body: json({ url: `${origin}/madara/manga/x/`, pad: 'x'.repeat(65 * 1024 + Math.floor(random() * 100_000)) }),
    }),
    () => ({
      kind: 'wrong progress',
      method: 'PATCH',
      path: '/api/v1/bookmarks/fixture-madara/a',
      token: alice,
      body: json({ progress: pick([null, true, 'x', '', [], {}, '5', 'NaN', -0.5, -1, 100_001, 1e12, 9e15]) }),
    }),
    () => ({
      kind: 'wrong progressAt',
      method: 'PATCH',
      path: '/api/v1/bookmarks/fixture-madara/a',
      token: alice,
      body: json({ progress: 9, progressAt: pick(['now', -5, 1.5, 9e15, null, 8_640_000_000_001]) }),
    }),
    () => ({
      kind: 'empty patch',
      method: 'PATCH',
      path: '/api/v1/bookmarks/fixture-madara/a',
      token: alice,
      body: pick(['{}', json({ progressAt: 5 }), 'null', '[]', '"x"', '1']),
    }),
    () => ({
      kind: "another Reader's bookmark",
      method: pick(['PATCH', 'DELETE']),
      path: '/api/v1/bookmarks/fixture-madara/c',
      token: alice,
      body: json({ progress: 1 }),
    }),
    () => ({
      kind: 'odd path segment',
      method: pick(['PATCH', 'DELETE']),
      path: `/api/v1/bookmarks/${pick(oddSegments)}/${pick(oddSegments)}`,
      token: alice,
      body: json({ progress: 1 }),
    }),
    () => ({
      kind: 'odd series segment',
      method: pick(['PATCH', 'DELETE']),
      path: `/api/v1/bookmarks/fixture-madara/${pick(oddSegments)}`,
      token: alice,
      body: json({ status: 'dropped' }),
    }),
    () => ({
      kind: 'bad token',
      method: pick(['GET', 'POST', 'PATCH', 'DELETE']),
      path: pick(['/api/v1/me', '/api/v1/bookmarks', '/api/v1/bookmarks/fixture-madara/a', '/api/v1/sightings']),
      token: pick(badTokens),
      body: json({ url: `${origin}/madara/manga/new/`, progress: 1, chapter: 1 }),
    }),
    () => ({
      kind: 'wrong content type',
      method: pick(['POST', 'PATCH']),
      path: pick(['/api/v1/bookmarks', '/api/v1/bookmarks/fixture-madara/a']),
      token: alice,
      body: json({ progress: 99, url: `${origin}/madara/manga/new/` }),
      contentType: pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'image/png',
      ]),
    }),
    () => ({
      kind: 'bad sighting',
      method: 'POST',
      path: '/api/v1/sightings',
      token: alice,
      body: json(
        pick([
          { chapter: 1 },
          { site: 'fixture-madara', chapter: 1 },
          { site: 'fixture-madara', seriesId: 'a' },
          { site: 'fixture-madara', seriesId: 'a', chapter: -1 },
          { site: 'fixture-madara', seriesId: 'a', chapter: 1, at: 'now' },
          { site: 'fixture-madara', seriesId: 'c', chapter: 1 },
          { site: 'FIXTURE', seriesId: 'a', chapter: 1 },
          { site: 'fixture-madara', seriesId: 'a', chapter: 1, at: 9e12 },
        ]),
      ),
    }),
    () => ({
      kind: 'bad query',
      method: 'GET',
      path: `/api/v1/bookmarks?${pick(['since=x', 'since=-1', 'since=1.5', 'since=', 'since=1&since=2', 'reader=2', 'since[]=1', `since=${'9'.repeat(40)}`])}`,
      token: alice,
    }),
    () => ({
      kind: 'unknown route or method',
      method: pick(['PUT', 'POST', 'DELETE', 'PATCH']),
      path: pick([
        '/api/v1/me',
        '/api/v1/health',
        '/api/v1/bookmarks',
        '/api/v1/readers',
        '/api/v1/bookmarks/fixture-madara',
        '/admin/rpc/addReader',
        '/api/v1/../../etc/passwd',
      ]),
      token: bob,
      body: json({ progress: 1 }),
    }),
  ]
  return Array.from({ length: count }, () => pick(makers)())
}

async function snapshot(): Promise<unknown> {
  const tables = ['readers', 'series', 'bookmarks', 'sightings', 'poll_lanes', 'poll_passes', 'latest_chapter_history'] as const
  const out: Record<string, unknown> = {}
  for (const table of tables) out[table] = await s.store.db.selectFrom(table).selectAll().execute()
  return out
}

describe('fuzzing the sync endpoint', () => {
  it('answers 2,400 generated bad requests with 4xx JSON errors and changes nothing', async () => {
    const before = await snapshot()
    const requests = generate(2_400, 20261130, s.alice.token, s.bob.token)
    const failures: string[] = []
    const statuses = new Map<number, number>()
    for (let i = 0; i < requests.length; i += 16) {
      await Promise.all(
        requests.slice(i, i + 16).map(async (r) => {
          let status = 0
          let text = ''
          let type = ''
          try {
            const response = await fetch(`${s.origin}${r.path}`, {
              method: r.method,
              headers: {
                ...(r.token !== null ? { authorization: `Bearer ${r.token}` } : {}),
                ...(r.body !== undefined ? { 'content-type': r.contentType ?? 'application/json' } : {}),
              },
              ...(r.body !== undefined && r.method !== 'GET' ? { body: r.body } : {}),
            })
            status = response.status
            type = response.headers.get('content-type') ?? ''
            text = await response.text()
          } catch (error) {
            // Node's fetch refuses some header values itself (a NUL in a token); nothing reached the server.
            if (/Invalid|header/i.test(String((error as Error).cause ?? error))) return
            failures.push(`${r.kind} ${r.method} ${r.path}: ${String(error)}`)
            return
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          let body: { error?: { code?: unknown; message?: unknown } } = {}
          try {
            body = JSON.parse(text)
          } catch {
            /* checked below */
          }
          const shaped =
            typeof body.error?.code === 'string' && typeof body.error?.message === 'string' && !/\bat .*\(.*:\d+:\d+\)/.test(text)
          if (status < 400 || status >= 500 || !shaped || !type.startsWith('application/json')) {
            failures.push(`${r.kind} ${r.method} ${r.path.slice(0, 80)} → ${status} ${text.slice(0, 120)}`)
          }
        }),
      )
    }
    expect(failures).toEqual([])
    expect(await snapshot()).toEqual(before)
    // Every class of refusal was met.
    for (const status of [400, 401, 404, 413, 415, 422]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0)
  })
})

import { createHmac } from 'node:crypto'
/**
 * The OpenAPI document is written from the routes as the server registers them: every sync route is in it, with
 * the parameters, body and answers its own schemas declare — found from the server, not from a list kept here.
 */
import swagger from '@fastify/swagger'
import type { RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ZodObject } from 'zod'
import { SitePacer } from '../lanes/pacer'
import { BrowserHealth } from '../fetch/browser-health'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { silentLog } from '../log'
import { createHttpServer, listen } from '../server/http'
import { createRegistry } from '../sites/registry'
import { FakeClock } from '../testing/clock'
import { openTestStore, type TestStore } from '../testing/store'
import { registerSyncApi } from './api'
import pkg from '../../../package.json' with { type: 'json' }
import { NO_BODY, NO_QUERY, OPENAPI_PATH, swaggerOptions } from './openapi'
import { channelRequest, DELIVERY_HEADER, SIGNATURE_HEADER, SIGNATURE_WINDOW_S } from '../notify/channels'
import type { NotifyChannelRow } from '../store/schema'

let store: TestStore
let origin: string
let close: () => Promise<void>
let eager: () => unknown
const routes: RouteOptions[] = []

beforeAll(async () => {
  store = openTestStore()
  const clock = new FakeClock()
  const app = createHttpServer({ log: silentLog })
  // Every route the server is given, as it is given: what the document must describe.
  app.addHook('onRoute', (route) => void routes.push(route))
  // The plugin registered as usual, over the same routes: the document the endpoint writes on first use must be its.
  await app.register(swagger, swaggerOptions(pkg.version))
  const acquire = {
    db: store.db,
    registry: createRegistry([]),
    fetchers: { http: createHttpFetcher({ timeoutMs: 2_000 }) },
    health: new BrowserHealth(clock),
    pacer: new SitePacer(clock),
    clock,
    log: silentLog,
  }
  await registerSyncApi(app, { db: store.db, clock, acquire })
  origin = (await listen(app, 0)).origin
  eager = () => app.swagger()
  close = async () => {
    await app.close()
    await store.dispose()
  }
})
afterAll(() => close())

const methods = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD')
const keysOf = (schema: unknown) => Object.keys((schema as ZodObject).shape)

describe('the OpenAPI document', () => {
  it('lists every registered sync route, each with the parameters, body and answers of its schemas', async () => {
    const response = await fetch(`${origin}${OPENAPI_PATH}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const doc = (await response.json()) as { paths: Record<string, Record<string, any>> }
    const described = routes.filter((r) => r.url.startsWith('/api/v1/') && r.url !== OPENAPI_PATH && methods(r).length > 0)
    // The server holds the 22 routes of the sync API; each is in the document, and nothing else is.
    expect(described.length).toBe(22)
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    const registered = described.flatMap((r) => methods(r).map((m) => `${m} ${r.url.replace(/:([A-Za-z]+)/g, '{$1}')}`))
    expect(listed.sort()).toEqual(registered.sort())
    for (const route of described) {
      const op = doc.paths[route.url.replace(/:([A-Za-z]+)/g, '{$1}')]![methods(route)[0]!.toLowerCase()]
      const schema = route.schema!
      const where = `${methods(route)[0]} ${route.url}`
      const parameters = (op.parameters ?? []).map((p: { in: string; name: string }) => `${p.in}:${p.name}`).sort()
      const params = schema.params ? keysOf(schema.params).map((k) => `path:${k}`) : []
      const query = schema.querystring === NO_QUERY ? [] : keysOf(schema.querystring).map((k) => `query:${k}`)
      expect(parameters, where).toEqual([...params, ...query].sort())
      expect(op.requestBody !== undefined, where).toBe(schema.body !== NO_BODY)
      expect(Object.keys(op.responses).sort(), where).toEqual(Object.keys(schema.response as object).sort())
      expect(op.summary, where).toEqual(expect.any(String))
    }
  })

  it('is written on first use, the same document as @fastify/swagger registered at the start writes', async () => {
    const [first, again] = await Promise.all([fetch(`${origin}${OPENAPI_PATH}`), fetch(`${origin}${OPENAPI_PATH}`)])
    const written = await first.text()
    expect(await again.text()).toBe(written)
    expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(eager())))
    expect(Object.keys((JSON.parse(written) as { paths: object }).paths).length).toBeGreaterThan(10)
  })

  it('says which routes need a token', async () => {
    const doc = (await (await fetch(`${origin}${OPENAPI_PATH}`)).json()) as { paths: Record<string, Record<string, any>> }
    const open = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) => (op.security.length === 0 ? [`${method} ${path}`] : [])),
    )
    expect(open.sort()).toEqual(['get /api/v1/health', 'post /api/v1/sign-in'])
    expect(doc.paths['/api/v1/me']!.get.security).toEqual([{ bearer: [] }])
  })

  it('describes the webhook the app sends: its headers, its body as sent, and the signature a receiver checks', async () => {
    const doc = (await (await fetch(`${origin}${OPENAPI_PATH}`)).json()) as { webhooks: Record<string, Record<string, any>> }
    const hook = doc.webhooks.newChapters!.post
    expect(hook.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).toEqual([
      `header:${SIGNATURE_HEADER}`,
      `header:${DELIVERY_HEADER}`,
    ])
    expect(hook.description).toContain(`refuses a t more than ${SIGNATURE_WINDOW_S} s from its own clock`)
    // The body's fields are those sent, and a request made as the app makes it verifies by the stated rule.
    const digest = { reader: 'bob', newChapters: [{ site: 'a', seriesId: 'x', title: 'X', chapter: 2, label: '', chapterUrl: '' }] }
    const channel = { id: 1, reader_id: 1, kind: 'webhook', target: 'https://hooks.example/x', secret: '{"secret":"s3cret"}' } as const
    const now = Date.UTC(2026, 0, 1)
    const request = channelRequest(
      channel as unknown as NotifyChannelRow,
      digest,
      'mb-0123456789abcdef0123456789abcdef',
      () => {
        throw new Error('no VAPID for a webhook')
      },
      now,
    )
    const body = String(request.body)
    expect(Object.keys(JSON.parse(body)).sort()).toEqual(Object.keys(hook.requestBody.content['application/json'].schema.properties).sort())
    const header = String(request.headers[SIGNATURE_HEADER])
    expect(header).toMatch(new RegExp(hook.parameters[0].schema.pattern))
    expect(String(request.headers[DELIVERY_HEADER])).toMatch(new RegExp(hook.parameters[1].schema.pattern))
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(header)!
    expect(Number(t)).toBe(now / 1000)
    expect(v1).toBe(createHmac('sha256', 's3cret').update(`${t}.${body}`).digest('hex'))
  })
})

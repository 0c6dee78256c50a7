/**
 * A real sync endpoint for tests: a real SQLite file, the fixture site for Series URLs, and the Fastify
 * server listening on a loopback port.
 */
import type { FeedStatus } from '../lanes/feed'
import { SitePacer } from '../lanes/pacer'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { BrowserHealth } from '../fetch/browser-health'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { silentLog } from '../log'
import { createHttpServer, listen, type ListenerLimits } from '../server/http'
import { createRegistry } from '../sites/registry'
import { registerSyncApi, type SyncOptions } from '../sync/api'
import { createReader } from '../use-cases/reader-tokens'
import { FakeClock } from './clock'
import { createNotifier, type Notifier } from '../notify/notifier'
import { vapidKeys } from '../notify/vapid'
import { readSettings } from '../store/settings'
import { openTestStore, type TestStore } from './store'
import { join } from 'node:path'
import { COVERS_DIR, CoverStore } from '../store/covers'

export interface TestSyncServer {
  origin: string
  store: TestStore
  fixture: FixtureSite
  clock: FakeClock
  notifier: Notifier
  /** The covers folder the server serves from (empty until a test keeps one). */
  covers: CoverStore
  /** Each Site's updates page as a Lane would have read it (empty: none read; the test sets it). */
  feeds: Map<string, FeedStatus>
  /** Tokens of two Readers, alice and bob. */
  alice: { id: number; token: string }
  bob: { id: number; token: string }
  /** fetch() against the server with a Reader's token. */
  call(
    token: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; json: any; headers: Headers }>
  /** Waits (polling the API) until every bookmark of the Reader has had its first check: the Acquisitions are in. */
  acquired(token: string): Promise<void>
  close(): Promise<void>
}

export async function startTestSyncServer(
  options: SyncOptions = { rateLimit: { max: 1_000_000, windowMs: 60_000 } },
  limits?: Partial<ListenerLimits>,
): Promise<TestSyncServer> {
  const store = openTestStore()
  const clock = new FakeClock()
  const fixture = await startFixtureSite({ now: () => clock.now() })
  const registry = createRegistry(fixtureSites(fixture.host))
  const notifier = createNotifier({
    db: store.db,
    clock,
    log: silentLog,
    vapid: () => vapidKeys(store.dir),
    policy: async () => (await readSettings(store.db)).notifyTargets,
  })
  const covers = new CoverStore(join(store.dir, COVERS_DIR))
  const feeds = new Map<string, FeedStatus>()
  const app = createHttpServer({ log: silentLog, ...(limits ? { limits } : {}) })
  await registerSyncApi(
    app,
    {
      db: store.db,
      clock,
      acquire: {
        db: store.db,
        registry,
        fetchers: { http: createHttpFetcher({ timeoutMs: 2_000 }) },
        health: new BrowserHealth(clock),
        pacer: new SitePacer(clock),
        clock,
        log: silentLog,
        covers,
      },
      notify: { notifier, vapidPublicKey: () => vapidKeys(store.dir).publicKey },
      feeds,
    },
    options,
  )
  const { origin } = await listen(app, 0)
  const a = await createReader(store.db, 'alice', clock.now())
  const b = await createReader(store.db, 'bob', clock.now())
  const server: TestSyncServer = {
    origin,
    store,
    fixture,
    clock,
    notifier,
    covers,
    feeds,
    alice: { id: a.reader.id, token: a.token },
    bob: { id: b.reader.id, token: b.token },
    async call(token, method, path, body, headers = {}) {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      })
      const text = await response.text()
      let json: unknown = null
      try {
        json = text ? JSON.parse(text) : null
      } catch {
        json = { raw: text }
      }
      return { status: response.status, json, headers: response.headers }
    },
    async acquired(token) {
      for (let i = 0; i < 250; i++) {
        const r = await server.call(token, 'GET', '/api/v1/bookmarks')
        if ((r.json.bookmarks as Array<{ series: { latestCheckedAt: number } }>).every((b) => b.series.latestCheckedAt > 0)) return
        await new Promise((done) => setTimeout(done, 20))
      }
      throw new Error('the Acquisitions did not finish')
    },
    async close() {
      await app.close()
      await fixture.close()
      await store.dispose()
    },
  }
  return server
}

/**
 * Fakes for pass-level tests: fetchers that answer from a function and record every request with the
 * fake time, and a tiny Site whose pages are a chapter number as text. (Integration tests use the real
 * HTTP fetcher against the fixture site instead.)
 */
import type { KyselyPlugin } from 'kysely'
import type { Clock } from '../clock'
import type { BrowserFetcher, Fetcher, FetchResult } from '../fetch/fetcher'
import { DEFAULT_PACE, seriesRules, type Pace, type PageRequest, type Site } from '../sites/site'
import type { Db } from '../store/database'

export interface Recorded {
  at: number
  url: string
}

export type Responder = (request: PageRequest) => FetchResult | Promise<FetchResult>

/** A page whose body is the highest chapter number, or '' for a page with no chapters. */
export const chapterPage = (n: number | null, status = 200): FetchResult => ({
  kind: 'page',
  page: { url: 'https://test.example/x', status, contentType: 'text/plain', body: n === null ? '' : String(n) },
})

export class FakeFetcher implements Fetcher {
  readonly calls: Recorded[] = []
  constructor(
    readonly kind: 'http' | 'browser',
    private readonly clock: Clock,
    public respond: Responder = () => chapterPage(1),
  ) {}
  async fetch(request: PageRequest): Promise<FetchResult> {
    this.calls.push({ at: this.clock.now(), url: request.url })
    return this.respond(request)
  }
}

export class FakeBrowser extends FakeFetcher implements BrowserFetcher {
  declare readonly kind: 'browser'
  awake = false
  launches = 0
  constructor(clock: Clock, respond?: Responder) {
    super('browser', clock, respond)
  }
  isAwake(): boolean {
    return this.awake
  }
  override async fetch(request: PageRequest): Promise<FetchResult> {
    if (!this.awake) this.launches++
    this.awake = true
    return super.fetch(request)
  }
  async close(): Promise<void> {
    this.awake = false
  }
}

/** A Site on https://<key>.example whose adapter reads a page body as one chapter number. */
export function testSite(key = 'a', over: Partial<Omit<Site, 'pace'>> & { pace?: Partial<Pace> } = {}): Site {
  const { pace, ...rest } = over
  return {
    key,
    name: `Site ${key.toUpperCase()}`,
    hosts: [`${key}.example`],
    fetcher: 'http',
    fallback: 'none',
    adapter: {
      request: (url) => ({ url: url.href, method: 'GET' }),
      read: (page) => ({
        kind: 'parsed',
        result: {
          title: `Title from ${key}`,
          chapters: page.body ? [{ number: Number(page.body), label: `Chapter ${page.body}`, url: `${page.url}/c/${page.body}` }] : [],
        },
      }),
    },
    ...seriesRules(/^\/manga\/([^/]+)/),
    pace: { ...DEFAULT_PACE, ...pace },
    origin: 'built-in',
    ...rest,
  }
}

/** The same database, but any query whose text contains `fragment` fails — a broken query, on demand. */
export function failingOn(db: Db, fragment: string): Db {
  return failingWhen(db, (node) => node.includes(fragment))
}

/**
 * The same database, but a query fails whenever `fails` says so of its syntax tree (as JSON) — e.g. only reads
 * of one table, or only after a switch is thrown — with `failure` (by default a plain `injected failure`).
 */
export function failingWhen(db: Db, fails: (node: string) => boolean, failure: () => Error = () => new Error('injected failure')): Db {
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (fails(JSON.stringify(args.node))) throw failure()
      return args.node
    },
    transformResult: async (args) => args.result,
  }
  return db.withPlugin(plugin)
}

/**
 * The fixture site server (docs/design.md#test-assets): imitations of real Site families and of everything that goes wrong
 * with them, on loopback, for tests, e2e and the demo. It records every hit with the injected clock's time.
 *
 * Routes (`:slug` is any Series; each starts with a deterministic Latest Chapter):
 *   GET  /madara/manga/:slug/                 Madara, chapter list inline
 *   GET  /madara-xhr/manga/:slug/             Madara, list by XHR: POST …/ajax/chapters/
 *   GET  /themesia/manga/:slug/               MangaThemesia
 *   GET  /webtoons/en/fantasy/:slug/list?title_no=N   Webtoons
 *   GET  /mangadex/title/:uuid/:slug          MangaDex title page; GET /mangadex/api/manga/:uuid/feed
 *   GET  /<family>/manga/:slug/cover.png     the Series' cover, a small PNG (Madara and MangaThemesia pages name it)
 *   GET  /chapter/:id, /webtoons/…/episode-N/viewer   a chapter's reading page (what a Continue link opens)
 *   GET  /js-challenge/manga/:slug/           a JS challenge only a real browser passes (then Madara)
 *   GET  /never-clears/manga/:slug/           a challenge that never clears
 *   GET  /no-chapters/manga/:slug/            a real page with no chapters
 *   GET  /broken/manga/:slug/                 HTTP 500
 *   GET  /hang/manga/:slug/                   a response that never ends
 *   GET  /huge/manga/:slug/                   an oversized body
 *   GET  /redirect-off/manga/:slug/           a redirect off the pinned host (to localhost)
 *   GET  /gone/manga/:slug/?status=404|410     a Series page that is no more (404, or 410 "gone")
 *   GET  /moved/manga/:slug/?status=301|308   a permanent redirect to another host (localhost on this port) that
 *                                             serves the Series as Madara: the Site moved
 *   GET  /slow-down/manga/:slug/?status=429|503&retry=S|in-S   "too many requests": Retry-After S seconds, or a date S s ahead
 *   GET  /encoded/manga/:slug/?charset=C&via=header|meta|http-equiv|bom|none   a Madara page in encoding C
 *                                             (windows-1252, shift_jis, utf-16le, utf-16be), its title ENCODED_TITLES[C]
 *   GET  /leaky/manga/:slug/                  a Madara page that pulls a script, an image and a frame off the pin
 *   GET  /busy/manga/:slug/                   a page whose script never yields once loaded
 *   GET  /hostile/manga/:slug/?attack=A&to=H:P   a Madara page whose script tries one way off the pin (to H:P),
 *                                             then reports GET /hostile/done?attack=A (see hostile-pages.ts);
 *                                             its helpers: /hostile/worker.js, /hostile/sw.js, /hostile/popup/,
 *                                             /hostile/beat (what the popup calls while it is open)
 *   GET  /madara/?s=Q&post_type=wp-manga      Madara's title search: the Madara Series met so far and SEARCHABLE ones
 *                                             whose title holds Q, each with its cover and latest chapter
 *   POST /control/publish   {"path": "/madara/manga/x/"}  publishes the next chapter → {"latest": n}
 *   POST /control/vanish    {"path": "/madara/manga/x/"}  the Series' page answers 404 from now on, and the Series
 *                                             (same title and chapters) lives at /madara/manga/x-2/ → {"path"}
 *   GET  /control/hits                        the hit log
 * Any page route takes `?delay=MS` to answer late.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  challengePage,
  madaraChapterList,
  madaraPage,
  madaraSearchPage,
  mangaDexFeed,
  noChaptersPage,
  themesiaPage,
  webtoonsPage,
  type FixtureSeries,
} from './pages'
import { coverPng } from './cover-images'
import { WINDOWS_1252_HIGH } from '../fetch/encoding'
import { hostileExtras, hostilePopup, hostileServiceWorker, hostileWorker, isAttack, isDestination } from './hostile-pages'

export interface Hit {
  at: number
  method: string
  /** The Host header as sent: shows whether an off-pin host was ever requested. */
  host: string
  path: string
  userAgent: string
}

export interface FixtureSite {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string
  /** `127.0.0.1:PORT`, the host to pin. */
  readonly host: string
  readonly hits: Hit[]
  /** The Series behind a page path, e.g. `/madara/manga/x/`. */
  series(path: string): FixtureSeries
  /** Publishes the next chapter of the Series behind a path; returns its number. */
  publish(path: string): number
  /** The Series behind a Madara path moves without a redirect: its page answers 404, the new path is returned. */
  vanish(path: string): string
  /** Every Series met so far, by catalogue key: what a demo keeps across restarts. */
  snapshot(): Record<string, FixtureSeries>
  /** Puts back Series kept by snapshot() (their titles and latest chapters), before any page is asked for. */
  restore(kept: Record<string, FixtureSeries>): void
  close(): Promise<void>
}

export interface FixtureOptions {
  now?: () => number
  port?: number
  /** Size of the oversized body, bytes. */
  hugeBytes?: number
}

const FAMILY_PATH =
  /^\/(madara|madara-xhr|themesia|js-challenge|never-clears|no-chapters|broken|hang|huge|redirect-off|moved|gone|leaky|busy|hostile|slow-down|encoded)\/manga\/([a-z0-9-]{1,80})\/?(ajax\/chapters\/?|chapter-\d+\/?|cover\.png)?$/
const WEBTOONS_PATH = /^\/webtoons\/en\/[a-z-]+\/([a-z0-9-]{1,80})\/list$/
const MANGADEX_FEED = /^\/mangadex\/api\/manga\/([0-9a-f-]{36})\/feed$/
const MANGADEX_TITLE = /^\/mangadex\/title\/([0-9a-f-]{36})(?:\/([a-z0-9-]+))?$/
/** A chapter's reading page, as a Reader's Continue link opens it: a Webtoons episode, a MangaDex chapter. */
const READING_PAGE = /^\/(?:webtoons\/en\/[a-z-]+\/[a-z0-9-]{1,80}\/episode-\d+\/viewer|chapter\/[0-9a-f-]{36})$/

export async function startFixtureSite(options: FixtureOptions = {}): Promise<FixtureSite> {
  const state: FixtureState = {
    now: options.now ?? Date.now,
    hits: [],
    catalogue: new Map(),
    vanished: new Set(),
    hanging: new Set(),
    hugeBytes: options.hugeBytes ?? 8 * 1024 * 1024,
    port: () => (server.address() as AddressInfo).port,
  }
  const server: Server = createServer((req, res) => receive(state, req, res))

  await new Promise<void>((resolve, reject) => {
    // A port asked for may be taken: the caller hears so (and may take a free one).
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const series = (path: string): FixtureSeries => {
    const found = keyOf(path)
    if (!found) throw new Error(`fixture: no Series at ${path}`)
    return seriesFor(state, found.key, found.slug)
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits: state.hits,
    series,
    publish(path) {
      const s = series(path)
      s.latest += 1
      return s.latest
    },
    vanish: (path) => vanish(state, path),
    snapshot: () => Object.fromEntries([...state.catalogue].map(([key, s]) => [key, { ...s }])),
    restore(kept) {
      for (const [key, s] of Object.entries(kept)) state.catalogue.set(key, { title: s.title, latest: s.latest })
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of state.hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** What the server's routes share: the clock, the hit log, the Series, the responses held open. */
interface FixtureState {
  now: () => number
  hits: Hit[]
  /** Each Series met, by family and slug (see `keyOf`), made on first sight. */
  catalogue: Map<string, FixtureSeries>
  /** Catalogue keys whose page answers 404 (the Series moved without a redirect). */
  vanished: Set<string>
  /** The `hang` responses, never ended: destroyed on close. */
  hanging: Set<ServerResponse>
  /** Size of the `huge` body, bytes. */
  hugeBytes: number
  /** The server's own port, for the pages that point off the pin (`localhost` on it). */
  port(): number
}

function seriesFor(state: FixtureState, key: string, slug: string): FixtureSeries {
  let s = state.catalogue.get(key)
  if (!s) {
    s = { title: titleOf(slug), latest: 10 + (hash(key) % 90) }
    state.catalogue.set(key, s)
  }
  return s
}

/** The catalogue key of a page path (one Series per family and slug). */
function keyOf(path: string): { key: string; slug: string } | null {
  const url = new URL(path, 'http://fixture')
  const family = FAMILY_PATH.exec(url.pathname)
  if (family) return { key: `${family[1] === 'madara-xhr' ? 'madara-xhr' : family[1]}:${family[2]}`, slug: family[2]! }
  const toon = WEBTOONS_PATH.exec(url.pathname)
  if (toon) return { key: `webtoons:${url.searchParams.get('title_no') ?? toon[1]}`, slug: toon[1]! }
  const dex = MANGADEX_FEED.exec(url.pathname) ?? MANGADEX_TITLE.exec(url.pathname)
  if (dex) return { key: `mangadex:${dex[1]}`, slug: dex[2] ?? 'mangadex-series' }
  return null
}

/** Records the hit, then answers it (late, with `?delay=MS`). */
function receive(state: FixtureState, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://fixture')
  state.hits.push({
    at: state.now(),
    method: req.method ?? 'GET',
    host: req.headers.host ?? '',
    path: `${url.pathname}${url.search}`,
    userAgent: req.headers['user-agent'] ?? '',
  })
  const delay = Math.min(Number(url.searchParams.get('delay')) || 0, 60_000)
  const answer = () => route(state, req, res, url).catch(() => send(res, 500, 'text/plain', 'fixture error'))
  if (delay > 0) setTimeout(answer, delay)
  else void answer()
}

async function route(state: FixtureState, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const origin = `http://${req.headers.host}`
  if (req.method === 'POST' && url.pathname === '/control/publish') return publishRoute(state, req, res)
  if (req.method === 'POST' && url.pathname === '/control/vanish') return vanishRoute(state, req, res)
  if (url.pathname === '/madara/' && url.searchParams.has('s'))
    return send(res, 200, 'text/html', madaraSearchPage(origin, searchCatalogue(state, url.searchParams.get('s') ?? '')))
  if (url.pathname === '/control/hits') return send(res, 200, 'application/json', JSON.stringify(state.hits))
  if (url.pathname.startsWith('/hostile/') && !FAMILY_PATH.test(url.pathname)) return hostileHelper(res, url)

  const toon = WEBTOONS_PATH.exec(url.pathname)
  if (toon) {
    const titleNo = url.searchParams.get('title_no') ?? ''
    const base = `${origin}/webtoons/en/fantasy/${toon[1]}/`
    return send(res, 200, 'text/html', webtoonsPage(base, titleNo, seriesFor(state, `webtoons:${titleNo || toon[1]}`, toon[1]!)))
  }
  const feed = MANGADEX_FEED.exec(url.pathname)
  if (feed) {
    return send(res, 200, 'application/json', mangaDexFeed(feed[1]!, seriesFor(state, `mangadex:${feed[1]}`, 'mangadex-series')))
  }
  if (READING_PAGE.test(url.pathname)) return send(res, 200, 'text/html', '<!DOCTYPE html><title>Reading</title><p>pages</p>')
  const title = MANGADEX_TITLE.exec(url.pathname)
  if (title) {
    // The title page names the Series as its slug writes it: met here first, the feed keeps that title.
    if (title[2]) seriesFor(state, `mangadex:${title[1]}`, title[2])
    return send(res, 200, 'text/html', `<!DOCTYPE html><title>MangaDex</title><div id="app"></div>`)
  }
  return familyRoute(state, req, res, url, origin)
}

/** POST /control/publish: the next chapter of the Series behind `path`. */
async function publishRoute(state: FixtureState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = JSON.parse((await readBody(req)) || '{}') as { path?: string }
  const found = body.path ? keyOf(body.path) : null
  if (!found) return send(res, 400, 'application/json', JSON.stringify({ error: 'unknown path' }))
  const s = seriesFor(state, found.key, found.slug)
  s.latest += 1
  return send(res, 200, 'application/json', JSON.stringify({ latest: s.latest }))
}

/** Series a Madara search finds even before anyone met them (the demo's "search by title" has something to find). */
export const SEARCHABLE = ['solo-lantern', 'tower-of-ash', 'moonlit-garden', 'iron-tea-house']

/** The Madara Series whose title holds the query (met so far, and SEARCHABLE), not vanished, at most 20. */
function searchCatalogue(state: FixtureState, query: string): Array<{ slug: string; series: FixtureSeries }> {
  for (const slug of SEARCHABLE) seriesFor(state, `madara:${slug}`, slug)
  const words = query.toLowerCase().trim()
  const found: Array<{ slug: string; series: FixtureSeries }> = []
  for (const [key, series] of state.catalogue) {
    if (!key.startsWith('madara:') || state.vanished.has(key)) continue
    if (words && series.title.toLowerCase().includes(words)) found.push({ slug: key.slice('madara:'.length), series })
  }
  return found.slice(0, 20)
}

/** The Series behind a Madara path: its page answers 404 from now on; the Series lives on at `<slug>-2`. */
function vanish(state: FixtureState, path: string): string {
  const found = keyOf(path)
  if (!found || !found.key.startsWith('madara:')) throw new Error(`fixture: not a Madara Series path: ${path}`)
  const s = seriesFor(state, found.key, found.slug)
  const slug = `${found.slug}-2`
  state.catalogue.set(`madara:${slug}`, { ...s })
  state.vanished.add(found.key)
  return `/madara/manga/${slug}/`
}

async function vanishRoute(state: FixtureState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = JSON.parse((await readBody(req)) || '{}') as { path?: string }
  try {
    return send(res, 200, 'application/json', JSON.stringify({ path: vanish(state, body.path ?? '') }))
  } catch (error) {
    return send(res, 400, 'application/json', JSON.stringify({ error: (error as Error).message }))
  }
}

type Family = keyof typeof FAMILY_PAGES

/** A request for a family's Series page (or its chapter list), with what each family's answer needs. */
interface FamilyRequest {
  state: FixtureState
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** The Series page's URL, e.g. `http://127.0.0.1:PORT/madara/manga/x/`. */
  base: string
  slug: string
  /** What follows the Series path: `ajax/chapters/`, `chapter-N/`, or nothing. */
  rest: string | undefined
  series: FixtureSeries
}

/** The page paths of FAMILY_PATH: a chapter page is the same for all; the rest is each family's own. */
function familyRoute(state: FixtureState, req: IncomingMessage, res: ServerResponse, url: URL, origin: string): void {
  const match = FAMILY_PATH.exec(url.pathname)
  if (!match) return send(res, 404, 'text/html', '<!DOCTYPE html><title>Not found</title><h1>404</h1>')
  const [, family, slug, rest] = match as unknown as [string, Family, string, string | undefined]
  const base = `${origin}/${family}/manga/${slug}/`
  const series = seriesFor(state, `${family}:${slug}`, slug)
  if (state.vanished.has(`${family}:${slug}`)) return send(res, 404, 'text/html', '<!DOCTYPE html><title>Not found</title><h1>404</h1>')
  if (rest?.startsWith('chapter-')) return send(res, 200, 'text/html', `<!DOCTYPE html><title>${series.title}</title><p>pages</p>`)
  if (rest === 'cover.png') return sendCover(res, `${family}:${slug}`)
  FAMILY_PAGES[family]({ state, req, res, url, base, slug, rest, series })
}

/** Each family of FAMILY_PATH (an imitation, or what goes wrong with one) and how it answers. */
const FAMILY_PAGES = {
  madara: ({ res, base, series }: FamilyRequest) => send(res, 200, 'text/html', madaraPage(base, series)),
  'madara-xhr': ({ req, res, base, slug, rest, series }: FamilyRequest) => {
    if (rest?.startsWith('ajax/chapters') && req.method === 'POST') return send(res, 200, 'text/html', madaraChapterList(base, series))
    return send(res, 200, 'text/html', madaraPage(base, series, { xhr: true, postId: hash(slug) % 10_000 }))
  },
  themesia: ({ res, base, series }: FamilyRequest) => send(res, 200, 'text/html', themesiaPage(base, series)),
  'js-challenge': ({ req, res, base, series }: FamilyRequest) => {
    if (/(?:^|;\s*)fixture_clearance=ok(?:;|$)/.test(req.headers.cookie ?? '')) return send(res, 200, 'text/html', madaraPage(base, series))
    return send(res, 503, 'text/html', challengePage(true), { 'cf-mitigated': 'challenge', server: 'cloudflare' })
  },
  'never-clears': ({ res }: FamilyRequest) =>
    send(res, 403, 'text/html', challengePage(false), { 'cf-mitigated': 'challenge', server: 'cloudflare' }),
  'no-chapters': ({ res, series }: FamilyRequest) => send(res, 200, 'text/html', noChaptersPage(series)),
  broken: ({ res }: FamilyRequest) =>
    send(res, 500, 'text/html', '<!DOCTYPE html><title>500 Internal Server Error</title><h1>Internal Server Error</h1>'),
  hang: hangingPage,
  huge: hugePage,
  leaky: ({ state, res, base, series }: FamilyRequest) => {
    const off = `http://localhost:${state.port()}`
    const extras = `<script src="${off}/leak.js"></script><img src="${off}/leak.png" alt=""><iframe src="${off}/leak-frame"></iframe><script>fetch('${off}/leak-xhr').catch(() => {})</script>`
    return send(res, 200, 'text/html', madaraPage(base, series).replace('</body>', `${extras}</body>`))
  },
  busy: ({ res, base, series }: FamilyRequest) =>
    send(
      res,
      200,
      'text/html',
      madaraPage(base, series).replace('</body>', '<script>setTimeout(function () { for (;;) {} }, 0)</script></body>'),
    ),
  hostile: ({ res, url, base, series }: FamilyRequest) => {
    const attack = url.searchParams.get('attack')
    const to = url.searchParams.get('to')
    if (!isAttack(attack) || !isDestination(to)) return send(res, 400, 'text/plain', 'hostile: give attack= and to=host:port')
    return send(res, 200, 'text/html', madaraPage(base, series).replace('</body>', `${hostileExtras(attack, to)}</body>`))
  },
  'slow-down': slowDownPage,
  encoded: encodedPage,
  gone: ({ res, url }: FamilyRequest) =>
    send(res, url.searchParams.get('status') === '410' ? 410 : 404, 'text/html', '<!DOCTYPE html><title>Not found</title><h1>Gone</h1>'),
  moved: ({ state, res, url, slug }: FamilyRequest) => {
    const status = url.searchParams.get('status') === '308' ? 308 : 301
    res.writeHead(status, { location: `http://localhost:${state.port()}/madara/manga/${slug}/` })
    return void res.end()
  },
  'redirect-off': ({ state, res, slug }: FamilyRequest) => {
    res.writeHead(302, { location: `http://localhost:${state.port()}/madara/manga/${slug}/` })
    return void res.end()
  },
}

/** A response that never ends: its head and the start of a title, then nothing until the server closes. */
function hangingPage({ state, res }: FamilyRequest): void {
  res.writeHead(200, { 'content-type': 'text/html' })
  res.write('<!DOCTYPE html><html><head><title>Slow')
  state.hanging.add(res)
  res.on('close', () => state.hanging.delete(res))
}

/** A body of `hugeBytes`, written as fast as the client reads it. */
function hugePage({ state, res }: FamilyRequest): void {
  res.writeHead(200, { 'content-type': 'text/html' })
  const chunk = `<p>${'x'.repeat(64 * 1024 - 7)}</p>`
  let sent = 0
  const total = state.hugeBytes
  const pump = () => {
    while (sent < total) {
      sent += chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    res.end()
  }
  res.on('error', () => undefined)
  return pump()
}

/** "Too many requests" (429, or 503 with `?status=503`), with a Retry-After in seconds or as a date. */
function slowDownPage({ state, res, url }: FamilyRequest): void {
  const status = url.searchParams.get('status') === '503' ? 503 : 429
  const retry = url.searchParams.get('retry')
  const retryAfter = retry?.startsWith('in-') ? new Date(state.now() + Number(retry.slice(3)) * 1000).toUTCString() : retry
  return send(res, status, 'text/html', '<!DOCTYPE html><title>Too Many Requests</title><h1>Slow down</h1>', {
    date: new Date(state.now()).toUTCString(),
    ...(retryAfter ? { 'retry-after': retryAfter } : {}),
  })
}

/** A Madara page in `?charset=`, declared `?via=` the header, a `<meta>`, a BOM or not at all. */
function encodedPage({ res, url, base, series }: FamilyRequest): void {
  const charset = url.searchParams.get('charset') ?? 'windows-1252'
  if (!isEncodedCharset(charset))
    return send(res, 400, 'text/plain', `encoded: charset is one of ${Object.keys(ENCODED_TITLES).join(', ')}`)
  const via = url.searchParams.get('via') ?? 'header'
  const declared =
    {
      meta: `<meta charset="${charset}">`,
      'http-equiv': `<meta http-equiv="Content-Type" content="text/html; charset=${charset}">`,
    }[via] ?? ''
  const html = madaraPage(base, { ...series, title: ENCODED_TITLES[charset] }).replace('<meta charset="utf-8">', declared)
  const body = encodeAs(charset, html, via === 'bom')
  res.writeHead(200, {
    'content-type': via === 'header' ? `text/html; charset=${charset}` : 'text/html',
    'content-length': body.length,
  })
  return void res.end(body)
}

/** The title of the `encoded` page in each encoding: words only that encoding can carry. */
export const ENCODED_TITLES = {
  'windows-1252': 'Café Crème à la Française — Œuvres',
  shift_jis: '狼と香辛料 第二幕',
  'utf-16le': '狼と香辛料 Café',
  'utf-16be': '늑대와 향신료 Café',
} as const
type EncodedCharset = keyof typeof ENCODED_TITLES
const isEncodedCharset = (value: string): value is EncodedCharset => Object.hasOwn(ENCODED_TITLES, value)

let shiftJisTable: Map<string, number[]> | undefined

/** Each character Shift_JIS can carry and its bytes, read off the decoder once. */
function shiftJis(): Map<string, number[]> {
  if (shiftJisTable) return shiftJisTable
  const decoder = new TextDecoder('shift_jis')
  const table = new Map<string, number[]>()
  for (let b = 0; b < 0x80; b++) table.set(String.fromCharCode(b), [b])
  for (let lead = 0x81; lead <= 0xfc; lead++)
    for (let trail = 0x40; trail <= 0xfc; trail++) {
      const c = decoder.decode(Uint8Array.of(lead, trail))
      if (c.length === 1 && c !== '\ufffd' && !table.has(c)) table.set(c, [lead, trail])
    }
  shiftJisTable = table
  return table
}

/** Text in one of the fixture's encodings (Node encodes only UTF-8 and UTF-16LE itself; the others by their decoder's table). */
function encodeAs(charset: EncodedCharset, text: string, bom: boolean): Buffer {
  switch (charset) {
    case 'windows-1252':
      return Buffer.from(
        [...text].map((c) => {
          const high = WINDOWS_1252_HIGH.indexOf(c)
          if (high >= 0) return 0x80 + high
          return c.charCodeAt(0) <= 0xff ? c.charCodeAt(0) : 0x3f
        }),
      )
    case 'shift_jis': {
      const table = shiftJis()
      return Buffer.from([...text].flatMap((c) => table.get(c) ?? [0x3f]))
    }
    case 'utf-16le':
      return Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')])
    case 'utf-16be':
      return Buffer.concat([bom ? Buffer.from([0xfe, 0xff]) : Buffer.alloc(0), Buffer.from(text, 'utf16le').swap16()])
  }
}

/** The hostile pages' helpers: their workers, service worker and popup; `done` and `beat` are just recorded. */
function hostileHelper(res: ServerResponse, url: URL): void {
  const to = url.searchParams.get('to')
  switch (url.pathname) {
    case '/hostile/worker.js':
      if (!isDestination(to)) return send(res, 400, 'text/plain', 'hostile: to=host:port')
      return send(res, 200, 'text/javascript', hostileWorker(url.searchParams.get('attack') ?? '', to))
    case '/hostile/sw.js':
      if (!isDestination(to)) return send(res, 400, 'text/plain', 'hostile: to=host:port')
      return send(res, 200, 'text/javascript', hostileServiceWorker(to))
    case '/hostile/popup/':
      return send(res, 200, 'text/html', hostilePopup())
    default:
      return send(res, 204, 'text/plain', '')
  }
}

/** A Series' cover (cover-images.ts): a PNG made from its key. */
function sendCover(res: ServerResponse, key: string): void {
  const png = coverPng(key)
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length })
  res.end(png)
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(body), ...headers })
  res.end(body)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString()
      if (body.length > 64 * 1024) req.destroy()
    })
    req.on('end', () => resolve(body))
    req.on('error', reject)
  })
}

function titleOf(slug: string): string {
  return slug
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ')
}

function hash(s: string): number {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return h >>> 0
}

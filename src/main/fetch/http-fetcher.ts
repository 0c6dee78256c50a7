/**
 * The HTTP fetcher: a timeout over the whole exchange, a body-size cap, an honest User-Agent, and redirects
 * followed only within the Site's host pin. Challenges are recognised and reported as refused, and so is a
 * Site asking to be left alone (429, or 503 with Retry-After). Bodies are decoded in their own encoding.
 */
import { isPinned, parseUrl, type PageRequest, type Site } from '../sites/site'
import { challengeReason } from './challenge'
import { decodeBody } from './encoding'
import type { Fetcher, FetchResult } from './fetcher'
import { retryAfterMs } from './retry-after'
import { siteDate } from './site-clock'
import { USER_AGENT } from './user-agent'

export interface HttpFetcherOptions {
  timeoutMs?: number
  maxBodyBytes?: number
  maxRedirects?: number
  userAgent?: string
  /** The wall clock, for a Retry-After given as a date by a response without its own Date (default Date.now). */
  now?: () => number
}

export const HTTP_DEFAULTS = { timeoutMs: 20_000, maxBodyBytes: 5 * 1024 * 1024, maxRedirects: 5 } as const

/** What one fetcher was built with, held together for the steps of an exchange. */
interface HttpSettings {
  timeoutMs: number
  maxBodyBytes: number
  maxRedirects: number
  userAgent: string
  now: () => number
}

export function createHttpFetcher(options: HttpFetcherOptions = {}): Fetcher {
  const settings: HttpSettings = {
    timeoutMs: options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
    maxRedirects: options.maxRedirects ?? HTTP_DEFAULTS.maxRedirects,
    userAgent: options.userAgent ?? USER_AGENT,
    now: options.now ?? Date.now,
  }

  return {
    kind: 'http',
    async fetch(request: PageRequest, site: Site, signal?: AbortSignal): Promise<FetchResult> {
      const timeout = AbortSignal.timeout(settings.timeoutMs)
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
      let current: PageRequest = request
      try {
        for (let hop = 0; ; hop++) {
          const step = await exchange(current, hop, site, settings, combined)
          if (step.kind !== 'redirect') return step
          current = step.next
        }
      } catch (error) {
        if (signal?.aborted) return { kind: 'error', reason: 'aborted' }
        if (timeout.aborted) return { kind: 'error', reason: `timed out after ${settings.timeoutMs} ms` }
        return { kind: 'error', reason: `transport: ${describe(error)}` }
      }
    },
  }
}

/** One hop of an exchange: the fetcher's answer, or the request a redirect on the pin leads to. */
type Hop = FetchResult | { kind: 'redirect'; next: PageRequest }

/** Sends one request (on the pin, redirects not followed) and reads what came back. */
async function exchange(current: PageRequest, hop: number, site: Site, settings: HttpSettings, signal: AbortSignal): Promise<Hop> {
  const url = parseUrl(current.url)
  if (!url || !isPinned(site, url)) return { kind: 'error', reason: `refused to fetch off the host pin: ${current.url}` }
  const response = await fetch(url, {
    method: current.method,
    headers: {
      'User-Agent': settings.userAgent,
      Accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8',
      'Accept-Language': 'en',
      ...current.headers,
    },
    ...(current.method === 'POST' ? { body: current.body ?? '' } : {}),
    redirect: 'manual',
    signal,
  })
  if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
    return followRedirect(response, url, current, hop, site, settings.maxRedirects)
  }
  return readResponse(response, url, settings)
}

/** The request a redirect leads to, when it stays on the pin and within the redirect limit. */
async function followRedirect(
  response: Response,
  url: URL,
  current: PageRequest,
  hop: number,
  site: Site,
  maxRedirects: number,
): Promise<Hop> {
  await response.body?.cancel()
  const next = parseUrl(response.headers.get('location')!, url)
  if (!next || !isPinned(site, next)) {
    const reason = `redirect off the host pin to ${next?.host ?? 'an invalid URL'}`
    // A permanent one to another http(s) host may be the Site moving: said, never followed (ADR 0112).
    const permanent = (response.status === 301 || response.status === 308) && next && /^https?:$/.test(next.protocol) && !next.username
    return permanent
      ? { kind: 'error', reason: `${reason} (HTTP ${response.status}, permanent)`, movedTo: next.origin }
      : { kind: 'error', reason }
  }
  if (hop >= maxRedirects) return { kind: 'error', reason: `more than ${maxRedirects} redirects` }
  const keepsMethod = response.status === 307 || response.status === 308
  const request: PageRequest = keepsMethod ? { ...current, url: next.href } : { url: next.href, method: 'GET', headers: current.headers }
  return { kind: 'redirect', next: request }
}

/** A final response as the fetcher's answer: the page, or a refusal (a challenge, or the Site asking for rest). */
async function readResponse(response: Response, url: URL, settings: HttpSettings): Promise<FetchResult> {
  const bytes = await readCapped(response, settings.maxBodyBytes)
  if (bytes === null) return { kind: 'error', reason: `body larger than ${settings.maxBodyBytes} bytes` }
  // In the page's own encoding (a BOM, the charset, a <meta>), never assumed UTF-8.
  const body = decodeBody(bytes, response.headers.get('content-type') ?? '').text
  const refused = challengeReason({ status: response.status, header: (n) => response.headers.get(n), body })
  const retryAfter = retryAfterMs(response.headers.get('retry-after'), settings.now(), response.headers.get('date'))
  const asked = retryAfter === undefined ? {} : { retryAfterMs: retryAfter }
  if (refused) return { kind: 'refused', reason: refused, ...asked }
  // "Too many requests", or "unavailable, come back later": the Site asks to be left alone — a refusal,
  // never sooner than it asked (docs/adr/0047-retry-after-and-encodings.md).
  if (response.status === 429 || (response.status === 503 && retryAfter !== undefined)) {
    const header = response.headers.get('retry-after')
    return {
      kind: 'refused',
      reason: `HTTP ${response.status}${header ? ` with Retry-After: ${header.slice(0, 40)}` : ''}`,
      ...asked,
    }
  }
  const date = siteDate(response.headers.get('date'), response.headers.get('age'))
  return {
    kind: 'page',
    page: {
      url: url.href,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      body,
      ...(date === undefined ? {} : { date }),
    },
  }
}

/** The body's bytes, or null when it is longer than the cap (the rest is never read). */
export async function readCapped(response: Response, cap: number): Promise<Buffer | null> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > cap) {
    await response.body?.cancel()
    return null
  }
  if (!response.body) return Buffer.alloc(0)
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > cap) {
      await reader.cancel()
      return null
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error)
}

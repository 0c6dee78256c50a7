/**
 * The HTTP fetcher: a timeout over the whole exchange, a body-size cap, an honest User-Agent, and redirects
 * followed only within the Site's host pin. Challenges are recognised and reported as refused.
 */
import { isPinned, parseUrl, type PageRequest, type Site } from '../sites/site'
import { challengeReason } from './challenge'
import type { Fetcher, FetchResult } from './fetcher'
import { USER_AGENT } from './user-agent'

export interface HttpFetcherOptions {
  timeoutMs?: number
  maxBodyBytes?: number
  maxRedirects?: number
  userAgent?: string
}

export const HTTP_DEFAULTS = { timeoutMs: 20_000, maxBodyBytes: 5 * 1024 * 1024, maxRedirects: 5 } as const

export function createHttpFetcher(options: HttpFetcherOptions = {}): Fetcher {
  const timeoutMs = options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs
  const maxBodyBytes = options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes
  const maxRedirects = options.maxRedirects ?? HTTP_DEFAULTS.maxRedirects
  const userAgent = options.userAgent ?? USER_AGENT

  return {
    kind: 'http',
    async fetch(request: PageRequest, site: Site, signal?: AbortSignal): Promise<FetchResult> {
      const timeout = AbortSignal.timeout(timeoutMs)
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
      let current: PageRequest = request
      try {
        for (let hop = 0; ; hop++) {
          const url = parseUrl(current.url)
          if (!url || !isPinned(site, url)) return { kind: 'error', reason: `refused to fetch off the host pin: ${current.url}` }
          const response = await fetch(url, {
            method: current.method,
            headers: {
              'User-Agent': userAgent,
              Accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8',
              'Accept-Language': 'en',
              ...current.headers,
            },
            ...(current.method === 'POST' ? { body: current.body ?? '' } : {}),
            redirect: 'manual',
            signal: combined,
          })
          if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
            await response.body?.cancel()
            const next = parseUrl(response.headers.get('location')!, url)
            if (!next || !isPinned(site, next)) {
              return { kind: 'error', reason: `redirect off the host pin to ${next?.host ?? 'an invalid URL'}` }
            }
            if (hop >= maxRedirects) return { kind: 'error', reason: `more than ${maxRedirects} redirects` }
            const keepsMethod = response.status === 307 || response.status === 308
            current = keepsMethod ? { ...current, url: next.href } : { url: next.href, method: 'GET', headers: current.headers }
            continue
          }
          const body = await readCapped(response, maxBodyBytes)
          if (body === null) return { kind: 'error', reason: `body larger than ${maxBodyBytes} bytes` }
          const refused = challengeReason({ status: response.status, header: (n) => response.headers.get(n), body })
          if (refused) return { kind: 'refused', reason: refused }
          return {
            kind: 'page',
            page: { url: url.href, status: response.status, contentType: response.headers.get('content-type') ?? '', body },
          }
        }
      } catch (error) {
        if (signal?.aborted) return { kind: 'error', reason: 'aborted' }
        if (timeout.aborted) return { kind: 'error', reason: `timed out after ${timeoutMs} ms` }
        return { kind: 'error', reason: `transport: ${describe(error)}` }
      }
    },
  }
}

/** The body as text, or null when it is longer than the cap (the rest is never read). */
async function readCapped(response: Response, cap: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > cap) {
    await response.body?.cancel()
    return null
  }
  if (!response.body) return ''
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
  return Buffer.concat(chunks).toString('utf8')
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error)
}

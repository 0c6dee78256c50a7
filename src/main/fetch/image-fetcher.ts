/**
 * Fetches one cover image (docs/adr/0151-a-cover-is-one-paced-request.md): plain HTTP, the app's User-Agent, the
 * Series' page as Referer (many Sites refuse images asked for from elsewhere), every hop on the Site's pin or one
 * of its image hosts, a size cap, and the type told by the bytes. A refusal (429, 503 with Retry-After, a
 * challenge) is a refusal like a check's: the Lane backs off.
 */
import { isCoverHost, parseUrl, type Site } from '../sites/site'
import { MAX_COVER_BYTES, sniffImage, type CoverType } from '../store/covers'
import { readCapped } from './http-fetcher'
import { retryAfterMs } from './retry-after'
import { USER_AGENT } from './user-agent'

export type ImageResult =
  | { kind: 'image'; bytes: Buffer; type: CoverType }
  | { kind: 'refused'; reason: string; retryAfterMs?: number }
  /** No image to keep (any other status, not an image, too large, off the hosts, a transport error). */
  | { kind: 'error'; reason: string }

export interface ImageFetchOptions {
  referer: string
  signal?: AbortSignal
  timeoutMs?: number
  maxBytes?: number
  now?: () => number
}

const MAX_REDIRECTS = 3

export type ImageFetcher = (url: string, site: Site, options: ImageFetchOptions) => Promise<ImageResult>

export const fetchImage: ImageFetcher = async (url, site, options) => {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 20_000)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  try {
    let current = url
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const target = parseUrl(current)
      if (!target || !isCoverHost(site, target))
        return { kind: 'error', reason: `not the Site's host nor an image host of it: ${current.slice(0, 200)}` }
      const response = await fetch(target, {
        headers: {
          'User-Agent': USER_AGENT,
          Accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9',
          Referer: options.referer,
        },
        redirect: 'manual',
        signal,
      })
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel()
        current = new URL(location, target).href
        continue
      }
      return await imageOf(response, options)
    }
    return { kind: 'error', reason: `more than ${MAX_REDIRECTS} redirects` }
  } catch (error) {
    if (options.signal?.aborted) return { kind: 'error', reason: 'aborted' }
    if (timeout.aborted) return { kind: 'error', reason: 'timed out' }
    return { kind: 'error', reason: `transport: ${(error as Error).message}` }
  }
}

async function imageOf(response: Response, options: ImageFetchOptions): Promise<ImageResult> {
  const retryAfter = retryAfterMs(response.headers.get('retry-after'), (options.now ?? Date.now)(), response.headers.get('date'))
  if (response.status === 429 || (response.status === 503 && retryAfter !== undefined)) {
    await response.body?.cancel()
    return {
      kind: 'refused',
      reason: `HTTP ${response.status} for a cover`,
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    }
  }
  if (response.status !== 200) {
    await response.body?.cancel()
    return { kind: 'error', reason: `HTTP ${response.status}` }
  }
  const cap = options.maxBytes ?? MAX_COVER_BYTES
  const bytes = await readCapped(response, cap)
  if (bytes === null) return { kind: 'error', reason: `larger than ${cap} bytes` }
  const type = sniffImage(bytes)
  return type ? { kind: 'image', bytes, type } : { kind: 'error', reason: 'not an image (PNG, JPEG, GIF, WebP or AVIF)' }
}

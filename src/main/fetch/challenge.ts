/**
 * Anti-bot challenge recognition (docs/sites.md#anti-bot-challenges), shared by the HTTP fetcher and both
 * browser fetchers. Pure.
 */
const CHALLENGE_TITLE =
  /^\s*(just a moment(\.\.\.|…)?|attention required! \| cloudflare|verifying(\.\.\.|…)?|ddos-guard|access denied( \| .*cloudflare.*)?)\s*$/i

const MARKERS = [
  'id="challenge-error-title"',
  'id="challenge-error-text"',
  'id="challenge-form"',
  '/cdn-cgi/challenge-platform/',
  'window._cf_chl_opt',
  'cf-browser-verification',
  'cf-turnstile-response',
  'class="cf-error-code"',
]

/** The <title> of an HTML document, or ''. */
export function htmlTitle(html: string): string {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html.slice(0, 64 * 1024))
  return match ? decodeEntities(match[1]!).replace(/\s+/g, ' ').trim() : ''
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39|hellip);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", hellip: '…' })[e] ?? '',
  )
}

/** Whether a page (title and markup, as a browser sees it) is a challenge or a hard block. */
export function isChallengePage(title: string, html: string): boolean {
  if (CHALLENGE_TITLE.test(title)) return true
  const head = html.slice(0, 256 * 1024)
  return MARKERS.some((marker) => head.includes(marker))
}

export interface ResponseFacts {
  status: number
  header(name: string): string | null
  body: string
}

/**
 * Why a plain HTTP response is a challenge, or null: `cf-mitigated: challenge`; a challenge title (any
 * status); or a 403/429/503 carrying challenge markers or a DDoS-Guard/Cloudflare server.
 */
export function challengeReason(response: ResponseFacts): string | null {
  if (response.header('cf-mitigated')?.toLowerCase() === 'challenge') return 'cf-mitigated: challenge'
  const title = htmlTitle(response.body)
  if (CHALLENGE_TITLE.test(title)) return `challenge page "${title}"`
  if ([403, 429, 503].includes(response.status)) {
    const head = response.body.slice(0, 256 * 1024)
    const marker = MARKERS.find((m) => head.includes(m))
    if (marker) return `HTTP ${response.status} with challenge marker ${marker}`
    const server = response.header('server')?.toLowerCase() ?? ''
    if (server.includes('ddos-guard')) return `HTTP ${response.status} from ddos-guard`
  }
  return null
}

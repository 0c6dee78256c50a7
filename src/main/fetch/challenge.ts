/**
 * Anti-bot challenge recognition (docs/sites.md#anti-bot-challenges), shared by the HTTP fetcher and both
 * browser fetchers. Pure.
 */
import { collapseWhitespace } from '../../shared/chapter-number'

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

/** The part of a document a title is looked for in, and the longest title kept. */
const TITLE_HEAD = 64 * 1024
export const MAX_CHALLENGE_TITLE = 300

/**
 * The <title> of an HTML document, or '': the text between the first `<title…>` in the first 64 KB and the
 * `</title>` after it, entities decoded, white space collapsed, at most `MAX_CHALLENGE_TITLE` characters.
 * Found by three forward searches for fixed text, each one scan: the lazy regular expression this replaced
 * cost quadratic time on a page of `<title>` repeated (about a second for 64 KB), on every response.
 */
export function htmlTitle(html: string): string {
  const head = html.slice(0, TITLE_HEAD)
  const open = find(head, /<title/gi, 0)
  if (open === -1) return ''
  const start = head.indexOf('>', open + 6)
  if (start === -1) return ''
  const end = find(head, /<\/title>/gi, start + 1)
  if (end === -1) return ''
  return collapseWhitespace(decodeEntities(head.slice(start + 1, end)), MAX_CHALLENGE_TITLE)
}

/** Where a fixed pattern (a `g` regular expression with no quantifier) first matches at or after `from`, or -1. */
function find(text: string, literal: RegExp, from: number): number {
  literal.lastIndex = from
  return literal.exec(text)?.index ?? -1
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39|hellip);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", hellip: '…' })[e] ?? '',
  )
}

/**
 * Whether a title names a challenge. The title is collapsed and capped first: the pattern's `.*cloudflare.*`
 * costs time quadratic in what it is given, and a browser's `document.title` can be as long as a page makes it.
 */
function isChallengeTitle(title: string): boolean {
  return CHALLENGE_TITLE.test(collapseWhitespace(title, MAX_CHALLENGE_TITLE))
}

/** Whether a page (title and markup, as a browser sees it) is a challenge or a hard block. */
export function isChallengePage(title: string, html: string): boolean {
  if (isChallengeTitle(title)) return true
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
  if (isChallengeTitle(title)) return `challenge page "${title}"`
  if ([403, 429, 503].includes(response.status)) {
    const head = response.body.slice(0, 256 * 1024)
    const marker = MARKERS.find((m) => head.includes(m))
    if (marker) return `HTTP ${response.status} with challenge marker ${marker}`
    const server = response.header('server')?.toLowerCase() ?? ''
    if (server.includes('ddos-guard')) return `HTTP ${response.status} from ddos-guard`
  }
  return null
}

/**
 * MangaHub (mangahub.io and ten sister sites: 11 known English sources, one site each). A Series is
 * `/manga/{slug}` (a backup stores the same path); its chapters come from the group's GraphQL API on another host,
 * `POST https://api.mghcdn.com/graphql` with `manga(x: {source}, slug: "{slug}") { title chapters { number title
 * date } }`, where `{source}` is the site's own code (mangahub.io m01, mangafox.fun mf01, …). The answer is
 * `data.manga.chapters[]` with `number` (a float: 12, 12.5), `title` and `date` (ISO); a non-empty `errors` (the
 * API's "rate limit" or "api key") is a failure. The chapter's name is its title when the title holds its number,
 * else "Chapter {number} - {title}" or "Chapter {number}"; its page is `/chapter/{slug}/chapter-{number}`. The
 * extension marks no chapter paid or locked, so none is left out. The extension sends the `mhub_access` cookie
 * the site sets as `x-mhub-access` when it has one; this adapter has no cookie to send
 * (docs/adr/0226-mangahub-adapter.md). The API's host is on the pin of every MangaHub Site. Facts from the extension
 * repository's MangaHub theme (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read to write our own query (only
 * the fields read) and answers.
 */
import { parseReleaseDate } from '../dates'
import { MAX_LABEL, absoluteHref, boundedRows, cleanText, distinctChapters } from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'
import { readJson } from './json'

/** `/manga/{slug}`: lowercase letters, digits, `-` and `_` (nothing a GraphQL string would need escaped). */
export const MANGAHUB_ID_PATTERN = /^\/manga\/([a-z0-9][a-z0-9_-]{0,199})\/?(?:[?#]|$)/

/** The API every MangaHub site's list comes from. */
export const MANGAHUB_API = 'https://api.mghcdn.com'

/** The source code (`x:`) each site asks with, by its host without "www.". */
const SOURCES: Readonly<Record<string, string>> = {
  'mangahub.io': 'm01',
  'mangaonline.fun': 'm02',
  'mangatoday.fun': 'm03',
  'mangafox.fun': 'mf01',
  'mangahere.onl': 'mh01',
  'onemanga.info': 'mh01',
  'mangakakalot.fun': 'mn01',
  '1manga.co': 'mn03',
  'manganel.me': 'mn05',
  'mangareader.site': 'mr01',
  'mangapanda.onl': 'mr02',
}

/** A chapter number as the API may write it (a JSON number or its text): digits, one optional decimal part. */
const NUMBER = /^\d{1,6}(?:\.\d{1,4})?$/

interface HubChapter {
  number?: unknown
  title?: unknown
  date?: unknown
}

function sourceOf(url: URL): string {
  const source = SOURCES[url.hostname.toLowerCase().replace(/^www\./, '')]
  if (source === undefined) throw new AdapterError(`MangaHub: no source code is known for ${url.hostname}`)
  return source
}

function slugOf(url: URL): string {
  const m = MANGAHUB_ID_PATTERN.exec(url.pathname)
  if (!m) throw new AdapterError(`not a MangaHub Series URL: ${url.pathname}`)
  return m[1]!
}

/** The number as written: 12 and 12.0 are "12", 12.5 is "12.5". */
function numberText(raw: unknown): string | null {
  const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
  if (!NUMBER.test(text)) return null
  return String(Number(text))
}

function labelOf(title: string, number: string): string {
  if (title.includes(number)) return title
  const name = `Chapter ${number}`
  return title ? `${name} - ${title}` : name
}

function chapterOf(row: HubChapter, slug: string, origin: string): Chapter | null {
  const number = numberText(row.number)
  if (number === null) return null
  // The title, white space folded, cut so the whole stays a label (read no further than that needs).
  const room = MAX_LABEL - `Chapter ${number} - `.length
  const title = typeof row.title === 'string' ? cleanText(row.title.slice(0, room * 4), room) : ''
  const chapter: Chapter = {
    number: Number(number),
    label: labelOf(title, number),
    url: absoluteHref(`/chapter/${slug}/chapter-${number}`, origin),
  }
  const released = typeof row.date === 'string' ? parseReleaseDate(row.date.slice(0, 64)) : null
  if (released) chapter.released = released
  return chapter
}

export function mangaHubAdapter(): Adapter {
  return {
    recipe: { family: 'mangahub' },
    request(seriesUrl) {
      const query = `{ manga(x: ${sourceOf(seriesUrl)}, slug: "${slugOf(seriesUrl)}") { title chapters { number title date } } }`
      return {
        url: `${MANGAHUB_API}/graphql`,
        method: 'POST',
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          Origin: seriesUrl.origin,
          Referer: `${seriesUrl.origin}/`,
        },
        body: JSON.stringify({ query }),
      }
    },
    read(page, seriesUrl) {
      const slug = slugOf(seriesUrl)
      const json = readJson(page.body, 'MangaHub: the chapter list') as {
        data?: { manga?: { title?: unknown; chapters?: unknown } | null } | null
        errors?: unknown
      } | null
      if (Array.isArray(json?.errors) && json.errors.length) {
        const first: unknown = json.errors[0]
        const message = first && typeof first === 'object' && 'message' in first ? String(first.message).slice(0, 120) : ''
        throw new AdapterError(`MangaHub: the API answered an error${message ? `: ${message}` : ''}`)
      }
      const manga = json?.data?.manga
      if (!manga || typeof manga !== 'object') throw new AdapterError('MangaHub: the answer names no manga')
      const rows = manga.chapters ?? []
      if (!Array.isArray(rows)) throw new AdapterError('MangaHub: the answer has no chapters array')
      const chapters = distinctChapters(
        boundedRows(rows as Array<HubChapter | null>).map((row) =>
          row && typeof row === 'object' ? chapterOf(row, slug, seriesUrl.origin) : null,
        ),
      )
      const title = typeof manga.title === 'string' ? cleanText(manga.title.slice(0, MAX_LABEL * 4)) : ''
      return { kind: 'parsed', result: title ? { title, chapters } : { chapters } }
    },
  }
}

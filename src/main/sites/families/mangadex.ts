/**
 * MangaDex through its public JSON API (docs/sites.md#mangadex). A Series is `https://mangadex.org/title/<uuid>/<slug>`;
 * its chapters come from `GET {api}/manga/<uuid>/feed`, newest first. `lastChapter` on the manga is the
 * *final* chapter, not the newest, so it is never read. A chapter with an `externalUrl` and 0 pages is not
 * readable on the Site and is skipped. A 204 is an empty list. The feed is asked for the Site's `languages`
 * (default English) and the read keeps only chapters in those languages, so a chapter in another language
 * never becomes the Latest Chapter even when the API answers with more than was asked.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { AdapterError, type Adapter, type Chapter } from '../site'
import { parseReleaseDate } from '../dates'
import { MAX_LABEL, MAX_TITLE, boundedRows, cleanText, distinctChapters } from '../html'

export const MANGADEX_ID_PATTERN = /\/title\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/

export interface MangaDexOptions {
  /** The API's base URL; the real one is https://api.mangadex.org. */
  apiBase: string
  /** Language codes as MangaDex writes them ("en", "pt-br"); default `DEFAULT_LANGUAGES`. */
  languages?: readonly string[]
}

export const DEFAULT_LANGUAGES: readonly string[] = ['en']

const CONTENT_RATINGS = ['safe', 'suggestive', 'erotica', 'pornographic']

export function mangaDexAdapter(options: MangaDexOptions): Adapter {
  const languages = options.languages?.length ? options.languages : DEFAULT_LANGUAGES
  // Of unknown: the feed's language is any JSON, and one that is not a string is in no set of strings either.
  const wanted: ReadonlySet<unknown> = new Set(languages)
  return {
    recipe: { family: 'mangadex', apiBase: options.apiBase, languages: options.languages && [...options.languages] },
    request(seriesUrl) {
      const id = MANGADEX_ID_PATTERN.exec(seriesUrl.pathname)?.[1]
      if (!id) throw new AdapterError(`not a MangaDex title URL: ${seriesUrl.pathname}`)
      const query = new URLSearchParams()
      for (const language of languages) query.append('translatedLanguage[]', language)
      query.append('order[volume]', 'desc')
      query.append('order[chapter]', 'desc')
      query.append('limit', '100')
      query.append('includeFuturePublishAt', '0')
      query.append('includeEmptyPages', '0')
      for (const rating of CONTENT_RATINGS) query.append('contentRating[]', rating)
      query.append('includes[]', 'manga')
      return {
        url: `${options.apiBase.replace(/\/$/, '')}/manga/${id}/feed?${query}`,
        method: 'GET',
        headers: { Accept: 'application/json' },
      }
    },
    read(page, seriesUrl) {
      if (page.status === 204 || page.body.trim() === '') return { kind: 'parsed', result: { chapters: [] } }
      let json: unknown
      try {
        json = JSON.parse(page.body)
      } catch {
        throw new AdapterError('MangaDex feed is not JSON')
      }
      const data = (json as { data?: unknown }).data
      if (!Array.isArray(data)) throw new AdapterError('MangaDex feed has no data array')
      let title: string | undefined
      const chapters = boundedRows(data).map((item): Chapter | null => {
        const chapter = item as FeedChapter
        title ??= mangaTitle(chapter)
        const a = chapter?.attributes
        if (!a || typeof a.chapter !== 'string') return null
        if (!wanted.has(a.translatedLanguage)) return null
        if (a.externalUrl && !a.pages) return null
        const number = parseChapterNumber(a.chapter)
        if (number === null) return null
        const volume = typeof a.volume === 'string' ? cleanText(a.volume, 20) : ''
        const name = typeof a.title === 'string' ? cleanText(a.title, MAX_LABEL) : ''
        const label = cleanText(
          [volume ? `Vol. ${volume}` : '', `Ch. ${cleanText(a.chapter, 40)}`, name ? `- ${name}` : ''].join(' '),
          MAX_LABEL,
        )
        const id = typeof chapter.id === 'string' && chapter.id.length <= 64 ? chapter.id : ''
        const released = parseReleaseDate(typeof a.publishAt === 'string' ? a.publishAt : null)
        return { number, label, url: id ? `${seriesUrl.origin}/chapter/${encodeURIComponent(id)}` : '', released: released ?? undefined }
      })
      title ??= titleFromSlug(seriesUrl)
      return { kind: 'parsed', result: { title, chapters: distinctChapters(chapters) } }
    },
  }
}

interface FeedChapter {
  id?: unknown
  attributes?: {
    chapter?: unknown
    volume?: unknown
    title?: unknown
    translatedLanguage?: unknown
    publishAt?: unknown
    pages?: number
    externalUrl?: string | null
  }
  relationships?: Array<{ type?: string; attributes?: { title?: Record<string, string> } }>
}

function mangaTitle(chapter: FeedChapter): string | undefined {
  const manga = chapter?.relationships?.find((r) => r?.type === 'manga')
  const titles = manga?.attributes?.title
  if (!titles || typeof titles !== 'object') return undefined
  const title = titles.en ?? Object.values(titles)[0]
  return typeof title === 'string' ? cleanText(title, MAX_TITLE) || undefined : undefined
}

function titleFromSlug(seriesUrl: URL): string | undefined {
  const slug = seriesUrl.pathname.split('/')[3]
  if (!slug) return undefined
  let decoded: string
  try {
    decoded = decodeURIComponent(slug)
  } catch {
    return undefined
  }
  const words = decoded.split('-').filter(Boolean)
  return cleanText(words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' '), MAX_TITLE) || undefined
}

/**
 * Kagane (kagane.to; one Site the extension lists once per language: 18 known sources). A Series is
 * `/series/{id}`; the Site's API on the same host, `GET /api/v2/series/{id}`, answers the Series with its
 * `title` and `series_books[]` (the chapters, oldest first): `book_id` (its page is `/series/{id}/reader/{book_id}`),
 * `title`, `chapter_no` and `volume_no` (strings, may be empty), `sort_no` (the Site's order) and `created_at`
 * (`2026-11-28T10:15:00`). The number is `chapter_no`, else read from the title, else `sort_no`. Facts from the
 * extension repository's kagane source (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read to write our own
 * answers.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { parseReleaseDate } from '../dates'
import { MAX_LABEL, MAX_TITLE, boundedRows, cleanText, distinctChapters } from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'
import { readJson } from './json'

export const KAGANE_ID_PATTERN = /^\/series\/([A-Za-z0-9_-]{1,100})\/?(?:[?#]|$)/

const BOOK_ID = /^[A-Za-z0-9_-]{1,100}$/

interface KaganeBook {
  book_id?: unknown
  title?: unknown
  chapter_no?: unknown
  volume_no?: unknown
  sort_no?: unknown
  created_at?: unknown
}

function seriesIdOf(url: URL): string {
  const id = KAGANE_ID_PATTERN.exec(url.pathname)?.[1]
  if (!id) throw new AdapterError(`not a Kagane Series URL: ${url.pathname}`)
  return id
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

function numberOf(book: KaganeBook, seriesTitle: string | undefined): number | null {
  const chapterNo = text(book.chapter_no)
  if (chapterNo) return parseChapterNumber(`Chapter ${chapterNo}`)
  const fromTitle = parseChapterNumber(text(book.title), seriesTitle)
  if (fromTitle !== null) return fromTitle
  return typeof book.sort_no === 'number' && Number.isFinite(book.sort_no) && book.sort_no >= 0 ? book.sort_no : null
}

function chapterOf(book: KaganeBook, seriesUrl: URL, seriesId: string, seriesTitle: string | undefined): Chapter | null {
  const id = text(book.book_id)
  const number = numberOf(book, seriesTitle)
  if (!BOOK_ID.test(id) || number === null) return null
  const numbered = [text(book.volume_no) && `Vol.${text(book.volume_no)}`, text(book.chapter_no) && `Ch.${text(book.chapter_no)}`]
  const label = cleanText(text(book.title) || numbered.filter(Boolean).join(' '), MAX_LABEL) || `Chapter ${number}`
  const released = typeof book.created_at === 'string' ? parseReleaseDate(book.created_at.slice(0, 10)) : null
  return {
    number,
    label,
    url: `${seriesUrl.origin}/series/${seriesId}/reader/${id}`,
    ...(released ? { released } : {}),
  }
}

export function kaganeAdapter(): Adapter {
  return {
    recipe: { family: 'kagane' },
    request: (seriesUrl) => ({
      url: `${seriesUrl.origin}/api/v2/series/${seriesIdOf(seriesUrl)}`,
      method: 'GET',
      headers: { Accept: 'application/json' },
    }),
    read(page, seriesUrl) {
      const seriesId = seriesIdOf(seriesUrl)
      const json = readJson(page.body, 'Kagane: the Series') as { title?: unknown; series_books?: unknown } | null
      if (!json || typeof json !== 'object' || Array.isArray(json)) throw new AdapterError('Kagane: the answer is no Series')
      const books = json.series_books ?? []
      if (!Array.isArray(books)) throw new AdapterError('Kagane: the answer has no series_books array')
      const title = cleanText(text(json.title), MAX_TITLE) || undefined
      // Oldest first: newest first, so that a repeated number keeps its newest row.
      const chapters = distinctChapters(
        boundedRows(books as Array<KaganeBook | null>)
          .reverse()
          .map((book) => (book && typeof book === 'object' ? chapterOf(book, seriesUrl, seriesId, title) : null)),
      )
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}

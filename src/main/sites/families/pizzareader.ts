/**
 * PizzaReader (10 known sources, Italian scanlation readers). A Series is `/comics/{slug}`; its chapters come
 * from the site's JSON API on the same host, `GET /api/comics/{slug}`, as `comic.chapters[]` with `chapter`
 * and `subchapter` (5 and 1 are 5.1), `full_title` the name, `url` the chapter's page and `published_on`
 * ("2026-11-28T10:15:00.000000", the site's local time: read to the day); `comic.title` is the Series' title.
 * Facts from the extension repository's PizzaReader theme, read to write our own answers.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { parseReleaseDate } from '../dates'
import { MAX_LABEL, MAX_TITLE, absoluteHref, boundedRows, cleanText, distinctChapters } from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'
import { readJson } from './json'

export const PIZZAREADER_ID_PATTERN = /^\/comics\/([^/?#]+)/

interface PizzaChapter {
  chapter?: unknown
  subchapter?: unknown
  full_title?: unknown
  url?: unknown
  published_on?: unknown
}

export function pizzaReaderAdapter(): Adapter {
  return {
    recipe: { family: 'pizzareader' },
    request(seriesUrl) {
      const slug = PIZZAREADER_ID_PATTERN.exec(seriesUrl.pathname)?.[1]
      if (!slug) throw new AdapterError(`not a PizzaReader comic URL: ${seriesUrl.pathname}`)
      return { url: `${seriesUrl.origin}/api/comics/${slug}`, method: 'GET', headers: { Accept: 'application/json' } }
    },
    read(page, seriesUrl) {
      const json = readJson(page.body, 'PizzaReader: the comic') as { comic?: { title?: unknown; chapters?: unknown } } | null
      const list = json?.comic?.chapters ?? []
      if (!Array.isArray(list)) throw new AdapterError('PizzaReader: the comic has no chapters array')
      const title = typeof json?.comic?.title === 'string' ? cleanText(json.comic.title, MAX_TITLE) || undefined : undefined
      const chapters = distinctChapters(boundedRows(list as PizzaChapter[]).map((c) => chapterOf(c, title, seriesUrl)))
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}

function chapterOf(c: PizzaChapter, title: string | undefined, seriesUrl: URL): Chapter | null {
  const label = typeof c.full_title === 'string' ? cleanText(c.full_title, MAX_LABEL) : ''
  const whole = Number.isSafeInteger(c.chapter) && (c.chapter as number) >= 0 ? (c.chapter as number) : null
  const sub = Number.isSafeInteger(c.subchapter) && (c.subchapter as number) > 0 ? Number(`0.${c.subchapter as number}`) : 0
  const number = whole !== null ? whole + sub : parseChapterNumber(label, title)
  if (number === null || typeof c.url !== 'string') return null
  const released = typeof c.published_on === 'string' ? parseReleaseDate(c.published_on.slice(0, 10)) : null
  return {
    number,
    label: label || `Chapter ${number}`,
    url: absoluteHref(c.url, seriesUrl.origin),
    released: released ?? undefined,
  }
}

/**
 * Komiic (komiic.com, mirror komiic.cc: 1 known source, Chinese). A Series is `/comic/{id}`; its chapters come
 * from the site's GraphQL endpoint on the same host, `POST /api/query` with
 * `chaptersByComicId(comicId) { id serial type dateCreated }`, answered as `data.chaptersByComicId[]`: `type`
 * "chapter" (its number `serial`, named "第 {serial} 話") or "book" (a volume: not a chapter, left out), `dateCreated`
 * (ISO); a chapter's page is `/comic/{id}/chapter/{chapterId}/images/all`; a non-empty `errors` is a failure. Facts
 * from the extension repository's komiic source (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read to write our
 * own query (only the fields read) and answers.
 */
import { parseReleaseDate } from '../dates'
import { absoluteHref, boundedRows, distinctChapters } from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'
import { readJson } from './json'

export const KOMIIC_ID_PATTERN = /^\/comic\/(\d{1,12})\/?(?:[?#]|$)/

const QUERY = 'query chapters($comicId: ID!) { chaptersByComicId(comicId: $comicId) { id serial type dateCreated } }'

/** A chapter number as the site writes `serial`: digits, one optional decimal part. */
const SERIAL = /^\d{1,6}(?:\.\d{1,4})?$/
const ID = /^\d{1,12}$/

interface KomiicChapter {
  id?: unknown
  serial?: unknown
  type?: unknown
  dateCreated?: unknown
}

function comicIdOf(url: URL): string {
  const m = KOMIIC_ID_PATTERN.exec(url.pathname)
  if (!m) throw new AdapterError(`not a Komiic Series URL: ${url.pathname}`)
  return m[1]!
}

function chapterOf(row: KomiicChapter, comicId: string, origin: string): Chapter | null {
  if (row.type !== 'chapter' || typeof row.serial !== 'string' || !SERIAL.test(row.serial.trim())) return null
  if (typeof row.id !== 'string' || !ID.test(row.id)) return null
  const serial = row.serial.trim()
  const chapter: Chapter = {
    number: Number(serial),
    label: `第 ${serial} 話`,
    url: absoluteHref(`/comic/${comicId}/chapter/${row.id}/images/all`, origin),
  }
  const released = typeof row.dateCreated === 'string' ? parseReleaseDate(row.dateCreated) : null
  if (released) chapter.released = released
  return chapter
}

export function komiicAdapter(): Adapter {
  return {
    recipe: { family: 'komiic' },
    request(seriesUrl) {
      return {
        url: `${seriesUrl.origin}/api/query`,
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ operationName: 'chapters', query: QUERY, variables: { comicId: comicIdOf(seriesUrl) } }),
      }
    },
    read(page, seriesUrl) {
      const comicId = comicIdOf(seriesUrl)
      const json = readJson(page.body, 'Komiic: the chapter list') as {
        data?: { chaptersByComicId?: unknown } | null
        errors?: unknown
      } | null
      if (Array.isArray(json?.errors) && json.errors.length) throw new AdapterError('Komiic: the chapter list answered errors')
      const rows = json?.data?.chaptersByComicId ?? []
      if (!Array.isArray(rows)) throw new AdapterError('Komiic: the answer has no chaptersByComicId array')
      const chapters = distinctChapters(
        boundedRows(rows as Array<KomiicChapter | null>).map((row) =>
          row && typeof row === 'object' ? chapterOf(row, comicId, seriesUrl.origin) : null,
        ),
      )
      return { kind: 'parsed', result: { chapters } }
    },
  }
}

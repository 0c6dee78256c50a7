/**
 * XCOMIC (xcomic.me, mirror xcomic.net; one Site the extension lists once per language: 108 known sources; mixed
 * content). A Series is `/comic/{id}` or `/comic/{id}-{slug}`; its chapters come from the site's GraphQL endpoint on
 * the same host, `POST /query/` with `get_comic_chapterList_uniqList(select: { comic_id, page, size, sortby:
 * "chapter_desc" })` (one row per chapter number, newest first), answered as
 * `data.get_comic_chapterList_uniqList.items[].data` with `id`, `chaNum` (the chapter; `serial` when absent),
 * `dname` and `title` (its name) and `urlPath` (its page; else `/comic/chapter/{id}`); a non-empty `errors` is a
 * failure. Facts from the extension repository's xcomic source (commit fd4236e034ea55f9df1799bf34b7c713f1a46780),
 * read to write our own query (only the fields read) and answers.
 */
import { MAX_LABEL, absoluteHref, boundedRows, cleanText, distinctChapters } from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'
import { readJson } from './json'

export const XCOMIC_ID_PATTERN = /^\/comic\/([A-Za-z0-9]+)(?:-[^/?#]*)?\/?(?:[?#]|$)/

/** The first page holds the newest chapters; more than a check needs. */
const PAGE_SIZE = 100

const QUERY = `query get_comic_chapterList_uniqList($select: Select_Comic_ChapterList_UniqList) {
  get_comic_chapterList_uniqList(select: $select) {
    items { id data { id serial dname title urlPath chaNum } }
  }
}`

interface XcomicChapter {
  id?: unknown
  serial?: unknown
  dname?: unknown
  title?: unknown
  urlPath?: unknown
  chaNum?: unknown
}

function comicIdOf(url: URL): string {
  const m = XCOMIC_ID_PATTERN.exec(url.pathname)
  if (!m || url.pathname.startsWith('/comic/chapter/')) throw new AdapterError(`not an XCOMIC Series URL: ${url.pathname}`)
  return m[1]!
}

const text = (v: unknown) => (typeof v === 'string' ? v : '')

function chapterOf(data: XcomicChapter, origin: string): Chapter | null {
  const raw = typeof data.chaNum === 'number' ? data.chaNum : data.serial
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) return null
  const id = text(data.id)
  const path = text(data.urlPath).startsWith('/') ? text(data.urlPath) : /^[A-Za-z0-9]+$/.test(id) ? `/comic/chapter/${id}` : ''
  if (!path) return null
  const name = [text(data.dname), text(data.title)].filter((s) => s.trim()).join(': ')
  return { number: raw, label: cleanText(name, MAX_LABEL) || `Chapter ${raw}`, url: absoluteHref(path, origin) }
}

export function xcomicAdapter(): Adapter {
  return {
    recipe: { family: 'xcomic' },
    request(seriesUrl) {
      const select = { comic_id: comicIdOf(seriesUrl), page: 1, size: PAGE_SIZE, sortby: 'chapter_desc' }
      return {
        url: `${seriesUrl.origin}/query/`,
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: QUERY, variables: { select } }),
      }
    },
    read(page, seriesUrl) {
      const json = readJson(page.body, 'XCOMIC: the chapter list') as {
        data?: { get_comic_chapterList_uniqList?: { items?: unknown } | null } | null
        errors?: unknown
      } | null
      if (Array.isArray(json?.errors) && json.errors.length) throw new AdapterError('XCOMIC: the chapter list answered errors')
      const items = json?.data?.get_comic_chapterList_uniqList?.items ?? []
      if (!Array.isArray(items)) throw new AdapterError('XCOMIC: the answer has no items array')
      const chapters = distinctChapters(
        boundedRows(items as Array<{ data?: XcomicChapter } | null>).map((item) =>
          item?.data && typeof item.data === 'object' ? chapterOf(item.data, seriesUrl.origin) : null,
        ),
      )
      return { kind: 'parsed', result: { chapters } }
    },
  }
}

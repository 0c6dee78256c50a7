/**
 * Iken (Vortex Scans, Hive Scans, Azora, EternalMangas…: 13 known sources, one site each). A Series is
 * `/series/{slug}`; its chapters come from the Site's JSON API on its own `api.` host (the extension's default
 * `apiUrl`: `https://{host}` → `https://api.{host}`): `GET /api/post?postSlug={slug}` answers
 * `{ totalChapterCount?, post: { id, postTitle, isNovel?, seriesType?, chapters[] } }`. When `totalChapterCount` is
 * more than the chapters it carries, the whole list is `GET /api/chapters?postId={id}`: `{ post: { chapters[] } }`.
 * A chapter has `number` (a JSON number or string), `slug`, `title`, `createdAt` (ISO); it is left out, as the
 * extension does by default, when `isLocked` or `isTimeLocked`, or when it has a `price` not 0 and is not
 * `chapterPurchased`. Its name is "Chapter {number}" and " - {title}"; its page `/series/{slug}/{chapter slug}`.
 * A novel is not read. The Site's `api.` host is on its pin (docs/adr/0224-iken-api-on-the-sites-api-host.md).
 * Facts from the extension repository's Iken theme (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read to
 * write our own requests and answers.
 */
import { parseReleaseDate } from '../dates'
import { MAX_LABEL, absoluteHref, boundedRows, cleanText, distinctChapters } from '../html'
import { AdapterError, type Adapter, type Chapter, type PageRequest } from '../site'
import { readJson } from './json'

/** `/series/{slug}`; a chapter page (`/series/{slug}/{chapter}`) is no Series. */
export const IKEN_ID_PATTERN = /^\/series\/([A-Za-z0-9_-]{1,200})\/?(?:[?#]|$)/

/** A chapter number as the API writes it (number or string): digits, one optional decimal part. */
const NUMBER = /^\d{1,6}(?:\.\d{1,4})?$/
/** A chapter's slug, as a path segment. */
const SLUG = /^[A-Za-z0-9_.-]{1,200}$/

interface IkenChapter {
  number?: unknown
  slug?: unknown
  title?: unknown
  createdAt?: unknown
  isLocked?: unknown
  isTimeLocked?: unknown
  price?: unknown
  chapterPurchased?: unknown
}

interface IkenPost {
  id?: unknown
  postTitle?: unknown
  isNovel?: unknown
  seriesType?: unknown
  chapters?: unknown
}

/** The Site's API origin: its own host without "www.", under `api.`. */
export function ikenApiOrigin(seriesUrl: URL): string {
  return `${seriesUrl.protocol}//api.${seriesUrl.hostname.toLowerCase().replace(/^www\./, '')}`
}

function slugOf(url: URL): string {
  const m = IKEN_ID_PATTERN.exec(url.pathname)
  if (!m) throw new AdapterError(`not an Iken Series URL: ${url.pathname}`)
  return m[1]!
}

function jsonRequest(url: string): PageRequest {
  return { url, method: 'GET', headers: { Accept: 'application/json' } }
}

/** Locked as the extension reads it: locked, time-locked, or priced and not bought. */
function isLocked(row: IkenChapter): boolean {
  const priced = typeof row.price === 'number' && row.price !== 0
  return row.isLocked === true || row.isTimeLocked === true || (priced && row.chapterPurchased !== true)
}

function chapterOf(row: IkenChapter, slug: string, origin: string): Chapter | null {
  const raw = typeof row.number === 'number' ? String(row.number) : typeof row.number === 'string' ? row.number.trim() : ''
  if (!NUMBER.test(raw) || typeof row.slug !== 'string' || !SLUG.test(row.slug) || isLocked(row)) return null
  const number = Number(raw)
  const name = `Chapter ${number}`
  const room = MAX_LABEL - name.length - 3
  const own = typeof row.title === 'string' ? cleanText(row.title.slice(0, room * 4), room) : ''
  const chapter: Chapter = {
    number,
    label: own ? `${name} - ${own}` : name,
    url: absoluteHref(`/series/${slug}/${row.slug}`, origin),
  }
  const released = typeof row.createdAt === 'string' ? parseReleaseDate(row.createdAt.slice(0, 64)) : null
  if (released) chapter.released = released
  return chapter
}

function chaptersOf(list: unknown, slug: string, origin: string): Chapter[] {
  if (list === undefined || list === null) return []
  if (!Array.isArray(list)) throw new AdapterError('Iken: the answer has no chapters array')
  const rows = boundedRows(list as unknown[])
  return distinctChapters(rows.map((row) => (row && typeof row === 'object' ? chapterOf(row as IkenChapter, slug, origin) : null)))
}

function postOf(body: string): { post: IkenPost; total?: unknown } {
  const json = readJson(body, 'Iken: the Series answer') as { post?: unknown; totalChapterCount?: unknown } | null
  const post = json?.post
  if (!post || typeof post !== 'object' || Array.isArray(post)) throw new AdapterError('Iken: the answer has no post')
  return { post: post as IkenPost, total: json.totalChapterCount }
}

export function ikenAdapter(): Adapter {
  return {
    recipe: { family: 'iken' },
    request(seriesUrl) {
      return jsonRequest(`${ikenApiOrigin(seriesUrl)}/api/post?postSlug=${slugOf(seriesUrl)}`)
    },
    read(page, seriesUrl) {
      const slug = slugOf(seriesUrl)
      const { post, total } = postOf(page.body)
      if (new URL(page.url).pathname === '/api/chapters') {
        return { kind: 'parsed', result: { chapters: chaptersOf(post.chapters, slug, seriesUrl.origin) } }
      }
      if (post.isNovel === true || (typeof post.seriesType === 'string' && post.seriesType.toLowerCase() === 'novel')) {
        throw new AdapterError('Iken: this Series is a novel, which is not read')
      }
      const chapters = chaptersOf(post.chapters, slug, seriesUrl.origin)
      const title = typeof post.postTitle === 'string' ? cleanText(post.postTitle.slice(0, MAX_LABEL * 4)) : ''
      const carried = Array.isArray(post.chapters) ? post.chapters.length : 0
      // The post carries part of the list: the whole is the chapters API's, by the post's id.
      if (typeof total === 'number' && total > carried && Number.isSafeInteger(post.id)) {
        const request = jsonRequest(`${ikenApiOrigin(seriesUrl)}/api/chapters?postId=${String(post.id)}`)
        return { kind: 'follow', request, partial: title ? { title } : {} }
      }
      return { kind: 'parsed', result: title ? { title, chapters } : { chapters } }
    },
  }
}

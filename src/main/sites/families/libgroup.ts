/**
 * LibGroup (MangaLib, SlashLib, HentaiLib: 3 known Russian sources, one site each). A Series is
 * `/ru/manga/{id}--{slug}` (`/manga/{id}--{slug}`); its chapters come from the group's JSON API on its own host,
 * `GET https://api.cdnlibs.org/api/manga/{id}--{slug}/chapters` with the Site's `Site-Id` header (mangalib.me 1,
 * slashlib.me 2, hentailib.me 4) and its address as `Referer`: `data[]`, oldest first, with `number` and `volume`
 * (strings: "12", "12.5"), `name`, and `branches[]` (one per translating team) with `created_at` (ISO) and
 * `restricted_view.is_open` (false: a paid chapter, left out as the extension does by default). The chapter's
 * name is "Том {volume}. Глава {number}" and its own name after " - "; its page is
 * `/ru/{id}--{slug}/read/v{volume}/c{number}`. The API's host is on the pin of every LibGroup Site
 * (docs/adr/0213-libgroup-goda-and-bilimanga-adapters.md). Facts from the extension repository's LibGroup theme (commit
 * fd4236e034ea55f9df1799bf34b7c713f1a46780), read to write our own request and answers.
 */
import { parseReleaseDate } from '../dates'
import { MAX_LABEL, absoluteHref, boundedRows, cleanText, distinctChapters } from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'
import { readJson } from './json'

/** `/ru/manga/{id}--{slug}`, or the `/{id}--{slug}` a Mihon backup stores. */
export const LIBGROUP_ID_PATTERN = /^\/(?:ru\/)?(?:manga\/)?(\d+--[A-Za-z0-9_-]+)\/?(?:[?#]|$)/

/** The API every LibGroup site's list comes from (the extension's default). */
export const LIBGROUP_API = 'https://api.cdnlibs.org'

/** The `Site-Id` each site's answers are asked with, by its host without "www.". */
const SITE_IDS: Readonly<Record<string, number>> = { 'mangalib.me': 1, 'slashlib.me': 2, 'hentailib.me': 4 }

/** A volume or chapter number as the API writes it: digits, one optional decimal part. */
const NUMBER = /^\d{1,6}(?:\.\d{1,4})?$/

interface LibChapter {
  number?: unknown
  volume?: unknown
  name?: unknown
  branches?: unknown
}

function siteIdOf(url: URL): number {
  const id = SITE_IDS[url.hostname.toLowerCase().replace(/^www\./, '')]
  if (id === undefined) throw new AdapterError(`LibGroup: no Site-Id is known for ${url.hostname}`)
  return id
}

function slugOf(url: URL): string {
  const m = LIBGROUP_ID_PATTERN.exec(url.pathname)
  if (!m) throw new AdapterError(`not a LibGroup Series URL: ${url.pathname}`)
  return m[1]!
}

/** The first branch (the extension's default team), as far as this reads it. */
function firstBranch(branches: unknown): { created_at?: unknown; restricted_view?: { is_open?: unknown } | null } | undefined {
  const first: unknown = Array.isArray(branches) ? branches[0] : undefined
  return first && typeof first === 'object' ? first : undefined
}

function chapterOf(row: LibChapter, slug: string, origin: string): Chapter | null {
  const number = typeof row.number === 'string' ? row.number.trim() : ''
  const volume = typeof row.volume === 'string' ? row.volume.trim() : ''
  if (!NUMBER.test(number) || !NUMBER.test(volume)) return null
  const branch = firstBranch(row.branches)
  if (branch?.restricted_view?.is_open === false) return null
  const name = `Том ${volume}. Глава ${number}`
  // Its own name after " - ", cut so the whole stays a label (read no further than that needs).
  const room = MAX_LABEL - name.length - 3
  const own = typeof row.name === 'string' ? cleanText(row.name.slice(0, room * 4), room) : ''
  const chapter: Chapter = {
    number: Number(number),
    label: own ? `${name} - ${own}` : name,
    url: absoluteHref(`/ru/${slug}/read/v${volume}/c${number}`, origin),
  }
  const released = typeof branch?.created_at === 'string' ? parseReleaseDate(branch.created_at) : null
  if (released) chapter.released = released
  return chapter
}

export function libGroupAdapter(): Adapter {
  return {
    recipe: { family: 'libgroup' },
    request(seriesUrl) {
      return {
        url: `${LIBGROUP_API}/api/manga/${slugOf(seriesUrl)}/chapters`,
        method: 'GET',
        headers: { Accept: 'application/json', 'Site-Id': String(siteIdOf(seriesUrl)), Referer: seriesUrl.origin },
      }
    },
    read(page, seriesUrl) {
      const slug = slugOf(seriesUrl)
      const json = readJson(page.body, 'LibGroup: the chapter list') as { data?: unknown } | null
      const data = json?.data ?? []
      if (!Array.isArray(data)) throw new AdapterError('LibGroup: the answer has no data array')
      const rows = boundedRows(data as Array<LibChapter | null>)
      const chapters = distinctChapters(rows.map((row) => (row && typeof row === 'object' ? chapterOf(row, slug, seriesUrl.origin) : null)))
      return { kind: 'parsed', result: { chapters } }
    },
  }
}

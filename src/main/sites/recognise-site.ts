/**
 * "Add a Site" from one Series URL (docs/adr/0028-add-a-site-from-one-url.md). From the fetched page, the
 * family is recognised from its markup — Madara, MangaThemesia, or a generic chapter list described with
 * selectors — and a sites.json entry is proposed with a preview of what the Lane would read: the Series
 * title and its chapters, highest first. A page that cannot be read gets a reason in words.
 *
 * `recogniseSite` is pure (one page in, a proposal out); `proposeSite` fetches through a function the caller
 * gives (plain HTTP, or the browser when challenged), follows a Madara XHR chapter list, and re-reads the
 * Series page when a chapter URL was pasted. Writing the entry is `addSiteEntry` (sites-writer.ts).
 */
import type { Element } from 'domhandler'
import { parseChapterNumber } from '../../shared/chapter-number'
import { FAMILY_KEYS, familiesThat, SITE_FAMILIES } from '../../shared/site-families'
import { FAMILIES, type FamilyKey } from './families'
import { GIGAVIEWER_MARKUP } from './families/gigaviewer'
import { GROUPLE_ROWS } from './families/grouple'
import { MMRCMS_ROWS } from './families/mmrcms'
import { MANGAREADER_ROWS } from './families/mangareader'
import { GALLERYADULTS_MARKUP } from './families/galleryadults'
import { WPCOMICS_ROWS } from './families/wpcomics'
import { cleanText, labelOf, loadHtml, selectAll, titleOf, type Doc } from './html'
import { isPinned, parseUrl, seriesRules, type Chapter, type FetcherKind, type Page, type PageRequest, type Site } from './site'
import { checkSiteEntry, type SiteEntry } from './sites-file'
import { inlineReader, type PageReader } from './page-reader'
import { knownSiteByHost, knownSiteEntry, knownSiteKind, type KnownSite } from './known-sites'

/** Chapters a preview shows at most (the highest). */
export const PREVIEW_CHAPTERS = 50

import type { Recognition, RecogniseOptions, SitePreview, SiteProposal } from './recognition'

export type { Recognition, RecogniseOptions, SitePreview, SiteProposal } from './recognition'

/** Fetches one request within the URL's own host; the shape of a fetcher's result. */
export type FetchPage = (
  request: PageRequest,
) => Promise<{ kind: 'page'; page: Page; fetcher?: FetcherKind } | { kind: 'refused' | 'unreachable' | 'error'; reason: string }>

/** At most this many links are looked at when describing a generic chapter list. */
const MAX_LINKS = 20_000
/** A label that reads like a chapter: a marker before its number, "#5", or a number first. No nested quantifier. */
const CHAPTER_LIKE = /(?:chapters?|chap|ch|episodes?|eps?|cap(?:itulo)?)\.?\s?#?\d|#\s?\d|^\d|第\s?\d/i

/**
 * A proposal from one fetched page of an unknown Site, or the reason it cannot be read. Pure. When a Madara
 * page loads its chapter list by XHR, the proposal carries `pending` (the request) and an empty preview.
 */
export function recogniseSite(page: Page, url: URL, options: RecogniseOptions = {}): Recognition {
  const unusable = urlProblem(url)
  if (unusable) return { ok: false, reason: unusable }
  if (page.status !== 200) return { ok: false, reason: `the page answered HTTP ${page.status}, not a Series page` }
  if (/json/i.test(page.contentType) || /^\s*[[{]/.test(page.body.slice(0, 100)))
    return { ok: false, reason: 'the page is JSON, not a Series page in HTML' }
  const $ = loadHtml(page.body)
  const found = recogniseFamily($, url) ?? describeChapterList($, url)
  if ('reason' in found) return { ok: false, reason: found.reason }

  const takenKeys = options.takenKeys ?? []
  const known = options.known
  const named = known && knownSiteEntry(known, new Set(takenKeys))
  const entry: SiteEntry = {
    key: named?.key ?? proposeKey(url, takenKeys),
    name: named?.name ?? siteName($, url),
    hosts: named ? withHost(named.hosts ?? [], url.host.toLowerCase()) : [url.host.toLowerCase()],
    fetcher: options.fetcher ?? 'http',
    ...('family' in found ? { family: found.family } : { selectors: { chapter: found.selector, number: 'text' as const } }),
  }
  if (known && named?.idPattern && 'family' in found && found.family === known.family) entry.idPattern = named.idPattern
  found.how = known ? knownHow(found, known) : found.how
  const idPattern = entry.idPattern ?? proposeIdPattern(url, 'family' in found ? found.family : undefined)
  if (idPattern === null) return { ok: false, reason: 'the URL has no path to read a Series id from; paste the URL of one Series' }
  if (idPattern) entry.idPattern = idPattern
  const checked = checkSiteEntry(entry, new Map())
  if ('problems' in checked) return { ok: false, reason: `the proposed entry is not valid: ${checked.problems.join('; ')}` }
  const site = checked.site
  const seriesUrl = site.canonicalUrl?.(url) ?? url.href
  if (!site.seriesIdOf(url)) return { ok: false, reason: 'no Series id could be read from the URL' }

  const step = site.adapter.read(page, new URL(seriesUrl))
  const base = { ok: true as const, entry, recognisedBy: found.how, seriesUrl }
  if (step.kind === 'follow') {
    return {
      ...base,
      preview: { title: step.partial?.title || undefined, chapters: [], chapterCount: 0 },
      pending: { request: step.request, fallback: step.fallback },
    }
  }
  if (step.result.chapters.length === 0) return { ok: false, reason: `${found.how}, but no chapter could be read from it` }
  return { ...base, preview: preview(step.result.title, step.result.chapters) }
}

/** The hosts of a Known Site's entry, with the pasted one (a mirror the row may not list) first if missing. */
function withHost(hosts: readonly string[], host: string): string[] {
  return hosts.includes(host) ? [...hosts] : [host, ...hosts]
}

/** How a Known host's page was recognised: the page's markup, and the table only for the name. */
function knownHow(found: Extract<Found, { how: string }>, known: KnownSite): string {
  const table = `named by the Known Sites table: ${known.name}`
  if (!('family' in found))
    return `no family's markup on the page (the Known Sites table says ${knownSiteKind(known)}): ${found.how}; ${table}`
  if (found.family === known.family) return `${found.how}; ${table}`
  return `${found.how}; ${table}, which says ${knownSiteKind(known)} — the page's markup decides`
}

/**
 * The families whose pages say who they are in their markup (`recogniseFamily`; `recognisedBy` in their
 * descriptors, src/shared/site-families.ts). The others are read through an API their page does not show
 * (ComiciViewer's episode list, PizzaReader's comic API, MangaDex, Webtoons): on a Known host of one of them,
 * the family's own first request is fetched, and it is recognised only when the family reads chapters from the answer.
 */
const MARKUP_FAMILIES: ReadonlySet<FamilyKey> = new Set(FAMILY_KEYS.filter((key) => SITE_FAMILIES[key].recognisedBy === 'markup'))

/** Families whose rule finds the Series page of a pasted chapter URL; Grouple's, MMRCMS's and MangaReader's first-segment rules are too broad to guess by. */
const CHAPTER_URL_FAMILIES: readonly FamilyKey[] = familiesThat('readsChapterUrls')

/**
 * The family a fetched page's markup shows, or why it cannot be told: the same recognition Add a Site makes.
 * Pure; for a hint wherever a page is at hand.
 */
export function familyOfPage(page: Pick<Page, 'body'>, url: URL): { family: FamilyKey; how: string } | { unknown: string } {
  const found = recogniseFamily(loadHtml(page.body), url)
  if (found && 'family' in found) return found
  return {
    unknown:
      found && 'reason' in found ? found.reason : `could not tell the family of ${url.host} from its page: no family's markup was found`,
  }
}

/**
 * A hint for a host when no page is read (an import sends no request): the Known Sites table's family for a
 * Known host, said to come from the table; else that the family cannot be told without reading a page.
 */
export function familyHintForHost(
  host: string,
  knownSite: (host: string) => KnownSite | undefined = knownSiteByHost,
): { family: FamilyKey; name: string; how: string } | { unknown: string } {
  const known = knownSite(host)
  if (known?.family)
    return {
      family: known.family,
      name: known.name,
      how: `the Known Sites table names ${host} ${known.name} (${knownSiteKind(known)})`,
    }
  return {
    unknown: `could not tell the family of ${host} without reading one of its pages: add it with Add a Site, which reads a Series page`,
  }
}

/**
 * Fetches the pasted URL, recognises the Site and reads its chapters as the Lane would: the whole of "Add a
 * Site" but the confirm. `sites` are the running Sites: a URL one of them already pins is refused.
 */
export async function proposeSite(
  fetchPage: FetchPage,
  rawUrl: string,
  options: { sites: readonly Site[]; reader?: PageReader; knownSite?: (host: string) => KnownSite | undefined },
): Promise<SiteProposal> {
  const reader = options.reader ?? inlineReader
  const url = parseUrl(rawUrl.trim())
  if (!url) return { ok: false, reason: 'not a URL; paste the address of one Series, starting with https://' }
  const unusable = urlProblem(url)
  if (unusable) return { ok: false, reason: unusable }
  const known = options.sites.find((site) => isPinned(site, url))
  if (known) return { ok: false, reason: `this URL belongs to the Site "${known.name}" already; bookmark the Series there` }
  const takenKeys = options.sites.map((site) => site.key)
  const table = (options.knownSite ?? knownSiteByHost)(url.host)
  // A family read through its API is asked first; if it answers nothing, the page's own markup may still tell.
  // A derived Site is read by its own selectors, as a family read through its API.
  const byApi =
    table && (!table.family || !MARKUP_FAMILIES.has(table.family))
      ? await proposeByApi(fetchPage, url, table, takenKeys, reader)
      : undefined
  if (byApi?.ok) return byApi

  const read = async (target: URL): Promise<Recognition> => {
    const fetched = await fetchOne(fetchPage, { url: target.href, method: 'GET' })
    if ('reason' in fetched) return { ok: false, reason: fetched.reason }
    const recogniseOptions: RecogniseOptions = { takenKeys, fetcher: fetched.fetcher, ...(table ? { known: table } : {}) }
    // In the page reader's worker, under its deadline: a hostile page costs that thread, never the app's.
    return reader
      .recognise(fetched.page, target, recogniseOptions, () => recogniseSite(fetched.page, target, recogniseOptions))
      .catch((error: unknown) => ({ ok: false as const, reason: `${target.host}: ${(error as Error).message}` }))
  }
  let recognition = await read(url)
  if (recognition.ok && new URL(recognition.seriesUrl).pathname !== url.pathname) {
    // A chapter URL was pasted: the Series' own page is the one the Lane reads.
    recognition = await read(new URL(recognition.seriesUrl))
  } else if (!recognition.ok) {
    // Perhaps a chapter page: its Series page is usually one segment up ("/manga/<id>/chapter-3/"), or where a
    // family's rule puts it ("/read-<id>-chap-3" → "/read-<id>").
    for (const up of seriesPagesOf(url)) {
      const again = await read(up)
      if (again.ok) {
        recognition = again
        break
      }
    }
  }
  if (!recognition.ok) return byApi ? { ok: false, reason: `${byApi.reason}; ${recognition.reason}` } : recognition
  const { pending, ...proposal } = recognition
  if (!pending) return proposal

  const checked = checkSiteEntry(proposal.entry, new Map())
  if ('problems' in checked) return { ok: false, reason: checked.problems.join('; ') }
  let list = await fetchOne(fetchPage, pending.request)
  if ('reason' in list && pending.fallback) list = await fetchOne(fetchPage, pending.fallback)
  if ('reason' in list) return { ok: false, reason: `${proposal.recognisedBy}; its chapter list could not be fetched: ${list.reason}` }
  let chapters: Chapter[]
  try {
    const step = await reader.read(checked.site, list.page, new URL(proposal.seriesUrl))
    chapters = step.kind === 'parsed' ? step.result.chapters : []
  } catch (error) {
    return { ok: false, reason: `${proposal.recognisedBy}; its chapter list could not be read: ${(error as Error).message}` }
  }
  if (chapters.length === 0) return { ok: false, reason: `${proposal.recognisedBy}, but its chapter list held no chapter` }
  return { ...proposal, preview: preview(proposal.preview.title, chapters) }
}

/**
 * A Known host of a family read through an API its page does not show (`MARKUP_FAMILIES`): the family's own
 * first request (ComiciViewer's episode list, PizzaReader's comic API) is fetched and read, a Madara-style
 * follow-up too; the family is recognised when it reads chapters from the answer, else it could not be told.
 * The table names the Site (docs/adr/0111-add-a-site-recognises-from-the-page.md).
 */
async function proposeByApi(
  fetchPage: FetchPage,
  url: URL,
  known: KnownSite,
  takenKeys: readonly string[],
  reader: PageReader,
): Promise<SiteProposal> {
  const family = knownSiteKind(known)
  const entry = knownSiteEntry(known, new Set(takenKeys))
  const checked = checkSiteEntry(entry, new Map())
  if ('problems' in checked) return { ok: false, reason: checked.problems.join('; ') }
  const site = checked.site
  if (!site.seriesIdOf(url))
    return { ok: false, reason: `${known.name} (a Known Site) reads ${family} Series URLs; paste the URL of one Series on it` }
  const seriesUrl = site.canonicalUrl?.(url) ?? url.href
  const couldNotTell = (why: string): SiteProposal => ({
    ok: false,
    reason: `could not tell whether ${url.host} is a ${family} Site: ${why}`,
  })
  let title: string | undefined
  try {
    let page = await fetchOne(fetchPage, site.adapter.request(new URL(seriesUrl)))
    if ('reason' in page) return couldNotTell(page.reason)
    let step = await reader.read(site, page.page, new URL(seriesUrl))
    if (step.kind === 'follow') {
      title = step.partial?.title
      page = await fetchOne(fetchPage, step.request)
      if ('reason' in page) return couldNotTell(page.reason)
      step = await reader.read(site, page.page, new URL(seriesUrl))
    }
    if (step.kind !== 'parsed' || step.result.chapters.length === 0) return couldNotTell(`its ${family} answer held no chapter`)
    const recognisedBy = `${family}: its answer for this Series read ${step.result.chapters.length} chapters; named by the Known Sites table: ${known.name}`
    return { ok: true, entry, recognisedBy, seriesUrl, preview: preview(step.result.title ?? title, step.result.chapters) }
  } catch (error) {
    return couldNotTell(`its answer could not be read: ${(error as Error).message}`)
  }
}

async function fetchOne(fetchPage: FetchPage, request: PageRequest): Promise<{ page: Page; fetcher?: FetcherKind } | { reason: string }> {
  const host = new URL(request.url).host
  const result = await fetchPage(request)
  if (result.kind === 'refused') return { reason: `${host} answered with an anti-bot challenge that did not clear (${result.reason})` }
  if (result.kind !== 'page') return { reason: `${host} could not be fetched: ${result.reason}` }
  if (result.page.status !== 200) return { reason: `${host} answered HTTP ${result.page.status} for ${request.url}` }
  return { page: result.page, fetcher: result.fetcher }
}

/**
 * Where the Series page of a pasted chapter URL may be: what a markup family's rule makes of it, and one path
 * segment up; at most two, the nearest to the URL first, none the URL itself.
 */
function seriesPagesOf(url: URL): URL[] {
  const found = new Map<string, URL>()
  for (const family of CHAPTER_URL_FAMILIES) {
    const rules = seriesRules(FAMILIES[family].idPattern)
    const canonical = rules.seriesIdOf(url) ? parseUrl(rules.canonicalUrl!(url)) : null
    if (canonical && canonical.pathname !== url.pathname && canonical.pathname.length > 1) found.set(canonical.href, canonical)
  }
  const up = parentUrl(url)
  if (up) found.set(up.href, up)
  found.delete(url.href)
  // The nearest first: a broad family rule (a first segment and a slug) must not crowd out the page just above.
  return [...found.values()].sort((a, b) => b.pathname.length - a.pathname.length).slice(0, 2)
}

/** The URL one path segment up, when it still has a segment. */
function parentUrl(url: URL): URL | null {
  const segments = url.pathname.split('/').filter(Boolean)
  if (segments.length < 2) return null
  return new URL(`/${segments.slice(0, -1).join('/')}/`, url.origin)
}

function urlProblem(url: URL): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `an ${url.protocol} URL cannot be a Site; paste an http(s) address`
  if (url.username || url.password) return 'a URL with a user name or password cannot be a Site'
  return null
}

function preview(title: string | undefined, chapters: readonly Chapter[]): SitePreview {
  const sorted = [...chapters].sort((a, b) => b.number - a.number)
  return { title: title || undefined, chapters: sorted.slice(0, PREVIEW_CHAPTERS), chapterCount: chapters.length }
}

type Found = { family: FamilyKey; how: string } | { selector: string; how: string } | { reason: string }

/** Madara, MangaThemesia, MangaBox, MangaCatalog, MadTheme, Keyoapp or ZeistManga, from the markup only they write; null when none. */
function recogniseFamily($: Doc, url: URL): Found | null {
  const madaraRows = $('li.wp-manga-chapter, div.wp-manga-chapter').length
  const holder = $('div[id^="manga-chapters-holder"]').length
  if (madaraRows > 0) return { family: 'madara', how: `Madara markup: ${madaraRows} .wp-manga-chapter rows` }
  if (holder > 0) return { family: 'madara', how: 'Madara markup: a chapter list loaded by XHR (#manga-chapters-holder)' }
  const themesiaRows = $('#chapterlist li[data-num], div.eplister li[data-num]').length
  if (themesiaRows > 0) return { family: 'mangathemesia', how: `MangaThemesia markup: ${themesiaRows} li[data-num] rows` }
  const boxRows = $('div.chapter-list > div.row a[href], ul.row-content-chapter > li a[href]').length
  if (boxRows > 0) return { family: 'mangabox', how: `MangaBox markup: ${boxRows} chapter-list rows` }
  const catalogRows = $('div.w-full > div.bg-bg-secondary > div.grid .col-span-4 > a[href]').length
  if (catalogRows > 0) return { family: 'mangacatalog', how: `MangaCatalog markup: ${catalogRows} chapter rows` }
  const madRows = $('#chapter-list > li .chapter-title').length
  if (madRows > 0) return { family: 'madtheme', how: `MadTheme markup: ${madRows} #chapter-list rows` }
  const keyoRows = $('#chapters > a[href]').length
  if (keyoRows > 0) return { family: 'keyoapp', how: `Keyoapp markup: ${keyoRows} #chapters > a rows` }
  if ($('#clwd > script, #myUL > script[src*="/feeds/"]').length > 0 || /\blabel\s*=\s*'/.test($('#latest > script').first().text()))
    return { family: 'zeistmanga', how: 'ZeistManga markup: a Blogger chapter feed named by the page' }
  const more = recogniseMoreFamilies($)
  if (more) return more
  if ($('link[href*="/wp-content/themes/madara"], body.wp-manga-template-default').length > 0)
    return { reason: `${url.host} runs the Madara theme, but this page shows no chapter list; paste the URL of one Series` }
  return null
}

/** GigaViewer, WPComics, Grouple, FoolSlide, MMRCMS, MangaReader or GalleryAdults, from the markup only they write; null when none. */
function recogniseMoreFamilies($: Doc): Found | null {
  if ($(GIGAVIEWER_MARKUP).length > 0)
    return { family: 'gigaviewer', how: 'GigaViewer markup: the episode page names its series (data-giga_series)' }
  const wpRows = $(`${WPCOMICS_ROWS} a[href]`).length
  if (wpRows > 0) return { family: 'wpcomics', how: `WPComics markup: ${wpRows} div.list-chapter rows` }
  if ($('article#item-detail div.list-chapter, article#item-detail #nt_listchapter').length > 0)
    return { family: 'wpcomics', how: 'WPComics markup: #item-detail with a chapter list loaded by script' }
  const groupleRows = $(`${GROUPLE_ROWS} a.chapter-link[href]`).length
  if (groupleRows > 0) return { family: 'grouple', how: `Grouple markup: ${groupleRows} tr.item-row rows` }
  const foolRows = $('div.group div.element a[href][title], div.list div.element a[href][title]').length
  if (foolRows > 0) return { family: 'foolslide', how: `FoolSlide markup: ${foolRows} div.element rows` }
  const cmsRows = $(`${MMRCMS_ROWS} .chapter-title-rtl a[href]`).length
  if (cmsRows > 0) return { family: 'mmrcms', how: `MMRCMS markup: ${cmsRows} ul.chapters rows` }
  const readerRows = $(`${MANGAREADER_ROWS}`).length
  if (readerRows > 0) return { family: 'mangareader', how: `MangaReader markup: ${readerRows} li.chapter-item rows` }
  if ($('input#load_pages').length > 0 && $(GALLERYADULTS_MARKUP).length > 0)
    return { family: 'galleryadults', how: 'GalleryAdults markup: a gallery (its pages loader, input#load_pages)' }
  return null
}

/**
 * A generic chapter list: the links whose text reads as a chapter number, grouped by the element that holds
 * them (an ancestor up to five levels up) and the tag path down to them. The group with the most distinct
 * numbers wins — first among groups whose links mostly lead under the Series' own slug, so a sidebar of other
 * Series' chapters loses to the Series' list. It is described as a CSS selector (the holder by id or classes,
 * then the path with the classes every row shares), kept only if it selects the group and little else.
 */
function describeChapterList($: Doc, url: URL): Found {
  const title = titleOf($, ['h1'])
  const slug = url.pathname.split('/').filter(Boolean).at(-1)?.toLowerCase() ?? ''
  interface Group {
    holder: Element
    path: string
    links: Element[]
    numbers: Set<number>
    underSlug: number
    marked: number
  }
  const groups = new Map<Element, Map<string, Group>>()
  for (const link of selectAll($, 'a[href]').slice(0, MAX_LINKS)) {
    const { text } = labelOf(link)
    const number = parseChapterNumber(text, title)
    if (number === null) continue
    const marked = CHAPTER_LIKE.test(text) ? 1 : 0
    const href = (link.attribs['href'] ?? '').toLowerCase()
    let path = 'a'
    let node: Element = link
    for (let level = 1; level <= 5; level++) {
      const parent = node.parent
      if (!parent || parent.type !== 'tag') break
      const byPath = groups.get(parent) ?? new Map<string, Group>()
      groups.set(parent, byPath)
      const group = byPath.get(path) ?? { holder: parent, path, links: [], numbers: new Set(), underSlug: 0, marked: 0 }
      byPath.set(path, group)
      group.links.push(link)
      group.numbers.add(number)
      group.marked += marked
      if (slug && href.includes(slug)) group.underSlug++
      path = `${parent.name} > ${path}`
      node = parent
    }
  }
  const candidates = [...groups.values()]
    .flatMap((byPath) => [...byPath.values()])
    .filter((g) => g.numbers.size >= 2)
    .sort((a, b) => {
      const mostly = (part: number, g: Group) => (part * 2 >= g.links.length ? 1 : 0)
      // Labels that look like chapters ("Ch. 5", "Episode 5", "#5", "5") before "tag-5" or "Top 5"; links
      // under the Series' slug before a sidebar of other Series; then more distinct numbers; at equal counts
      // the closest holder (the shortest path) is the list itself.
      return (
        mostly(b.marked, b) - mostly(a.marked, a) ||
        mostly(b.underSlug, b) - mostly(a.underSlug, a) ||
        b.numbers.size - a.numbers.size ||
        a.path.length - b.path.length
      )
    })
  for (const group of candidates.slice(0, 5)) {
    const selector = selectorFor($, group.holder, group.links, group.path)
    if (selector) {
      return { selector, how: `a list of ${group.numbers.size} links whose text reads as chapter numbers (${selector})` }
    }
  }
  return {
    reason:
      "found no chapter list: could not tell the Site's family from the page (no Madara, MangaThemesia, MangaBox, MangaCatalog, MadTheme, Keyoapp or ZeistManga markup), and no group of at least two links whose text reads as chapter numbers",
  }
}

/** A selector that selects the group's links (and at most a tenth more), or null. */
function selectorFor($: Doc, holder: Element, links: readonly Element[], path: string): string | null {
  const steps = path.split(' > ')
  // The classes every link's ancestor at each step shares, from the holder's child down to the link.
  const described = steps.map((tag, i) => {
    const depth = steps.length - 1 - i
    const shared = links
      .map((link) => classesOf(ancestor(link, depth)))
      .reduce((common, classes) => common.filter((c) => classes.includes(c)))
    return tag + shared.map((c) => `.${c}`).join('')
  })
  const wanted = new Set(links)
  // The holder alone may be too vague ("div > a" everywhere): add its ancestors until the selector is exact.
  let holderNode: Element | null = holder
  for (let up = 0; up < 4 && holderNode; up++) {
    const selector = `${describe(holderNode)} > ${described.join(' > ')}`
    try {
      const selected = selectAll($, selector)
      const hits = selected.filter((el) => wanted.has(el)).length
      if (hits === wanted.size && selected.length <= wanted.size * 1.1) return selector
    } catch {
      return null
    }
    described.unshift(describe(holderNode))
    const parent: Element['parent'] = holderNode.parent
    holderNode = parent && parent.type === 'tag' ? (parent as Element) : null
  }
  return null
}

function ancestor(node: Element, levels: number): Element {
  let current = node
  for (let i = 0; i < levels; i++) current = current.parent as Element
  return current
}

const IDENT = /^[A-Za-z_][-A-Za-z_]*$/

/** Classes that can be written in a selector and do not look generated (no digits: "post-4812", "id-119"). */
function classesOf(element: Element): string[] {
  return (element.attribs['class'] ?? '').split(/\s+/).filter((c) => IDENT.test(c) && c.length <= 40)
}

function describe(element: Element): string {
  const id = element.attribs['id']
  if (id && IDENT.test(id) && id.length <= 40) return `#${id}`
  return (
    element.name +
    classesOf(element)
      .map((c) => `.${c}`)
      .join('')
  )
}

/** The Site's name: og:site_name, else the part of the page title after its last separator, else the host. */
function siteName($: Doc, url: URL): string {
  const og = cleanText($('meta[property="og:site_name"]').attr('content'), 80)
  if (og) return og
  const title = cleanText($('title').first().text(), 300)
  const parts = title.split(/\s+[-–—|·:]\s+/).filter(Boolean)
  const name = cleanText(parts.length > 1 ? parts.at(-1) : '', 80)
  return name || url.hostname
}

/**
 * A key from the host: its name without "www." and the public suffix ("live.mangabooth.com" → "mangabooth",
 * "toons.co.uk" → "toons"); an address or one-label host in full ("127-0-0-1-4000"). Made unique against
 * `taken` with "-2", "-3", ….
 */
export function proposeKey(url: URL, taken: readonly string[]): string {
  const host = url.hostname.toLowerCase().replace(/^www\./, '')
  const labels = host.split('.')
  let base: string
  if (/^[\d.]+$/.test(host) || host.includes(':') || labels.length < 2) base = `${host}${url.port ? `-${url.port}` : ''}`
  else {
    const secondLevel = labels.length >= 3 && labels.at(-1)!.length === 2 && /^(co|com|net|org|ac|gov|edu|or|ne)$/.test(labels.at(-2)!)
    base = labels.at(secondLevel ? -3 : -2)!
  }
  const slug =
    base
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 36) || 'site'
  let key = slug
  for (let n = 2; taken.includes(key); n++) key = `${slug}-${n}`
  return key
}

const TYPE_WORDS = /^(?:manga|manhua|manhwa|webtoons?|comics?|series|serie|titles?|novels?|books?|works?|read)$/i

/**
 * The idPattern for an entry: none when the family's own pattern reads the URL's Series id; else the path up
 * to the last type word ("/x/comic/<id>") or up to the last segment, then the id. Null when the path is empty.
 */
function proposeIdPattern(url: URL, family: FamilyKey | undefined): string | undefined | null {
  const segments = url.pathname.split('/').filter(Boolean)
  if (segments.length === 0) return null
  let idAt = segments.length - 1
  for (let i = segments.length - 2; i >= 0; i--) {
    if (TYPE_WORDS.test(segments[i]!)) {
      idAt = i + 1
      break
    }
  }
  const own = family && FAMILIES[family].idPattern.exec(url.pathname)?.[1]
  // Madara's rule reads any second segment, so it is trusted only where the type word agrees; the other
  // families' rules are exact (MangaBox's "/read-<id>" reads "<id>", not the whole segment).
  if (own && (own === segments[idAt] || family !== 'madara')) return undefined
  const prefix = segments.slice(0, idAt).map((s) => `${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`)
  return `^/${prefix.join('')}([^/?#]+)`
}

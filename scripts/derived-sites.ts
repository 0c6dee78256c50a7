/**
 * `npx tsx scripts/derived-sites.ts <known-sources dir> <extensions-source git dir>`: writes
 * src/main/sites/derived-sites.json, selector entries for one-off sources (no theme) whose chapter list parse is
 * the simple shape (scripts/derived-kotlin.ts), read from the keiyoushi/extensions-source repository at the
 * commit `<dir>/README.md` names (fd4236e034ea55f9df1799bf34b7c713f1a46780; Apache-2.0). Facts only: the
 * source ids, name, language, addresses and the selectors; no code. A selector cheerio cannot run, or one whose
 * meaning differs in jsoup (`[a~=regex]`, `:matches`, `:containsOwn`), is refused. Prints which shapes were
 * accepted, how many entries each, and the coverage before → after, overall and per language with ≥ 30 sources.
 * Regenerate; never edit the file by hand (docs/adr/0160-derived-selector-entries.md).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { load } from 'cheerio'
import { wantsHelp } from '../src/main/cli/help'
import type { FamilyKey } from '../src/main/sites/families'
import type { DerivedSite, DerivedSitesTable } from '../src/main/sites/known-sites'
import { FAMILY_TABLE as KNOWN_SITES } from '../src/main/sites/known-sites'
import { deriveSelectors, type DerivedSelectors } from './derived-kotlin'
import { BUILT_IN_EXTENSIONS, bareHost, origin, slug, type SourceFact } from './known-sites'

const OUT = 'src/main/sites/derived-sites.json'

/** One-off extensions read by an adapter written by hand for their API (src/main/sites/families/). */
export const API_ADAPTERS: Readonly<Record<string, FamilyKey>> = {
  'src/ko/navercomic': 'navercomic',
  'src/all/xcomic': 'xcomic',
  'src/zh/bilimanga': 'bilimanga',
  'src/zh/komiic': 'komiic',
  // One gallery a Series, its one chapter the Series page (families/gallerypage.ts).
  'src/all/akuma': 'gallerypage',
  'src/all/hentai3': 'gallerypage',
  'src/all/pandachaika': 'gallerypage',
  // Photo galleries whose one chapter ("Gallery") is the Series page itself (`manga.url`, the request's path, its
  // canonical link), read in each extension at fd4236e0.
  'src/all/baobua': 'gallerypage',
  'src/all/cosplaytele': 'gallerypage',
  'src/all/everiaclub': 'gallerypage',
  'src/all/everiaclubcom': 'gallerypage',
  'src/all/foamgirl': 'gallerypage',
  'src/all/jjcos': 'gallerypage',
  'src/all/mitaku': 'gallerypage',
  'src/all/photos18': 'gallerypage',
  'src/all/simplycosplay': 'gallerypage',
  'src/all/v2ph': 'gallerypage',
  // NetTruyen's ChapterList JSON, as the WPComics NetTruyen sites (families/wpcomics.ts).
  'src/vi/nettruyenviet': 'wpcomics',
  'src/all/kagane': 'kagane',
  'src/all/mangatoon': 'mangatoon',
  // Posts whose pages are the chapters ("Part n", "Page n"; families/pagedpost.ts).
  'src/all/myreadingmanga': 'pagedpost',
  'src/all/xiutaku': 'pagedpost',
  'src/all/misskon': 'pagedpost',
}

/**
 * Selectors read by hand from a chapter list parse the derivation refuses for its logic, where the logic only
 * adds what the app does not need (a preference, a hidden list for adult works): facts of the same commit.
 */
export const HAND_READ: Readonly<Record<string, DerivedSelectors>> = {
  // Sections `[id^=chapter-list-]`, rows `li > a.status0`, the name the link's title; the adult works' list,
  // LZString-packed in #__VIEWSTATE, is not read.
  'src/zh/manhuagui': { chapter: '[id^=chapter-list-] li > a.status0', title: 'div.book-title > h1', number: 'attr:title' },
  // Rows `.comics-chapters` (the latest few, then the whole list), the name the row's text, the URL its first link.
  'src/zh/baozimanhua': { chapter: '.comics-chapters', title: 'h1.comics-detail__title', number: 'text', link: 'a' },
  // Chinese and Russian (issue 42, docs/adr/0212-chinese-and-russian-hand-read-entries.md). 动漫屋: the sections
  // under #chapterlistload, each `ul`'s `li > a`; the name `p.title` or the link's text (a warning bar or no list is
  // no chapter); volumes ("第1卷") carry no chapter number.
  'src/zh/dm5': { chapter: 'div#chapterlistload > ul li > a', title: 'div.banner_detail_form p.title', number: 'text' },
  // 漫画1234: `a.chapter-item` rows, the name `.chapter-title` (the app-only rows are read as chapters too).
  'src/zh/mh1234': { chapter: '.chapter-list a.chapter-item', number: 'text', name: '.chapter-title' },
  // zero搬运网: the links to `/view/index.php` in `div.grid`.
  'src/zh/zerobyw': { chapter: 'div.grid a[href*="/view/index.php"]', title: 'main h1', number: 'text' },
  // Manga Xiao Si: `#detail-list-select li a`; the update date beside the list is not read.
  'src/zh/mangaxiaosi': { chapter: '#detail-list-select li a', title: '.banner_detail_form .info h1', number: 'text' },
  // The MCCMS theme's web parse (its first child the link), with each extension's own list selector.
  'src/zh/manhuawu': { chapter: '.chapter__list-box > li', number: 'text', name: 'a', link: 'a' },
  'src/zh/miaoqu': { chapter: 'ul.list > li', number: 'text', name: 'a', link: 'a' },
  'src/zh/sixmh': { chapter: 'ul#mh-chapter-list-ol-0 li.chapter__item', number: 'text', name: 'a', link: 'a' },
  // 漫画社, 瓜子漫画, 喜漫漫画: KeiSource updates reading the Series page, the list one select (a price is not read).
  'src/zh/manhuashe': { chapter: '#chapter-list > div.chapter-item > a', title: 'div.comic-meta-info > h1', number: 'text' },
  'src/zh/guazimanhua': {
    chapter: 'section.mobile-comic-all-chapters div.mobile-chapter-grid a',
    title: 'div.mobile-comic-title',
    number: 'text',
  },
  'src/zh/favcomic': { chapter: '.catalog_box a', title: '.comic_title', number: 'text', name: '.title' },
  // Mangabz (and its mirrors xmanhua, yymanhua): the links `#chapterlistload` holds, the name the link's text with
  // its page count ("第12话（17P）"); the list's date is not read.
  'src/zh/mangabz': { chapter: '#chapterlistload > a', number: 'text' },
  // JComic: a Series page's second `.col-md-6` column of links (`:nth-child(2)` in the extension; a single-chapter
  // `/page/` work has none).
  'src/zh/jcomic': { chapter: '.col-md-6 + .col-md-6 a', number: 'text' },
  // The Manga18 theme (no extension overrides its list): `div.chapter_box .item`, the link and name its `a`, the
  // date (day first) in its `p` not read.
  'src/zh/hanman18': { chapter: 'div.chapter_box .item', number: 'text', name: 'a', link: 'a' },
  'src/en/eighteenporncomic': { chapter: 'div.chapter_box .item', number: 'text', name: 'a', link: 'a' },
  'src/en/hentai3zcc': { chapter: 'div.chapter_box .item', number: 'text', name: 'a', link: 'a' },
  'src/en/manga18club': { chapter: 'div.chapter_box .item', number: 'text', name: 'a', link: 'a' },
  // The MultiChan theme (MangaChan, YaoiChan; HenChan reads another page): `table.table_cha tr` past its two
  // heading rows (no link, no number: skipped), the name and link the row's `a`.
  'src/ru/mangachan': { chapter: 'table.table_cha tr', number: 'text', name: 'a', link: 'a' },
  'src/ru/yaoichan': { chapter: 'table.table_cha tr', number: 'text', name: 'a', link: 'a' },
  // MangaMen: `.chapter-item` rows, the number `data-number`, the link and name `.chapter-item__name a[href]`.
  'src/ru/mangamen': {
    chapter: '.chapter-item',
    number: 'attr:data-number',
    name: '.chapter-item__name a[href]',
    link: '.chapter-item__name a[href]',
  },
  // YagamiProject: `.list .element`, the link and name `.title a`.
  'src/ru/yagamiproject': { chapter: '.list .element', number: 'text', name: '.title a', link: '.title a' },
  // Manga-shi: the first page of `#chapters-list > a[href*="/glava"]` (newest first; the older pages, loaded on
  // demand, are not read), the name `span.chapter-title > span`.
  'src/ru/mangashi': { chapter: '#chapters-list > a[href*="/glava"]', number: 'text', name: 'span.chapter-title > span' },
  // MangaBuff: the page's 100 newest `a.chapters__item` (the rest, loaded by a POST, not read), the number in
  // `.chapters__value` ("Глава 12").
  'src/ru/mangabuff': { chapter: 'a.chapters__item', number: 'text', name: '.chapters__value' },
}
const REPOSITORY = 'https://github.com/keiyoushi/extensions-source'

/** Whether cheerio runs the selector as jsoup means it. */
export function usableSelector(selector: string): boolean {
  // jsoup's :eq/:lt/:gt count siblings, cheerio's count matches; jsoup's [a~=x] is a regular expression.
  if (
    /~=|:matches|:containsOwn|:matchText|:containsData|:containsWholeText|:root|:eq\(|:lt\(|:gt\(|:first\b(?!-)|:last\b(?!-)/i.test(
      selector,
    )
  )
    return false
  try {
    const $ = load('<div><a href="x">1</a></div>')
    $('div').find(selector)
    $(selector)
    return true
  } catch {
    return false
  }
}

/** An extension's Kotlin, its files joined (data classes and filters left out: no parse lives there). */
function extensionText(repo: string, commit: string, extension: string): string {
  const files = execFileSync('git', ['-C', repo, 'ls-tree', '-r', '--name-only', commit, '--', extension], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.kt') && !/(Dto|Filters?|Models?)\.kt$/.test(f))
  return files.map((f) => execFileSync('git', ['-C', repo, 'show', `${commit}:${f}`], { encoding: 'utf8', maxBuffer: 1 << 24 })).join('\n')
}

interface Outcome {
  sites: DerivedSite[]
  shapes: Map<string, number>
  refusals: Map<string, number>
}

/** The derived Sites of the one-off extensions: one per host, as known-sites groups a family's. */
export function deriveAll(facts: readonly SourceFact[], read: (extension: string) => string): Outcome {
  const shapes = new Map<string, number>()
  const refusals = new Map<string, number>()
  const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)
  const byExtension = new Map<string, SourceFact[]>()
  // A themed extension no family reads is taken when it is read by hand or by an adapter of its own.
  const oneOff = (f: SourceFact) => !f.theme || !!HAND_READ[f.extension] || !!API_ADAPTERS[f.extension]
  for (const f of facts)
    if (oneOff(f) && !BUILT_IN_EXTENSIONS.has(f.extension)) byExtension.set(f.extension, [...(byExtension.get(f.extension) ?? []), f])
  const taken = new Set(KNOWN_SITES.sites.map((s) => s.key))
  const claimed = new Set(KNOWN_SITES.sites.map((s) => bareHost(s.baseUrl)))
  const sites: DerivedSite[] = []
  for (const [extension, sources] of [...byExtension].sort(([a], [b]) => a.localeCompare(b))) {
    const family = API_ADAPTERS[extension]
    if (family) {
      count(shapes, 'adapter')
      sites.push(...sitesOf(sources, { family }, 'adapter', taken, claimed))
      continue
    }
    const hand = HAND_READ[extension]
    if (hand) {
      const shape = `hand, name ${hand.name ? 'inside' : 'the row'}, link ${hand.link ? 'inside' : 'the row'}`
      count(shapes, shape)
      sites.push(...sitesOf(sources, { selectors: hand }, shape, taken, claimed))
      continue
    }
    const derived = deriveSelectors(read(extension))
    if (!derived.ok) {
      count(refusals, derived.why.replace(/:.*$/, ''))
      continue
    }
    const selectors = derived.selectors
    const all = [selectors.chapter, selectors.title, selectors.name, selectors.link].filter((s): s is string => !!s)
    if (!all.every(usableSelector)) {
      count(refusals, 'a selector cheerio cannot run as jsoup means it')
      continue
    }
    const made = sitesOf(sources, { selectors }, derived.shape, taken, claimed)
    if (made.length) count(shapes, derived.shape)
    sites.push(...made)
  }
  return { sites, shapes, refusals }
}

function sitesOf(
  sources: readonly SourceFact[],
  reads: { selectors: DerivedSelectors } | { family: FamilyKey },
  shape: string,
  taken: Set<string>,
  claimed: Set<string>,
): DerivedSite[] {
  const byHost = new Map<string, SourceFact[]>()
  for (const f of sources) {
    const base = origin(f.baseUrl)
    if (base) byHost.set(bareHost(base), [...(byHost.get(bareHost(base)) ?? []), f])
  }
  const out: DerivedSite[] = []
  for (const [host, group] of byHost) {
    if (claimed.has(host)) continue
    claimed.add(host)
    const first = group[0]!
    const langs = new Set(group.map((f) => f.lang))
    const lang = langs.size === 1 ? first.lang : 'all'
    let key = slug(first.name) === 'site' ? slug(host) : slug(first.name)
    if (taken.has(key)) key = slug(`${first.name}-${lang}`)
    for (let n = 2; taken.has(key); n++) key = `${slug(first.name).slice(0, 36)}-${n}`
    taken.add(key)
    const baseUrl = origin(first.baseUrl)!
    const mirrors = [
      ...new Set(group.flatMap((f) => (f.mirrors ?? []).map(origin).filter((m): m is string => !!m && bareHost(m) !== host))),
    ]
      .filter((m) => !claimed.has(bareHost(m)))
      // A sites.json entry pins at most 20 hosts: the base and 9 mirrors, each with and without "www.".
      .slice(0, 9)
    mirrors.forEach((m) => claimed.add(bareHost(m)))
    out.push({
      key,
      name: first.name,
      lang,
      baseUrl,
      ...(mirrors.length ? { mirrors } : {}),
      ...reads,
      shape,
      sources: group.map((f) => f.id),
    })
  }
  return out
}

/** Readable with no setup, before (the families and the built-ins) and after (and the derived entries). */
export function coverageByLanguage(
  facts: readonly SourceFact[],
  derived: readonly DerivedSite[],
): Array<{ lang: string; total: number; before: number; after: number }> {
  const readable = new Set(KNOWN_SITES.sources.filter((s) => s.site).map((s) => s.id))
  for (const f of facts) if (BUILT_IN_EXTENSIONS.has(f.extension)) readable.add(f.id)
  const derivedIds = new Set(derived.flatMap((s) => s.sources))
  const rows = new Map<string, { lang: string; total: number; before: number; after: number }>()
  const add = (lang: string, f: SourceFact) => {
    const row = rows.get(lang) ?? { lang, total: 0, before: 0, after: 0 }
    row.total++
    if (readable.has(f.id)) row.before++
    if (readable.has(f.id) || derivedIds.has(f.id)) row.after++
    rows.set(lang, row)
  }
  for (const f of facts) {
    add('(overall)', f)
    add(f.lang, f)
  }
  return [...rows.values()].filter((r) => r.lang === '(overall)' || r.total >= 30).sort((a, b) => b.total - a.total)
}

/** One Site a line, so a regeneration's diff reads Site by Site. */
export function formatDerived(table: DerivedSitesTable): string {
  const rows = table.sites.map((s) => `    ${JSON.stringify(s)}`).join(',\n')
  return `{\n  "generatedBy": ${JSON.stringify(table.generatedBy)},\n  "source": ${JSON.stringify(table.source)},\n  "sites": [\n${rows}\n  ]\n}\n`
}

function main(argv: string[]): void {
  if (wantsHelp(argv) || argv.length < 2) {
    console.log('Usage: npx tsx scripts/derived-sites.ts <known-sources dir> <extensions-source git dir>\n\nWrites ' + OUT + '.')
    process.exit(argv.length < 2 && !wantsHelp(argv) ? 2 : 0)
  }
  const [dir, repo] = argv as [string, string]
  const facts = JSON.parse(readFileSync(join(dir, 'all-sources.json'), 'utf8')) as SourceFact[]
  const commit = /commit ([0-9a-f]{40})/.exec(readFileSync(join(dir, 'README.md'), 'utf8'))?.[1]
  if (!commit) throw new Error(`${dir}/README.md names no 40-hex commit`)
  const { sites, shapes, refusals } = deriveAll(facts, (extension) => extensionText(repo, commit, extension))
  const table: DerivedSitesTable = {
    generatedBy: 'scripts/derived-sites.ts (regenerate; never edit by hand)',
    source: { repository: REPOSITORY, commit, license: 'Apache-2.0', file: "each one-off extension's chapterListParse" },
    sites,
  }
  writeFileSync(OUT, formatDerived(table))
  console.log(`wrote ${OUT}: ${sites.length} derived Sites for ${sites.reduce((n, s) => n + s.sources.length, 0)} sources`)
  console.log('shapes accepted (extensions):')
  for (const [shape, n] of [...shapes].sort((a, b) => b[1] - a[1])) console.log(`  ${n}\t${shape}`)
  console.log('refused (extensions):')
  for (const [why, n] of [...refusals].sort((a, b) => b[1] - a[1])) console.log(`  ${n}\t${why}`)
  const coverage = coverageTable(coverageByLanguage(facts, sites))
  console.log(coverage)
  const doc = readFileSync(DOC, 'utf8')
  const updated = withCoverage(doc, coverage)
  if (updated !== doc) writeFileSync(DOC, updated)
  console.log(updated === doc ? `${DOC}: the coverage table as it was` : `${DOC}: the coverage table rewritten`)
}

const DOC = 'docs/sites.md'
const START = '<!-- derived-sites coverage: start (scripts/derived-sites.ts writes it) -->'
const END = '<!-- derived-sites coverage: end -->'

/** The coverage per language as docs/sites.md shows it. */
export function coverageTable(rows: ReturnType<typeof coverageByLanguage>): string {
  const pct = (n: number, t: number) => `${((100 * n) / t).toFixed(1)} %`
  const lines = rows.map(
    (r) =>
      `| ${r.lang.replace(/^\((.*)\)$/, '$1')} | ${r.total} | ${r.before} (${pct(r.before, r.total)}) | ${r.after} (${pct(r.after, r.total)}) |`,
  )
  return ['| language | sources | families | with derived |', '| --- | --- | --- | --- |', ...lines].join('\n')
}

/** The document with the table between its two markers replaced; unchanged without them. */
export function withCoverage(doc: string, table: string): string {
  const start = doc.indexOf(START)
  const end = doc.indexOf(END)
  if (start < 0 || end < start) return doc
  return `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`
}

if (process.argv[1]?.endsWith('derived-sites.ts')) main(process.argv.slice(2))

/**
 * Pages built to hurt an adapter, for tests and measurements: about `bytes` of chapter rows whose labels are
 * long white-space runs, digit runs and marker soup, an unclosed title, rows nested in each other, and one
 * honest row, `Chapter ${HOSTILE_LATEST}`, which must come out as the Latest Chapter.
 */
import { INLINE_MAX_CHARS, INLINE_MAX_DEPTH } from '../page-reader'

export const HOSTILE_LATEST = 4242

export type HostileFamily =
  | 'madara'
  | 'mangathemesia'
  | 'webtoons'
  | 'selectors'
  | 'mangadex'
  | 'keyoapp'
  | 'mangabox'
  | 'madtheme'
  | 'zeistmanga'
  | 'comiciviewer'
  | 'mangacatalog'
  | 'pizzareader'
  | 'gigaviewer'
  | 'wpcomics'
  | 'grouple'
  | 'foolslide'
  | 'mmrcms'
  | 'mangareader'
  | 'navercomic'
  | 'xcomic'
  | 'libgroup'
  | 'goda'
  | 'kagane'
  | 'mangatoon'
  | 'mangahub'
  | 'iken'

/** Labels that froze or bloated the old parser: each is far longer than a label may be. */
export const HOSTILE_LABELS: readonly string[] = [
  'ch' + ' '.repeat(4_000) + 'x',
  'Chapter' + '\t\n '.repeat(1_500) + '1',
  '9'.repeat(3_000),
  'ch.'.repeat(1_000) + '#'.repeat(500) + 'vol.'.repeat(500) + 'v2s3e'.repeat(200),
  '1-'.repeat(1_500) + '.a'.repeat(500),
  'extra'.repeat(600) + 'omake'.repeat(200),
  ('# ' + ' .'.repeat(40)).repeat(60),
]

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

function rows(bytes: number, row: (label: string, i: number) => string, separator = ''): string {
  const parts: string[] = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const part = row(HOSTILE_LABELS[i % HOSTILE_LABELS.length]!, i)
    parts.push(part)
    size += part.length
  }
  return parts.join(separator)
}

/** JSON items: the honest one first, then hostile ones up to about `bytes`, joined by commas. */
function jsonItems(bytes: number, item: (label: string, i: number) => string): string {
  return `${item(`Chapter ${HOSTILE_LATEST}`, 0)},${rows(bytes, (label, i) => item(label, i + 1), ',')}`
}

/** A hostile page of about `bytes` characters for a family (JSON for the API families, HTML for the rest). */
export function hostilePage(family: HostileFamily, bytes: number): string {
  return HOSTILE_PAGES[family](bytes)
}

const honest = `Chapter ${HOSTILE_LATEST}`
// Rows nested in each other: each row's walk would otherwise cover all the rest.
const nested = (open: string, close: string, n: number) => open.repeat(n) + close.repeat(n)
const unclosedTitle = (tag: string) => `<${tag}>Hostile Series ${'w '.repeat(200_000)}`
const hugeTitle = () => JSON.stringify(`Hostile ${'w '.repeat(200_000)}`)

/** Each family's hostile page of about `bytes` characters, the honest row first. */
const HOSTILE_PAGES: Record<HostileFamily, (bytes: number) => string> = {
  madara: (bytes) =>
    `<div class="post-title"><h1>Hostile <span class="manga-title-badges">END</span> Series</h1></div><ul>` +
    `<li class="wp-manga-chapter"><a href="/c/honest">${honest}</a></li>` +
    nested('<div class="wp-manga-chapter"><span>', '</span></div>', 3_000) +
    rows(bytes, (label, i) => `<li class="wp-manga-chapter"><a href="/c/${i}">${escapeAttr(label)}</a></li>`) +
    `</ul>${unclosedTitle('h1')}`,
  mangathemesia: (bytes) =>
    `${unclosedTitle('h1 class="entry-title"')}<div id="chapterlist"><ul>` +
    `<li data-num="${HOSTILE_LATEST}"><a href="/c/honest"><span class="chapternum">${honest}</span></a></li>` +
    rows(
      bytes,
      (label, i) => `<li data-num="${escapeAttr(label)}"><a href="/c/${i}"><span class="chapternum">${escapeAttr(label)}</span></a></li>`,
    ) +
    `</ul></div>`,
  webtoons: (bytes) =>
    `${unclosedTitle('h1 class="subj"')}<ul id="_listUl">` +
    `<li data-episode-no="${HOSTILE_LATEST}"><a href="/e/honest"><span class="subj"><span>${honest}</span></span></a></li>` +
    rows(
      bytes,
      (label, i) =>
        `<li data-episode-no="${escapeAttr(label)}"><a href="/e/${i}"><span class="subj"><span>${escapeAttr(label)}</span></span></a></li>`,
    ) +
    `</ul>`,
  selectors: (bytes) =>
    `${unclosedTitle('h1')}<ol>` +
    `<li class="ch"><a href="/c/honest" data-n="${HOSTILE_LATEST}">${honest}</a></li>` +
    rows(bytes, (label, i) => `<li class="ch"><a href="/c/${i}" data-n="${escapeAttr(label)}">${escapeAttr(label)}</a></li>`) +
    `</ol>`,
  keyoapp: (bytes) =>
    `<div id="chapters"><a href="/c/honest"><div class="text-sm">${honest}</div></a>` +
    nested('<a href="/c/n"><div class="text-sm">', '</div></a>', 3_000) +
    rows(
      bytes,
      (label, i) => `<a href="/c/${i}"><div class="text-sm">${escapeAttr(label)}</div><div class="text-xs">${escapeAttr(label)}</div></a>`,
    ) +
    `</div>${unclosedTitle('h1')}`,
  mangabox: (bytes) =>
    `<ul class="row-content-chapter"><li><a href="/c/honest">${honest}</a></li>` +
    nested('<li><span>', '</span></li>', 3_000) +
    rows(bytes, (label, i) => `<li><a href="/c/${i}">${escapeAttr(label)}</a></li>`) +
    `</ul>${unclosedTitle('h1')}`,
  madtheme: (bytes) =>
    `<ul id="chapter-list"><li><a href="/c/honest"><strong class="chapter-title">${honest}</strong></a></li>` +
    rows(bytes, (label, i) => `<li><a href="/c/${i}"><strong class="chapter-title">${escapeAttr(label)}</strong></a></li>`) +
    `</ul><div class="detail">${unclosedTitle('h1')}`,
  pizzareader: (bytes) =>
    `{"comic":{"title":${hugeTitle()},"chapters":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({ chapter: null, full_title: label, url: `/read/x/${i}` }),
    )}]}}`,
  mangacatalog: (bytes) =>
    `<div class="w-full"><div class="bg-bg-secondary"><div class="grid"><div class="col-span-4"><a href="/c/honest">${honest}</a></div></div>` +
    rows(bytes, (label, i) => `<div class="grid"><div class="col-span-4"><a href="/c/${i}">${escapeAttr(label)}</a></div></div>`) +
    `</div></div>${unclosedTitle('h1')}`,
  zeistmanga: (bytes) =>
    `{"feed":{"entry":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({ title: { $t: label }, link: [{ rel: 'alternate', href: `https://blog.example/c/${i}.html` }] }),
    )}]}}`,
  comiciviewer: (bytes) =>
    `{"series":{"summary":{"name":${hugeTitle()}},"episodes":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({ id: `e${i}`, title: label, datePublished: 1 }),
    )}]}}`,
  gigaviewer: (bytes) =>
    `[${jsonItems(bytes, (label, i) => JSON.stringify({ readable_product_id: `${i}`, title: label, display_open_at: label, status: { label } }))}]`,
  wpcomics: (bytes) =>
    `${unclosedTitle('h1 class="title-detail"')}<div class="list-chapter"><ul>` +
    `<li class="row"><div class="chapter"><a href="/c/honest">${honest}</a></div><div class="col-xs-4">28/11/2026</div></li>` +
    nested('<li class="row"><span>', '</span></li>', 3_000) +
    rows(
      bytes,
      (label, i) => `<li class="row"><a href="/c/${i}">${escapeAttr(label)}</a><div class="col-xs-4">${escapeAttr(label)}</div></li>`,
    ) +
    `</ul></div>`,
  grouple: (bytes) =>
    `${unclosedTitle('span class="cr-hero-names__main"')}<table>` +
    `<tr class="item-row"><td class="item-title"><a class="chapter-link" href="/c/honest">${honest}</a></td><td class="date d-none">28.11.26</td></tr>` +
    rows(
      bytes,
      (label, i) =>
        `<tr class="item-row"><td class="item-title" data-num="${escapeAttr(label)}"><a class="chapter-link" href="/c/${i}">${escapeAttr(label)}</a></td><td class="date d-none">${escapeAttr(label)}</td></tr>`,
    ) +
    `</table>`,
  foolslide: (bytes) =>
    `<div class="list"><div class="element"><div class="title"><a href="/c/honest" title="h">${honest}</a></div><div class="meta_r">by x, 2026.11.28</div></div>` +
    nested('<div class="element"><span>', '</span></div>', 3_000) +
    rows(
      bytes,
      (label, i) =>
        `<div class="element"><a href="/c/${i}" title="t">${escapeAttr(label)}</a><div class="meta_r">${escapeAttr(label)}</div></div>`,
    ) +
    `</div>${unclosedTitle('h1 class="title"')}`,
  mmrcms: (bytes) =>
    `<ul class="chapters"><li><h5 class="chapter-title-rtl"><a href="/c/honest">${honest}</a></h5></li>` +
    nested('<li><h5 class="chapter-title-rtl">', '</h5></li>', 3_000) +
    rows(
      bytes,
      (label, i) =>
        `<li><h5 class="chapter-title-rtl"><a href="/c/${i}">${escapeAttr(label)}</a></h5><div class="date-chapter-title-rtl">${escapeAttr(label)}</div></li>`,
    ) +
    `</ul>${unclosedTitle('h2 class="listmanga-header"')}`,
  mangareader: (bytes) =>
    `${unclosedTitle('h2 class="manga-name"')}<ul id="en-chapters"><li class="chapter-item"><a href="/c/honest"><span class="name">${honest}</span></a></li>` +
    nested('<li class="chapter-item"><span>', '</span></li>', 3_000) +
    rows(bytes, (label, i) => `<li class="chapter-item"><a href="/c/${i}"><span class="name">${escapeAttr(label)}</span></a></li>`) +
    `</ul>`,
  mangadex: (bytes) => mangadexPage(bytes),
  // The number is `no`; the hostile labels are the subtitles, each under a lower number than the honest one.
  navercomic: (bytes) =>
    `{"titleId":1,"pageInfo":{"nextPage":2},"articleList":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({ no: i === 0 ? HOSTILE_LATEST : i % HOSTILE_LATEST, subtitle: label, serviceDateDescription: label }),
    )}]}`,
  // The number is `chaNum`; the hostile labels are the names and titles (and paths), under lower numbers.
  xcomic: (bytes) =>
    `{"data":{"get_comic_chapterList_uniqList":{"items":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({
        id: String(i),
        data: { id: String(i), chaNum: i === 0 ? HOSTILE_LATEST : i % HOSTILE_LATEST, dname: label, title: label },
      }),
    )}]}}}`,
  // The number is `number` (a string); the hostile labels are the names and the first branch's dates, under lower numbers.
  libgroup: (bytes) =>
    `{"data":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({
        volume: '1',
        number: String(i === 0 ? HOSTILE_LATEST : i % HOSTILE_LATEST),
        name: label,
        branches: [{ created_at: label }],
      }),
    )}]}`,
  // GoDa漫画's API: the number read from the title; the hostile titles, then the honest one.
  goda: (bytes) =>
    `{"data":{"slug":"hostile","chapters":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({ id: i, attributes: { title: i === 0 ? honest : label, slug: `c${i}`, updatedAt: label } }),
    )}]}}`,
  // The number is `number` (a JSON number); the hostile labels are the titles and dates, under lower numbers.
  mangahub: (bytes) =>
    `{"data":{"manga":{"title":"Hostile","chapters":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({ number: i === 0 ? HOSTILE_LATEST : i % HOSTILE_LATEST, title: label, date: label }),
    )}]}}}`,
  // The number is `chapter_no`; the hostile labels are the titles and volumes, under lower numbers.
  kagane: (bytes) =>
    `{"title":"Hostile","series_books":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({
        book_id: `b${i}`,
        chapter_no: String(i === 0 ? HOSTILE_LATEST : i % HOSTILE_LATEST),
        title: label,
        volume_no: label,
      }),
    )}]}`,
  // The number is `div.episode-number`; the hostile labels are the episode titles, under lower numbers.
  mangatoon: (bytes) =>
    `${unclosedTitle('h1')}<a class="episode-item-new" href="/vi/watch/1/0"><div class="episode-number">${HOSTILE_LATEST}</div>` +
    `<div class="episode-title-new">${honest}</div></a>` +
    rows(
      bytes,
      (label, i) =>
        `<a class="episode-item-new" href="/vi/watch/1/${i + 1}"><div class="episode-number">${(i + 1) % HOSTILE_LATEST}</div>` +
        `<div class="episode-title-new">${escapeAttr(label)}</div></a>`,
    ),
  // Iken's post: the number is `number` (a JSON number); the hostile labels are the title, the chapters' titles and dates.
  iken: (bytes) =>
    `{"post":{"id":1,"postTitle":${JSON.stringify(HOSTILE_LABELS[0])},"chapters":[${jsonItems(bytes, (label, i) =>
      JSON.stringify({ id: i, slug: `c${i}`, number: i === 0 ? HOSTILE_LATEST : i % HOSTILE_LATEST, title: label, createdAt: label }),
    )}]}}`,
}

/** MangaDex's chapter feed: the honest chapter first, then hostile ones (volume, number and title alike). */
function mangadexPage(bytes: number): string {
  const item = (chapter: string, i: number) =>
    JSON.stringify({
      id: `id-${i}`,
      type: 'chapter',
      attributes: { volume: chapter, chapter, title: chapter, translatedLanguage: 'en', externalUrl: null, pages: 10 },
      relationships: [],
    })
  const items = [item(String(HOSTILE_LATEST), 0)]
  let size = 0
  for (let i = 1; size < bytes; i++) {
    const part = item(HOSTILE_LABELS[i % HOSTILE_LABELS.length]!, i)
    items.push(part)
    size += part.length
  }
  return `{"result":"ok","response":"collection","data":[${items.join(',')}]}`
}

/**
 * A MangaThemesia chapter list whose rows are nested `depth` deep: a descendant selector (`#chapterlist
 * li[data-num]`) walks every row's ancestors, so reading it costs the square of the depth — about 12 s for
 * 20,000 rows (1 MB) on the main thread here. What the page reader's deadline is for (docs/adr/0040).
 */
export function nestedRows(depth: number): string {
  return `<div id="chapterlist">${'<div><li data-num="1"><a href="/c">Chapter 1</a>'.repeat(depth)}`
}

/**
 * The costliest page the calling thread still reads itself (docs/adr/0206-small-pages-read-inline.md): rows nested
 * INLINE_MAX_DEPTH deep, over and over, up to INLINE_MAX_CHARS; and an honest flat chapter list as long.
 */
export function inlinePages(): { worst: string; flat: string } {
  const rows = INLINE_MAX_DEPTH / 2 - 1
  const unit = `${'<div><li data-num="1"><a href="/c">Chapter 1</a>'.repeat(rows)}${'</li></div>'.repeat(rows)}`
  const worst = `<div id="chapterlist">${unit.repeat(Math.floor((INLINE_MAX_CHARS - 30) / unit.length))}</div>`
  const flat = `<div id="chapterlist">${'<li data-num="1"><a href="/c">Chapter 1</a></li>'.repeat(Math.floor((INLINE_MAX_CHARS - 30) / 50))}</div>`
  return { worst, flat }
}

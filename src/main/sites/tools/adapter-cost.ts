/**
 * Prints what one check's adapter work costs on a big page: a Madara, a MangaThemesia and a selectors page
 * of N chapter rows (default 20,000), parsed and read, median of a few runs. Run:
 * `npx tsx src/main/sites/tools/adapter-cost.ts [ROWS]`.
 */
import { FAMILIES } from '../families'
import { selectorAdapter } from '../families/selectors'
import type { Adapter } from '../site'
import { hostilePage, type HostileFamily } from './hostile-pages'

const rows = Number(process.argv[2] ?? 20_000)
const madara = (n: number) =>
  `<div class="post-title"><h1>Big Series</h1></div><ul>${Array.from(
    { length: n },
    (_, i) =>
      `<li class="wp-manga-chapter"><a href="/manga/big/chapter-${n - i}/">Chapter ${n - i}</a><span class="chapter-release-date"><i>May 1, 2024</i></span></li>`,
  ).join('')}</ul>`
const themesia = (n: number) =>
  `<h1 class="entry-title">Big Series</h1><div id="chapterlist"><ul>${Array.from(
    { length: n },
    (_, i) =>
      `<li data-num="${n - i}"><div class="eph-num"><a href="/big-chapter-${n - i}/"><span class="chapternum">Chapter ${n - i}</span><span class="chapterdate">May 1, 2024</span></a></div></li>`,
  ).join('')}</ul></div>`

function median(adapter: Adapter, body: string, url: string): number {
  const times: number[] = []
  for (let run = 0; run < 5; run++) {
    const started = performance.now()
    adapter.read({ url, status: 200, contentType: 'text/html', body }, new URL(url))
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[2]!
}

const cases: Array<[string, Adapter, string]> = [
  ['madara', FAMILIES.madara.adapter(), madara(rows)],
  ['mangathemesia', FAMILIES.mangathemesia.adapter(), themesia(rows)],
  ['selectors', selectorAdapter({ chapter: 'li.wp-manga-chapter a', number: 'text' }), madara(rows)],
]
for (const [name, adapter, body] of cases) {
  const ms = median(adapter, body, 'https://big.example/manga/big/')
  process.stdout.write(`${name}: ${rows} rows, ${(body.length / 1e6).toFixed(2)} MB: ${ms.toFixed(0)} ms\n`)
}

const families: HostileFamily[] = [
  'madara',
  'mangathemesia',
  'webtoons',
  'selectors',
  'mangadex',
  'keyoapp',
  'mangabox',
  'madtheme',
  'zeistmanga',
  'comiciviewer',
  'mangacatalog',
  'pizzareader',
  'gigaviewer',
  'wpcomics',
  'grouple',
  'foolslide',
  'mmrcms',
  'mangareader',
  'navercomic',
  'xcomic',
  'kagane',
  'mangatoon',
]
const hostileAdapters: Record<HostileFamily, Adapter> = {
  madara: FAMILIES.madara.adapter(),
  mangathemesia: FAMILIES.mangathemesia.adapter(),
  webtoons: FAMILIES.webtoons.adapter(),
  selectors: selectorAdapter({ chapter: 'li.ch a', number: 'attr:data-n' }),
  mangadex: FAMILIES.mangadex.adapter(),
  keyoapp: FAMILIES.keyoapp.adapter(),
  mangabox: FAMILIES.mangabox.adapter(),
  madtheme: FAMILIES.madtheme.adapter(),
  zeistmanga: FAMILIES.zeistmanga.adapter(),
  comiciviewer: FAMILIES.comiciviewer.adapter(),
  mangacatalog: FAMILIES.mangacatalog.adapter(),
  pizzareader: FAMILIES.pizzareader.adapter(),
  gigaviewer: FAMILIES.gigaviewer.adapter(),
  wpcomics: FAMILIES.wpcomics.adapter(),
  grouple: FAMILIES.grouple.adapter(),
  foolslide: FAMILIES.foolslide.adapter(),
  mmrcms: FAMILIES.mmrcms.adapter(),
  mangareader: FAMILIES.mangareader.adapter(),
  navercomic: FAMILIES.navercomic.adapter(),
  xcomic: FAMILIES.xcomic.adapter(),
  kagane: FAMILIES.kagane.adapter(),
  mangatoon: FAMILIES.mangatoon.adapter(),
}
for (const family of families) {
  const body = hostilePage(family, 5 * 1024 * 1024)
  const url =
    family === 'mangadex'
      ? 'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/x'
      : family === 'navercomic'
        ? 'https://comic.naver.com/webtoon/list?titleId=1'
        : family === 'xcomic'
          ? 'https://xcomic.me/comic/1-hostile'
          : family === 'kagane'
            ? 'https://kagane.to/series/hostile'
            : family === 'mangatoon'
              ? 'https://mangatoon.mobi/vi/detail/1'
              : 'https://big.example/manga/big/'
  const ms = median(hostileAdapters[family], body, url)
  process.stdout.write(`hostile ${family}: ${(body.length / 1e6).toFixed(2)} MB: ${ms.toFixed(0)} ms\n`)
}

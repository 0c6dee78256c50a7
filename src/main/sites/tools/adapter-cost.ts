/**
 * Prints what one check's adapter work costs on a big page: a Madara, a MangaThemesia and a selectors page
 * of N chapter rows (default 20,000), parsed and read, median of a few runs. Run:
 * `npx tsx src/main/sites/tools/adapter-cost.ts [ROWS]`.
 */
import { FAMILIES } from '../families'
import { selectorAdapter } from '../families/selectors'
import type { Adapter } from '../site'
import { hostileCases } from './hostile-cases'
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

for (const [family, { adapter, url }] of Object.entries(hostileCases())) {
  const body = hostilePage(family as HostileFamily, 5 * 1024 * 1024)
  const ms = median(adapter, body, url)
  process.stdout.write(`hostile ${family}: ${(body.length / 1e6).toFixed(2)} MB: ${ms.toFixed(0)} ms\n`)
}

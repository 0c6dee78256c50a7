/**
 * `npm run bench [-- --out FILE] [-- --only NAME[,NAME…]]`: every benchmark, each measured against a bare baseline in
 * the same run. Prints a table; with --out, writes `[{name, value, unit, baseline, ratio, target, pass}]`.
 */
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { wantsHelp } from '../src/main/cli/help'
import { browserPages } from './browser-pages'
import { checkOverhead } from './check-overhead'
import { checks150k } from './checks-150k'
import { chapters100k, chapters100kCheckOverhead, chapters100kFullSync, chapters100kSince } from './chapters-100k'
import { import5000, import5000Requests } from './import-5000'
import { importHostile } from './import-hostile'
import { importLarge } from './import-large'
import { digest50x200 } from './digest'
import { export50k } from './export-50k'
import { export300k, fullSync150k } from './big-reads-streamed'
import { seriesList10k } from './series-list'
import { idleCpu100k, memory100k, seriesListChromium100k, startup100k } from './shell-100k'
import { dueQuery100k, overview100k, seriesListStore100k, since5k } from './store-100k'
import { syncThroughput } from './sync-throughput'
import { inlineWorstPage } from './inline-page'

export interface BenchResult {
  name: string
  value: number
  unit: string
  baseline: number
  ratio: number
  /** A description of the target, e.g. ">= 0.6" (ratio) or "<= 500" (value). */
  target: string
  pass: boolean
  note?: string
}

const BENCHES: Record<string, () => Promise<BenchResult>> = {
  'sync-throughput': syncThroughput,
  'series-list-10k': seriesList10k,
  'browser-pages-per-minute': browserPages,
  'import-5000': import5000,
  'import-5000-requests': import5000Requests,
  'import-hostile': importHostile,
  'inline-worst-page': inlineWorstPage,
  'import-large': importLarge,
  'export-50k': export50k,
  'export-300k': export300k,
  'full-sync-150k': fullSync150k,
  'checks-150k': checks150k,
  'due-query-100k': dueQuery100k,
  'series-list-100k': seriesListStore100k,
  'series-list-100k-chromium': seriesListChromium100k,
  'overview-100k': overview100k,
  'since-5k': since5k,
  'check-overhead': () => checkOverhead(),
  'chapters-100k': chapters100k,
  'chapters-100k-check-overhead': chapters100kCheckOverhead,
  'chapters-100k-full-sync': chapters100kFullSync,
  'chapters-100k-since': chapters100kSince,
  'digest-50x200': digest50x200,
  'startup-100k': startup100k,
  'idle-cpu-100k': idleCpu100k,
  'memory-100k': memory100k,
}

if (wantsHelp(process.argv.slice(2))) {
  console.log(
    [
      'Usage: npm run bench [-- --out FILE] [--only NAME]',
      '',
      'Runs every benchmark, each against a bare baseline in the same run, and prints a table of figures and ratios.',
      '  --out FILE   also write [{name, value, unit, baseline, ratio, target, pass}] as JSON',
      `  --only NAME  run one benchmark: ${Object.keys(BENCHES).join(', ')}`,
    ].join('\n'),
  )
  process.exit(0)
}
const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } })
const results: BenchResult[] = []
for (const [name, run] of Object.entries(BENCHES)) {
  if (values.only && !values.only.split(',').includes(name)) continue
  process.stderr.write(`bench: ${name}…\n`)
  results.push(await run())
}
const round = (n: number) => (Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100)
console.log(['name', 'value', 'unit', 'baseline', 'ratio', 'target', 'pass'].join('\t'))
for (const r of results)
  console.log(
    [r.name, round(r.value), r.unit, round(r.baseline), round(r.ratio), r.target, r.pass ? 'yes' : 'NO'].join('\t') +
      (r.note ? `\t(${r.note})` : ''),
  )
if (values.out)
  writeFileSync(
    values.out,
    `${JSON.stringify(
      results.map(({ note: _note, ...r }) => r),
      null,
      2,
    )}\n`,
  )

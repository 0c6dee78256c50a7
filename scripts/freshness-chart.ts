/**
 * `npx tsx scripts/freshness-chart.ts SVG REPORT.json…` — the table and the chart of docs/freshness.md from
 * simulation reports (`npm run simulate -- … --out REPORT.json`): prints the Markdown table (seed × cadence:
 * requests, New Chapters, requests per New Chapter, detection delay p50/p95/max, invariant violations) and
 * writes an SVG of detection delay (p50 and p95) against requests per New Chapter. No dependency: plain SVG.
 * The requests on the Sites with an updates page (the simulation's Madara, MangaThemesia and MangaDex Sites, by
 * their keys `simN-<family>`; docs/adr/0165-site-feeds.md) and the page's reads are counted apart. A row labelled
 * with "pages" (`REPORT.json=adaptive, with pages`) is drawn in green.
 */
import { readFileSync, writeFileSync } from 'node:fs'

interface Row {
  seed: number
  days: number
  cadence: string
  requests: number
  newChapters: number
  perNewChapter: number
  p50: number
  p95: number
  max: number
  violations: number
  unexplained: number
  /** Requests on the Sites whose family publishes an updates page. */
  onPageSites: number
  /** Reads of the updates pages. */
  pageReads: number
}

interface Report {
  options: { seed: number; days: number; cadence?: string }
  requests: { total: number; perNewChapter: number | null; perSitePerDay: Record<string, number[]> }
  feedRequests?: number
  newChaptersDetected: number
  detectionDelayMs: { p50: number | null; p95: number | null; max: number | null }
  invariantViolations: unknown[]
  unexplainedErrors: unknown[]
}

const [svgFile, ...files] = process.argv.slice(2)
if (!svgFile || files.length === 0) {
  console.error('usage: npx tsx scripts/freshness-chart.ts OUT.svg REPORT.json…')
  process.exit(2)
}
/** The simulation's Sites whose family publishes an updates page (sim-feeds.ts `isFeedRequest`). */
const PAGE_SITE = /^sim\d+-(madara|madara-xhr|mangathemesia|mangadex)$/
// `REPORT.json=LABEL` names the row (say, a version of the rule); by default, its cadence.
const rows: Row[] = files.map((arg) => {
  const [file, label] = arg.split('=') as [string, string | undefined]
  const r = JSON.parse(readFileSync(file, 'utf8')) as Report
  return {
    seed: r.options.seed,
    days: r.options.days,
    cadence: label ?? r.options.cadence ?? 'fixed',
    requests: r.requests.total,
    newChapters: r.newChaptersDetected,
    perNewChapter: r.requests.perNewChapter ?? 0,
    p50: r.detectionDelayMs.p50 ?? 0,
    p95: r.detectionDelayMs.p95 ?? 0,
    max: r.detectionDelayMs.max ?? 0,
    violations: r.invariantViolations.length,
    unexplained: r.unexplainedErrors.length,
    onPageSites: Object.entries(r.requests.perSitePerDay)
      .filter(([site]) => PAGE_SITE.test(site))
      .reduce((sum, [, days]) => sum + days.reduce((a, b) => a + b, 0), 0),
    pageReads: r.feedRequests ?? 0,
  }
})
rows.sort((a, b) => a.seed - b.seed || a.cadence.localeCompare(b.cadence))

const min = (ms: number) => `${(ms / 60_000).toFixed(0)} min`
console.log(
  '| seed | days | cadence | requests | on Sites with a page | of them, page reads | New Chapters | requests per New Chapter | p50 | p95 | max | violations | unexplained errors |',
)
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const r of rows)
  console.log(
    `| ${r.seed} | ${r.days} | ${r.cadence} | ${r.requests} | ${r.onPageSites} | ${r.pageReads} | ${r.newChapters} | ${r.perNewChapter} | ${min(r.p50)} | ${min(r.p95)} | ${min(r.max)} | ${r.violations} | ${r.unexplained} |`,
  )
for (const seed of [...new Set(rows.map((r) => r.seed))]) {
  const fixed = rows.find((r) => r.seed === seed && r.cadence === 'fixed')
  if (!fixed) continue
  for (const adaptive of rows.filter((r) => r.seed === seed && r.cadence.startsWith('adaptive')))
    console.log(
      `\nseed ${seed}, ${adaptive.cadence}/fixed: requests ${(adaptive.requests / fixed.requests).toFixed(2)} (Sites with a page ${(adaptive.onPageSites / fixed.onPageSites).toFixed(3)}), p50 ${(adaptive.p50 / fixed.p50).toFixed(2)}, p95 ${(adaptive.p95 / fixed.p95).toFixed(2)}`,
    )
}

// The chart: x = requests per New Chapter, y = minutes of detection delay; a dot for p50, a ring for p95.
const W = 640
const H = 400
const M = { left: 64, right: 150, top: 24, bottom: 48 }
const xMax = Math.max(...rows.map((r) => r.perNewChapter)) * 1.1
const yMax = Math.max(...rows.map((r) => r.p95 / 60_000)) * 1.15
const x = (v: number) => M.left + (v / xMax) * (W - M.left - M.right)
const y = (v: number) => H - M.bottom - (v / yMax) * (H - M.top - M.bottom)
const colour = (cadence: string) =>
  cadence === 'fixed' ? '#1d4ed8' : cadence.includes('pages') ? '#15803d' : cadence.endsWith('v1') ? '#a16207' : '#c2410c'
const ticks = (max: number) => {
  const step = 10 ** Math.floor(Math.log10(max / 2))
  const nice = [1, 2, 5].map((k) => k * step).find((s) => max / s <= 8) ?? 10 * step
  return Array.from({ length: Math.floor(max / nice) + 1 }, (_, i) => i * nice)
}
const parts: string[] = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
  `<title>Detection delay against requests per New Chapter, fixed and adaptive cadence</title>`,
  `<rect width="${W}" height="${H}" fill="#fff"/>`,
]
for (const t of ticks(xMax))
  parts.push(
    `<line x1="${x(t)}" y1="${M.top}" x2="${x(t)}" y2="${H - M.bottom}" stroke="#e5e7eb"/><text x="${x(t)}" y="${H - M.bottom + 16}" text-anchor="middle">${t}</text>`,
  )
for (const t of ticks(yMax))
  parts.push(
    `<line x1="${M.left}" y1="${y(t)}" x2="${W - M.right}" y2="${y(t)}" stroke="#e5e7eb"/><text x="${M.left - 6}" y="${y(t) + 4}" text-anchor="end">${t}</text>`,
  )
parts.push(
  `<text x="${(M.left + W - M.right) / 2}" y="${H - 10}" text-anchor="middle">requests per New Chapter</text>`,
  `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">detection delay (minutes)</text>`,
)
for (const r of rows) {
  const c = colour(r.cadence)
  parts.push(
    `<line x1="${x(r.perNewChapter)}" y1="${y(r.p50 / 60_000)}" x2="${x(r.perNewChapter)}" y2="${y(r.p95 / 60_000)}" stroke="${c}" stroke-opacity="0.4"/>`,
    `<circle cx="${x(r.perNewChapter)}" cy="${y(r.p50 / 60_000)}" r="5" fill="${c}"/>`,
    `<circle cx="${x(r.perNewChapter)}" cy="${y(r.p95 / 60_000)}" r="5" fill="none" stroke="${c}" stroke-width="2"/>`,
    `<text x="${x(r.perNewChapter) + 8}" y="${y(r.p95 / 60_000) + 4}" fill="${c}">seed ${r.seed}, ${r.days} d</text>`,
  )
}
const lx = W - M.right + 16
parts.push(
  `<circle cx="${lx}" cy="${M.top + 10}" r="5" fill="#1d4ed8"/><text x="${lx + 10}" y="${M.top + 14}">fixed</text>`,
  `<circle cx="${lx}" cy="${M.top + 30}" r="5" fill="#c2410c"/><text x="${lx + 10}" y="${M.top + 34}">adaptive</text>`,
  `<circle cx="${lx}" cy="${M.top + 50}" r="5" fill="#a16207"/><text x="${lx + 10}" y="${M.top + 54}">adaptive, v1</text>`,
  `<circle cx="${lx}" cy="${M.top + 70}" r="5" fill="#15803d"/><text x="${lx + 10}" y="${M.top + 74}">adaptive, with pages</text>`,
  `<circle cx="${lx}" cy="${M.top + 96}" r="5" fill="#555"/><text x="${lx + 10}" y="${M.top + 100}">p50</text>`,
  `<circle cx="${lx}" cy="${M.top + 116}" r="5" fill="none" stroke="#555" stroke-width="2"/><text x="${lx + 10}" y="${M.top + 120}">p95</text>`,
  '</svg>',
)
writeFileSync(svgFile, `${parts.join('\n')}\n`)
console.error(`freshness-chart: wrote ${svgFile}`)

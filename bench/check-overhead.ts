/**
 * check-overhead: CPU time per check through a Lane — its passes (the due read, the eligible count, the pass
 * row) and each check (the gate, the re-read, the stamp, the fetch, the adapter, the record) — on the 100k
 * library, against a bare `fetch` + cheerio parse of the same pages in the same process. The pages come from
 * bench/site-server.ts in a child process, so only this process's CPU is counted. The Lane keeps the default
 * pace on a clock whose sleeps take no real time: a pass checks what it would check in five minutes (about 60
 * Series, a gap apart). Every check finds the chapter the library already knows under the title it already has,
 * and stores its chapter list for the first time (bench/chapters-100k.ts measures lists already stored). The copy's
 * titles are set to the pages' ("Series N") first: a title the page changes is a retitle — the title indexes and
 * the Series' bookmarks rewritten, 51 WAL pages a check against 24 — which a Series pays once, not at every check.
 *
 * Measured in rounds, each a Lane pass and a bare read of the same pages, in alternating order (A/B, B/A…); the
 * ratio is the median of the rounds' ratios. A shared machine's load drifts over a minute: one long Lane phase
 * then one long bare phase put the drift into the ratio (±0.15 between runs), while a round's two halves meet
 * nearly the same load, and the median drops a round a burst hit. Both paths are warmed first (a pass, and a bare
 * read of its pages: the JIT, the connection, the statement cache), so neither pays its start inside a round.
 * Target: ratio <= 1.0 (issue 44: the check's commits unsynced, ADR 0205; small pages read inline, ADR 0206).
 */
import BetterSqlite3 from 'better-sqlite3'
import * as cheerio from 'cheerio'
import type { Clock } from '../src/main/clock'
import { BrowserHealth } from '../src/main/fetch/browser-health'
import { createHttpFetcher } from '../src/main/fetch/http-fetcher'
import { SitePacer } from '../src/main/lanes/pacer'
import { runPass } from '../src/main/lanes/pass'
import { silentLog } from '../src/main/log'
import { createPageReader } from '../src/main/sites/page-reader'
import { loadSites } from '../src/main/sites/sites-file'
import { openStore } from '../src/main/store/database'
import { LIBRARY_AT, LIBRARY_SITES, libraryCopy, writeLibrarySites } from './library'
import { startSiteServer } from './processes'
import type { BenchResult } from './run'

/** Rounds measured, each a Lane pass (~60 checks) and a bare read of the same pages: odd, so a median is one. */
const ROUNDS = 11

/** A clock whose sleeps end at once, moving its time on by what they asked for. */
function instantClock(start: number): Clock {
  let at = start
  return {
    now: () => Math.round(at),
    monotonic: () => at,
    sleep: async (ms) => {
      at += Math.max(0, ms)
      await new Promise((resolve) => setImmediate(resolve))
    },
  }
}

const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** One round's CPU: through the Lane, and bare. */
interface Round {
  laneMs: number
  checks: number
  bareMs: number
  pages: number
}

/** Lane passes and bare reads in alternating order, after one of each to warm both; each round's CPU. */
async function measureRounds(lanePass: () => Promise<{ ms: number; urls: string[] }>): Promise<Round[]> {
  // Warm-up, both paths alike: the JIT, the statement cache, the connections.
  let pages = (await lanePass()).urls
  await bareRead(pages)
  const rounds: Round[] = []
  for (let i = 0; i < ROUNDS; i++) {
    // B/A rounds read the previous pass's pages, as many of the same kind (the bare read needs its URLs first).
    const bareFirst = i % 2 === 1 ? await bareRead(pages) : undefined
    const lane = await lanePass()
    const bare = bareFirst ?? (await bareRead(lane.urls))
    rounds.push({ laneMs: lane.ms, checks: lane.urls.length, bareMs: bare.ms, pages: bare.pages })
    pages = lane.urls
  }
  return rounds
}

/** The bare baseline: `fetch` each page and find its highest chapter with cheerio. */
async function bareRead(urls: readonly string[]): Promise<{ ms: number; pages: number }> {
  const started = cpu()
  for (const url of urls) {
    const html = await (await fetch(url)).text()
    const $ = cheerio.load(html)
    let highest = 0
    $('li.wp-manga-chapter a').each((_, a) => {
      const n = Number(/(\d+(?:\.\d+)?)/.exec($(a).text())?.[1])
      if (n > highest) highest = n
    })
    if (!highest) throw new Error(`check-overhead: no chapter on ${url}`)
  }
  return { ms: cpu() - started, pages: urls.length }
}

/** The copy's titles set to what the site server's pages say (bench/site-server.ts: "Series N" for series-N). */
function titledAsServed(file: string): void {
  const db = new BetterSqlite3(file)
  try {
    db.exec("UPDATE series SET title = 'Series ' || CAST(substr(series_id, length('series-') + 1) AS INTEGER)")
  } finally {
    db.close()
  }
}

export async function checkOverhead(options: { prepare?: (file: string) => void; maxRatio?: number } = {}): Promise<BenchResult> {
  const maxRatio = options.maxRatio ?? 1
  const server = await startSiteServer()
  const copy = await libraryCopy({ origin: server.origin })
  // (bench/chapters-100k.ts: the chapter lists stored first.)
  options.prepare?.(copy.file)
  titledAsServed(copy.file)
  const store = openStore(copy.file, { now: LIBRARY_AT.now })
  // The app reads pages in a worker thread (docs/adr/0040): its CPU is this process's too.
  const reader = createPageReader({ log: silentLog })
  try {
    await reader.warm()
    writeLibrarySites(copy.dir, server.origin)
    const site = loadSites(copy.dir, []).sites.find((s) => s.key === LIBRARY_SITES[0])!
    const clock = instantClock(LIBRARY_AT.now)
    const deps = {
      db: store.db,
      site,
      fetchers: { http: createHttpFetcher() },
      health: new BrowserHealth(clock),
      pacer: new SitePacer(clock),
      clock,
      log: silentLog,
      reader,
    }
    const signal = new AbortController().signal
    const lanePass = async (): Promise<{ ms: number; urls: string[] }> => {
      const urls: string[] = []
      const started = cpu()
      const result = await runPass({ ...deps, onCheck: (series) => urls.push(series.series_url) }, signal)
      const ms = cpu() - started
      if (result.row?.errors || result.row?.no_chapter) throw new Error(`check-overhead: a check failed: ${JSON.stringify(result.row)}`)
      if (result.row?.checked !== urls.length) throw new Error(`check-overhead: ${urls.length} checks, ${result.row?.checked} counted`)
      return { ms, urls }
    }
    const rounds = await measureRounds(lanePass)
    const ratios = rounds.map((r) => r.laneMs / r.checks / (r.bareMs / r.pages)).sort((x, y) => x - y)
    const ratio = ratios[(ratios.length - 1) >> 1]!
    const sum = (f: (r: Round) => number) => rounds.reduce((n, r) => n + f(r), 0)
    const checks = sum((r) => r.checks)
    const lane = sum((r) => r.laneMs) / checks
    const bare = sum((r) => r.bareMs) / sum((r) => r.pages)
    return {
      name: 'check-overhead',
      value: lane,
      unit: 'ms CPU/check',
      baseline: bare,
      ratio,
      target: `ratio <= ${maxRatio}`,
      pass: ratio <= maxRatio,
      note: `median of ${ROUNDS} rounds' ratios (${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)}); ${checks} checks`,
    }
  } finally {
    await reader.close()
    await store.close()
    await server.stop()
    copy.remove()
  }
}

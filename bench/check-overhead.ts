/**
 * check-overhead: CPU time per check through a Lane — its passes (the due read, the eligible count, the pass
 * row) and each check (the gate, the re-read, the stamp, the fetch, the adapter, the record) — on the 100k
 * library, against a bare `fetch` + cheerio parse of the same pages in the same process. The pages come from
 * bench/site-server.ts in a child process, so only this process's CPU is counted. The Lane keeps the default
 * pace on a clock whose sleeps take no real time: a pass checks what it would check in five minutes (about 60
 * Series, a gap apart), and every check is the steady state (the chapter the library already knows).
 * Target: ratio <= 1.0 (issue 44: the check's commits unsynced, ADR 0205; small pages read inline, ADR 0206).
 */
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

const PASSES = 5

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

export async function checkOverhead(options: { prepare?: (file: string) => void; maxRatio?: number } = {}): Promise<BenchResult> {
  const maxRatio = options.maxRatio ?? 1
  const server = await startSiteServer()
  const copy = await libraryCopy({ origin: server.origin })
  // (bench/chapters-100k.ts: the chapter lists stored first.)
  options.prepare?.(copy.file)
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
    await runPass(deps, signal) // warm-up: the JIT, the statement cache, the connection pool
    const urls: string[] = []
    let checks = 0
    const startedLane = cpu()
    for (let i = 0; i < PASSES; i++) {
      const result = await runPass({ ...deps, onCheck: (series) => urls.push(series.series_url) }, signal)
      checks += result.row?.checked ?? 0
      if (result.row?.errors || result.row?.no_chapter) throw new Error(`check-overhead: a check failed: ${JSON.stringify(result.row)}`)
    }
    const lane = (cpu() - startedLane) / checks

    const startedBare = cpu()
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
    const bare = (cpu() - startedBare) / urls.length
    const ratio = lane / bare
    return {
      name: 'check-overhead',
      value: lane,
      unit: 'ms CPU/check',
      baseline: bare,
      ratio,
      target: `ratio <= ${maxRatio}`,
      pass: ratio <= maxRatio,
      note: `${checks} checks in ${PASSES} passes`,
    }
  } finally {
    await reader.close()
    await store.close()
    await server.stop()
    copy.remove()
  }
}

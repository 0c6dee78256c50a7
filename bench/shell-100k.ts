/**
 * The headless shell on the 100k library, run as `npm run headless` runs it (its build), each figure against
 * a bare `node -e` HTTP server in the same run. The library's 6 Sites are Madara Sites on bench/site-server.ts
 * (a child process of its own); the two built-in Sites have no Series.
 *   startup-100k   spawn to the first 200 from /api/v1/health, median of 5 starts ≤ 500 ms (the integrity check
 *                  runs after it, docs/adr/0210-the-start-before-the-verdict.md)
 *   idle-cpu-100k  CPU of the shell over 60 s with nothing due, once the start's one-off work is done — its first
 *                  passes, V8's collections after them, the integrity check, the first daily backup (a minute
 *                  after the start) and the first retention run — ≤ 0.2 % of a core
 *   memory-100k    resident memory after 5 minutes of Lanes at the default pace ≤ 150 MB
 *                  (MB_BENCH_MEMORY_MS shortens the 5 minutes, for trying the bench out)
 *   series-list-100k-chromium  navigation to the first painted rows of the Series page ≤ 500 ms (baseline: a
 *                  bare node:http page rendering the same first rows from the same file)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { dirname, join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { chromium } from 'playwright-core'
import { resolveChromium } from '../src/main/fetch/browser/playwright-launcher'
import { libraryCopy, writeLibrarySites } from './library'
import {
  built,
  cpuMs,
  freePort,
  median,
  rssMb,
  sleep,
  startBare,
  startHeadless,
  startSiteServer,
  untilAnswers,
  ROOT,
  type Child,
} from './processes'
import type { BenchResult } from './run'

const STARTS = 5
/** After the first backup is in place: what is left of the start's one-off work ends within this. */
const IDLE_SETTLE_MS = 15_000
const IDLE_WINDOW_MS = 60_000
const MEMORY_MS = Number(process.env.MB_BENCH_MEMORY_MS ?? 5 * 60_000)
const TOKEN = 'bench-admin-token-0123456789'

/** A data directory with the library at the current time, and its Sites on a running page server. */
async function shellData(profile: 'busy' | 'idle') {
  built()
  const server = await startSiteServer()
  const copy = await libraryCopy({ now: Date.now(), origin: server.origin, profile })
  writeLibrarySites(copy.dir, server.origin)
  return {
    ...copy,
    async remove() {
      await server.stop()
      copy.remove()
    },
  }
}

async function started(child: Child, port: number): Promise<Child> {
  await untilAnswers(`http://127.0.0.1:${port}/api/v1/health`, performance.now(), child)
  return child
}

/**
 * The bytes of code a start compiles before its first line runs: out/main/headless.js and every chunk it imports
 * statically, transitively (a dynamic `import()` loads later; docs/adr/0229-a-start-that-loads-what-it-answers-with.md).
 */
export function codeLoadedAtStart(entry = join(ROOT, 'out/main/headless.js')): number {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const [, path] of readFileSync(file, 'utf8').matchAll(/^import(?:[^;'"]*?from)?\s*"(\.{1,2}\/[^"]+)"/gm))
      visit(join(dirname(file), path!))
  }
  visit(entry)
  return [...seen].reduce((sum, file) => sum + statSync(file).size, 0)
}

export async function startup100k(): Promise<BenchResult> {
  const data = await shellData('busy')
  try {
    const app: number[] = []
    const bare: number[] = []
    for (let i = 0; i < STARTS; i++) {
      for (const [kind, times] of [
        ['app', app],
        ['bare', bare],
      ] as const) {
        const port = await freePort()
        const t0 = performance.now()
        const child = kind === 'app' ? startHeadless(data.dir, port) : startBare(port)
        try {
          times.push(await untilAnswers(`http://127.0.0.1:${port}/api/v1/health`, t0, child))
        } finally {
          await child.stop()
        }
      }
    }
    const value = median(app)
    const baseline = median(bare)
    const loaded = `${(codeLoadedAtStart() / 1e6).toFixed(2)} MB of code loaded before the first line runs`
    return {
      name: 'startup-100k',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: 'value <= 500 ms',
      pass: value <= 500,
      note: loaded,
    }
  } finally {
    await data.remove()
  }
}

export async function idleCpu100k(): Promise<BenchResult> {
  const data = await shellData('idle')
  try {
    const backups = join(data.dir, 'backups')
    const backedUp = () => existsSync(backups) && readdirSync(backups).some((f) => f.endsWith('.sqlite'))
    const appPort = await freePort()
    const app = startHeadless(data.dir, appPort)
    const barePort = await freePort()
    const bare = startBare(barePort)
    try {
      await Promise.all([started(app, appPort), started(bare, barePort)])
      // The first daily backup is made a minute after the start (docs/adr/0048-backups.md): a day's work, not idling.
      for (let i = 0; !backedUp() && i < 240; i++) await sleep(500)
      if (!backedUp()) throw new Error('idle-cpu-100k: no backup two minutes after the start')
      await sleep(IDLE_SETTLE_MS)
      // Side by side, so both see the same machine over the same minute.
      const before = [cpuMs(app.pid), cpuMs(bare.pid)]
      await sleep(IDLE_WINDOW_MS)
      const [value, baseline] = [cpuMs(app.pid), cpuMs(bare.pid)].map((ms, i) => ((ms - before[i]!) / IDLE_WINDOW_MS) * 100) as [
        number,
        number,
      ]
      return {
        name: 'idle-cpu-100k',
        value,
        unit: '% of a core',
        baseline,
        ratio: baseline > 0 ? value / baseline : value,
        target: 'value <= 0.2 %',
        pass: value <= 0.2,
      }
    } finally {
      await Promise.all([app.stop(), bare.stop()])
    }
  } finally {
    await data.remove()
  }
}

export async function memory100k(): Promise<BenchResult> {
  const data = await shellData('busy')
  try {
    const appPort = await freePort()
    const barePort = await freePort()
    const since = Date.now()
    const app = await started(startHeadless(data.dir, appPort), appPort)
    const bare = await started(startBare(barePort), barePort)
    try {
      await sleep(MEMORY_MS)
      const value = rssMb(app.pid)
      const baseline = rssMb(bare.pid)
      // Checks stamped meanwhile (a pass writes its row only when it ends, after up to maxPassMs).
      const db = new BetterSqlite3(data.file, { readonly: true })
      const checked = db.prepare('SELECT COUNT(*) AS n FROM series WHERE latest_checked_at >= ?').get(since) as { n: number }
      db.close()
      return {
        name: 'memory-100k',
        value,
        unit: 'MB RSS',
        baseline,
        ratio: value / baseline,
        target: 'value <= 150 MB',
        pass: value <= 150,
        note: `${checked.n} checks in ${Math.round(MEMORY_MS / 1000)} s`,
      }
    } finally {
      await Promise.all([app.stop(), bare.stop()])
    }
  } finally {
    await data.remove()
  }
}

export async function seriesListChromium100k(): Promise<BenchResult> {
  const executablePath = resolveChromium(undefined)
  if (!executablePath) throw new Error('series-list-100k-chromium needs Chromium')
  const data = await shellData('busy')
  const port = await freePort()
  const adminPort = await freePort()
  const shell = await started(startHeadless(data.dir, port, ['--admin-port', String(adminPort)], { MB_ADMIN_TOKEN: TOKEN }), port)
  // The owner's window is on a listener of its own (docs/adr/0042).
  const origin = `http://127.0.0.1:${adminPort}`
  const sqlite = new BetterSqlite3(data.file, { readonly: true })
  const firstRows = sqlite.prepare(
    'SELECT title, site, latest_chapter FROM series ORDER BY title COLLATE NOCASE, site, series_id LIMIT 100',
  )
  const bare = createServer((_req, res) => {
    const rows = firstRows.all() as Array<{ title: string; site: string; latest_chapter: number }>
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(
      `<!doctype html><table>${rows.map((r) => `<tr data-series><td>${r.title}</td><td>${r.site}</td><td>${r.latest_chapter}</td></tr>`).join('')}</table>`,
    )
  })
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r))
  const barePort = (bare.address() as { port: number }).port
  const browser = await chromium.launch({
    executablePath,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-background-networking', '--disable-gpu'],
  })
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
    await page.goto(`${origin}/admin/?token=${TOKEN}`)
    const time = async (url: string, selector: string) => {
      await page.goto('about:blank')
      const t0 = Date.now()
      await page.goto(url, { waitUntil: 'commit' })
      await page.locator(selector).first().waitFor({ state: 'visible' })
      return Date.now() - t0
    }
    await time(`${origin}/admin/#/series`, '[role="row"][data-series]')
    const app: number[] = []
    const base: number[] = []
    for (let i = 0; i < 7; i++) {
      app.push(await time(`${origin}/admin/#/series`, '[role="row"][data-series]'))
      base.push(await time(`http://127.0.0.1:${barePort}/`, 'tr[data-series]'))
    }
    const value = median(app)
    const baseline = median(base)
    return {
      name: 'series-list-100k-chromium',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: 'value <= 500 ms',
      pass: value <= 500,
    }
  } finally {
    await browser.close()
    bare.close()
    sqlite.close()
    await shell.stop()
    await data.remove()
  }
}

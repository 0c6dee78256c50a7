/**
 * series-list-10k: time from navigation to the first painted rows of the Series page with 10,000 Series, in
 * Chromium, against the headless shell. Baseline, same run: a bare node:http page rendering the same first
 * rows as a static HTML table from the same SQLite file. Target: <= 500 ms.
 */
import { createServer } from 'node:http'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { chromium } from 'playwright-core'
import { resolveChromium } from '../src/main/fetch/browser/playwright-launcher'
import { seedManySeries } from '../e2e/support/db'
import { startShell, tempData } from '../e2e/support/shell'
import type { BenchResult } from './run'

const RUNS = 7
const TOKEN = 'bench-admin-token-0123456789'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function seriesList10k(): Promise<BenchResult> {
  const executablePath = resolveChromium(undefined)
  if (!executablePath) throw new Error('series-list-10k needs Chromium')
  const data = tempData()
  const shell = await startShell({ dataDir: data.dir, args: ['--admin-token', TOKEN], env: { CHROMIUM_PATH: '/nonexistent' } })
  const file = join(data.dir, 'manga-bookmark.sqlite')
  seedManySeries(file, 'mangadex', 10_000)
  const sqlite = new BetterSqlite3(file, { readonly: true })
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
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${shell.adminOrigin}/admin/?token=${TOKEN}`)
    const time = async (url: string, selector: string) => {
      await page.goto('about:blank')
      const started = Date.now()
      await page.goto(url, { waitUntil: 'commit' })
      await page.locator(selector).first().waitFor({ state: 'visible' })
      return Date.now() - started
    }
    await time(`${shell.adminOrigin}/admin/#/series`, '[role="row"][data-series]')
    const app: number[] = []
    const baseline: number[] = []
    for (let i = 0; i < RUNS; i++) {
      app.push(await time(`${shell.adminOrigin}/admin/#/series`, '[role="row"][data-series]'))
      baseline.push(await time(`http://127.0.0.1:${barePort}/`, 'tr[data-series]'))
    }
    const value = median(app)
    const base = median(baseline)
    return {
      name: 'series-list-10k',
      value,
      unit: 'ms',
      baseline: base,
      ratio: value / base,
      target: 'value <= 500 ms',
      pass: value <= 500,
    }
  } finally {
    await browser.close()
    bare.close()
    sqlite.close()
    await shell.stop()
    data.remove()
  }
}

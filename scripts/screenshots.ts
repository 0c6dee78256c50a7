/**
 * `npm run screenshots`: the README's pictures of the Overview, Series and Lanes pages, taken from the demo
 * in real Chromium and written to docs/screenshots/. Takes about a minute: the demo's Lanes need a few
 * passes to have something to show.
 */
import { mkdirSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { wantsHelp } from '../src/main/cli/help'
import { resolveChromium } from '../src/main/fetch/browser/playwright-launcher'
import { startShell, tempData } from '../e2e/support/shell'

if (wantsHelp(process.argv.slice(2))) {
  console.log(
    "Usage: npm run screenshots\n\nTakes the README's pictures from the demo in real Chromium (wide and phone, light and dark) into docs/screenshots/. Takes no options.",
  )
  process.exit(0)
}
const TOKEN = 'screenshot-admin-token-0123456789'
const OUT = 'docs/screenshots'

const executablePath = resolveChromium(undefined)
if (!executablePath) throw new Error('needs Chromium (apt-get install -y chromium)')
const data = tempData()
const shell = await startShell({ dataDir: data.dir, args: ['--demo', '--admin-token', TOKEN, '--chromium', executablePath] })
const browser = await chromium.launch({
  executablePath,
  args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-background-networking', '--disable-gpu'],
})
try {
  mkdirSync(OUT, { recursive: true })
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })
  await page.goto(`${shell.adminOrigin}/admin/?token=${TOKEN}`)
  const rpc = (method: string, input: unknown) =>
    page.evaluate(
      async ({ method, input }) =>
        (
          await fetch(`/admin/rpc/${method}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(input),
          })
        ).json(),
      { method, input },
    )
  // Let the Lanes read everything once, then have two Sites publish and ask for those two at once.
  await page.waitForTimeout(30_000)
  for (const [path, site, seriesId] of [
    ['/madara/manga/moonlit-bakery/', 'fixture-madara', 'moonlit-bakery'],
    ['/themesia/manga/iron-bloom/', 'fixture-themesia', 'iron-bloom'],
  ] as const) {
    await fetch(`${shell.demoOrigin}/control/publish`, { method: 'POST', body: JSON.stringify({ path }) })
    await rpc('forceSeriesPoll', { site, seriesId })
  }
  await rpc('pauseLane', { site: 'fixture-mangadex', duration: '6h' })
  await page.waitForTimeout(40_000)
  await rpc('forceSeriesPoll', { site: 'fixture-webtoons', seriesId: '6262' })
  await rpc('pauseLane', { site: 'fixture-webtoons', duration: '1h' })

  await page.goto(`${shell.adminOrigin}/admin/#/`)
  await page.waitForTimeout(1_500)
  await page.screenshot({ path: `${OUT}/overview.png` })
  await page.goto(`${shell.adminOrigin}/admin/#/series`)
  await page.waitForTimeout(1_500)
  await page.screenshot({ path: `${OUT}/series.png` })
  await page.goto(`${shell.adminOrigin}/admin/#/lanes`)
  await page.waitForTimeout(2_000)
  await page.screenshot({ path: `${OUT}/lanes.png`, fullPage: true })
  console.log(`screenshots written to ${OUT}/`)
} finally {
  await browser.close()
  await shell.stop()
  data.remove()
}

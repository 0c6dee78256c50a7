/**
 * `npm run screenshots`: the README's pictures, taken from the demo in real Chromium and written to
 * docs/screenshots/ — the Overview, Series, Lanes and Updates pages, a new Reader's token with its QR code, the
 * dark scheme, and the phone (the owner's Series list and the Readers' page at 390 px). Takes about a minute and
 * a half: the demo's Lanes need a few passes to have something to show.
 */
import { mkdirSync } from 'node:fs'
import { chromium, type Page } from 'playwright-core'
import { wantsHelp } from '../src/main/cli/help'
import { resolveChromium } from '../src/main/fetch/browser/playwright-launcher'
import { startShell, tempData } from '../e2e/support/shell'

if (wantsHelp(process.argv.slice(2))) {
  console.log(
    "Usage: npm run screenshots\n\nTakes the README's pictures from the demo in real Chromium (wide and phone, light and dark) into docs/screenshots/. Takes no options.",
  )
  process.exit(0)
}
const OUT = 'docs/screenshots'
const WIDE = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

const executablePath = resolveChromium(undefined)
if (!executablePath) throw new Error('needs Chromium (apt-get install -y chromium)')
const data = tempData()
const shell = await startShell({ dataDir: data.dir, args: ['--demo', '--chromium', executablePath] })
const browser = await chromium.launch({
  executablePath,
  args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-background-networking', '--disable-gpu'],
})

/** A page signed in to the owner's window. */
async function ownerPage(options: { viewport: { width: number; height: number }; colorScheme: 'light' | 'dark' }): Promise<Page> {
  const page = await browser.newPage({ ...options, ...(options.viewport.width < 600 ? { isMobile: true, deviceScaleFactor: 2 } : {}) })
  await page.goto(shell.adminUrl!)
  return page
}

/** Runs in the page: no focus ring on whatever the page focused (a picture, not a keyboard session). */
const blurFocus = 'document.activeElement && document.activeElement.blur && document.activeElement.blur()'

async function shoot(page: Page, path: string, name: string, fullPage = false): Promise<void> {
  await page.goto(`${shell.adminOrigin}/admin/#${path}`)
  // A page already showing (the Overview after signing in) reads afresh.
  await page.reload()
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1_500)
  await page.evaluate(blurFocus)
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage })
}

try {
  mkdirSync(OUT, { recursive: true })
  const page = await ownerPage({ viewport: WIDE, colorScheme: 'light' })
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
  await rpc('forceSeriesPoll', { site: 'fixture-refusing', seriesId: 'grumpy-knight' })
  await rpc('pauseLane', { site: 'fixture-webtoons', duration: '1h' })

  // A new Reader: the token shown once, the address to open and — once phones on the network are let in, from
  // that screen — the code to scan. First, so the Overview after it has every first-run step done.
  await page.goto(`${shell.adminOrigin}/admin/#/readers`)
  await page.getByLabel('New Reader').fill('Chiyo')
  await page.getByRole('button', { name: 'Add Reader' }).click()
  await page.getByRole('button', { name: 'Let phones on this network in' }).click()
  await page.locator('[data-qr]').waitFor()
  await page.evaluate(blurFocus)
  await page.screenshot({ path: `${OUT}/readers-token.png` })

  await shoot(page, '/', 'overview')
  await shoot(page, '/series', 'series')
  await shoot(page, '/lanes', 'lanes', true)
  await shoot(page, '/updates', 'updates')

  const dark = await ownerPage({ viewport: WIDE, colorScheme: 'dark' })
  await shoot(dark, '/series?sort=changed', 'series-dark')

  const phone = await ownerPage({ viewport: PHONE, colorScheme: 'light' })
  await shoot(phone, '/series?sort=changed', 'phone-series')
  const reader = await browser.newPage({ viewport: PHONE, colorScheme: 'light', isMobile: true, deviceScaleFactor: 2 })
  await reader.goto(`${shell.origin}/#token=${encodeURIComponent(shell.tokens.Aiko!)}`)
  await reader.getByRole('heading', { name: /Your bookmarks/ }).waitFor()
  await reader.waitForTimeout(1_000)
  await reader.evaluate(blurFocus)
  await reader.screenshot({ path: `${OUT}/phone-reader.png` })
  console.log(`screenshots written to ${OUT}/`)
} finally {
  await browser.close()
  await shell.stop()
  data.remove()
}

/**
 * browser-pages-per-minute: pages read through the browser fetcher on the fixture site (a Madara page, the
 * JS challenge already solved), against the plain HTTP fetcher reading the same pages, in the same run.
 * Also reports the browser's memory awake (after the run) and asleep (after it closed: its processes end).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../src/main/clock'
import { fixtureSites } from '../src/main/demo/fixture-sites'
import { startFixtureSite } from '../src/main/demo/fixture-site'
import { createBrowserFetcher } from '../src/main/fetch/browser/browser-fetcher'
import { playwrightLauncher, resolveChromium } from '../src/main/fetch/browser/playwright-launcher'
import type { Fetcher } from '../src/main/fetch/fetcher'
import { createHttpFetcher } from '../src/main/fetch/http-fetcher'
import { silentLog } from '../src/main/log'
import { processesMentioning, residentBytes } from '../src/main/testing/processes'
import type { BenchResult } from './run'

const PAGES = 40

export async function browserPages(): Promise<BenchResult> {
  const chromium = resolveChromium(undefined)
  if (!chromium) throw new Error('browser-pages-per-minute needs Chromium (apt-get install -y chromium)')
  const fixture = await startFixtureSite()
  const profile = mkdtempSync(join(tmpdir(), 'mb-bench-profile-'))
  const site = { ...fixtureSites(fixture.host).find((s) => s.key === 'fixture-challenge')!, fetcher: 'browser' as const }
  const browser = createBrowserFetcher({
    launcher: playwrightLauncher({ executablePath: chromium, userDataDir: profile }),
    clock: systemClock,
    log: silentLog,
  })
  try {
    // Solve the challenge once; the cookie keeps the pass, as it does for a running Lane.
    await browser.fetch({ url: `${fixture.origin}/js-challenge/manga/warm-up/`, method: 'GET' }, site)
    const perMinute = async (fetcher: Fetcher, prefix: string) => {
      const started = Date.now()
      for (let i = 0; i < PAGES; i++) {
        const result = await fetcher.fetch(
          { url: `${fixture.origin}${prefix}/manga/page-${i}/`, method: 'GET', headers: { cookie: 'fixture_clearance=ok' } },
          site,
        )
        if (result.kind !== 'page') throw new Error(`${prefix}: ${result.kind}`)
      }
      return (PAGES / (Date.now() - started)) * 60_000
    }
    const viaBrowser = await perMinute(browser, '/js-challenge')
    const awake = residentBytes(processesMentioning(profile))
    const viaHttp = await perMinute(createHttpFetcher(), '/js-challenge')
    await browser.close()
    await new Promise((r) => setTimeout(r, 500))
    const asleep = residentBytes(processesMentioning(profile))
    const mb = (b: number) => `${Math.round(b / 1024 / 1024)} MB`
    return {
      name: 'browser-pages-per-minute',
      value: viaBrowser,
      unit: 'pages/min',
      baseline: viaHttp,
      ratio: viaBrowser / viaHttp,
      target: 'report only',
      pass: true,
      note: `browser memory awake ${mb(awake)}, asleep ${mb(asleep)}`,
    }
  } finally {
    await browser.close()
    await fixture.close()
    rmSync(profile, { recursive: true, force: true })
  }
}

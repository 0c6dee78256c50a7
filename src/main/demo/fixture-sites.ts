/**
 * Sites pointing at a fixture site server: one per family it imitates, one that always refuses, one behind
 * a JS challenge (a browser Site), and one for the ways a page goes wrong. Used by tests, e2e and the demo.
 */
import { FAMILIES } from '../sites/families'
import { mangaDexAdapter } from '../sites/families/mangadex'
import { DEFAULT_PACE, seriesRules, type Pace, type Site } from '../sites/site'

export function fixtureSites(host: string, pace: Partial<Pace> = {}): Site[] {
  const origin = `http://${host}`
  const site = (key: string, name: string, over: Partial<Site> & Pick<Site, 'adapter' | 'seriesIdOf'>): Site => ({
    key,
    name,
    hosts: [host],
    fetcher: 'http',
    fallback: 'none',
    pace: { ...DEFAULT_PACE, ...pace },
    origin: 'built-in',
    ...over,
  })
  return [
    site('fixture-madara', 'Fixture Scans (Madara)', {
      adapter: FAMILIES.madara.adapter(),
      ...seriesRules(/^\/madara\/manga\/([^/?#]+)/),
      searchBase: `${origin}/madara/`,
    }),
    site('fixture-madara-xhr', 'Lantern Fixture (Madara, XHR list)', {
      adapter: FAMILIES.madara.adapter(),
      ...seriesRules(/^\/madara-xhr\/manga\/([^/?#]+)/),
    }),
    site('fixture-themesia', 'Fixture Themesia', {
      adapter: FAMILIES.mangathemesia.adapter(),
      ...seriesRules(/^\/themesia\/manga\/([^/?#]+)/),
    }),
    site('fixture-webtoons', 'Fixture Toons', {
      adapter: FAMILIES.webtoons.adapter(),
      ...seriesRules(/^\/webtoons\/.*[?&]title_no=(\d+)/),
    }),
    site('fixture-mangadex', 'Fixture Dex', {
      adapter: mangaDexAdapter({ apiBase: `${origin}/mangadex/api` }),
      ...seriesRules(/^\/mangadex\/title\/([0-9a-f-]{36})/),
    }),
    site('fixture-refusing', 'Grumpy Scans (always refuses)', {
      adapter: FAMILIES.madara.adapter(),
      ...seriesRules(/^\/never-clears\/manga\/([^/?#]+)/),
    }),
    site('fixture-challenge', 'Cloudy Scans (JS challenge)', {
      fetcher: 'browser',
      fallback: 'none',
      adapter: FAMILIES.madara.adapter(),
      ...seriesRules(/^\/js-challenge\/manga\/([^/?#]+)/),
    }),
    site('fixture-trouble', 'Trouble Scans (every fault)', {
      adapter: FAMILIES.madara.adapter(),
      ...seriesRules(/^\/((?:no-chapters|broken|hang|huge|redirect-off|leaky|busy)\/manga\/[^/?#]+)/),
    }),
  ]
}

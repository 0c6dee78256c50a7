/** The built-in Sites. Families (Madara, MangaThemesia, …) serve any other host through sites.json. */
import { FAMILIES } from './families'
import { DEFAULT_PACE, seriesRules, type Site } from './site'

export const BUILT_IN_SITES: readonly Site[] = [
  {
    key: 'mangadex',
    name: 'MangaDex',
    hosts: ['mangadex.org', 'api.mangadex.org'],
    fetcher: 'http',
    fallback: 'none',
    adapter: FAMILIES.mangadex.adapter(),
    family: 'mangadex',
    ...seriesRules(FAMILIES.mangadex.idPattern),
    // About 5 requests/s per IP are allowed; one a gap apart is far below that.
    pace: { ...DEFAULT_PACE },
    origin: 'built-in',
  },
  {
    key: 'webtoons',
    name: 'Webtoons',
    hosts: ['www.webtoons.com', 'm.webtoons.com', 'webtoons.com'],
    fetcher: 'http',
    fallback: 'none',
    adapter: FAMILIES.webtoons.adapter(),
    family: 'webtoons',
    ...seriesRules(FAMILIES.webtoons.idPattern),
    pace: { ...DEFAULT_PACE },
    origin: 'built-in',
  },
]

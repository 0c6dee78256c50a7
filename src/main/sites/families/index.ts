/** The built-in Site families: adapters with their own selectors, quirks and series_id rules. */
import type { Adapter } from '../site'
import { MADARA_ID_PATTERN, madaraAdapter } from './madara'
import { MANGADEX_ID_PATTERN, mangaDexAdapter } from './mangadex'
import { MANGATHEMESIA_ID_PATTERN, mangaThemesiaAdapter } from './mangathemesia'
import { WEBTOONS_ID_PATTERN, webtoonsAdapter } from './webtoons'

export interface Family {
  adapter(): Adapter
  idPattern: RegExp
}

export const FAMILY_KEYS = ['madara', 'mangathemesia', 'webtoons', 'mangadex'] as const
export type FamilyKey = (typeof FAMILY_KEYS)[number]

export const FAMILIES: Record<FamilyKey, Family> = {
  madara: { adapter: madaraAdapter, idPattern: MADARA_ID_PATTERN },
  mangathemesia: { adapter: mangaThemesiaAdapter, idPattern: MANGATHEMESIA_ID_PATTERN },
  webtoons: { adapter: webtoonsAdapter, idPattern: WEBTOONS_ID_PATTERN },
  mangadex: { adapter: () => mangaDexAdapter({ apiBase: 'https://api.mangadex.org' }), idPattern: MANGADEX_ID_PATTERN },
}

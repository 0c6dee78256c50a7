/** The built-in Site families: adapters with their own selectors, quirks and series_id rules. */
import type { Adapter, IdPattern } from '../site'
import type { FamilyKey } from './keys'
import { selectorAdapter, type Selectors } from './selectors'
import { MADARA_ID_PATTERN, madaraAdapter } from './madara'
import { MANGADEX_ID_PATTERN, mangaDexAdapter } from './mangadex'
import { MANGATHEMESIA_ID_PATTERN, mangaThemesiaAdapter } from './mangathemesia'
import { WEBTOONS_ID_PATTERN, webtoonsAdapter } from './webtoons'
import { ZEISTMANGA_ID_PATTERN, zeistMangaAdapter } from './zeistmanga'
import { KEYOAPP_ID_PATTERN, keyoappAdapter } from './keyoapp'
import { COMICIVIEWER_ID_PATTERN, comiciViewerAdapter } from './comiciviewer'
import { MANGABOX_ID_PATTERN, mangaBoxAdapter } from './mangabox'
import { MADTHEME_ID_PATTERN, madThemeAdapter } from './madtheme'
import { MANGACATALOG_ID_PATTERN, mangaCatalogAdapter } from './mangacatalog'
import { PIZZAREADER_ID_PATTERN, pizzaReaderAdapter } from './pizzareader'
import { familySearch, mangaDexSearch } from './search'
import { DEFAULT_LANGUAGES } from './mangadex'
import { GIGAVIEWER_ID_PATTERN, gigaViewerAdapter } from './gigaviewer'
import { WPCOMICS_ID_PATTERN, wpComicsAdapter } from './wpcomics'
import { GROUPLE_ID_PATTERN, groupleAdapter } from './grouple'
import { FOOLSLIDE_ID_PATTERN, foolSlideAdapter } from './foolslide'
import { MMRCMS_ID_PATTERN, mmrcmsAdapter } from './mmrcms'
import { MANGAREADER_ID_PATTERN, mangaReaderAdapter } from './mangareader'
import { GALLERYADULTS_ID_PATTERN, galleryAdultsAdapter } from './galleryadults'
import { NAVERCOMIC_ID_PATTERN, naverComicAdapter } from './navercomic'
import { XCOMIC_ID_PATTERN, xcomicAdapter } from './xcomic'
import { LIBGROUP_ID_PATTERN, libGroupAdapter } from './libgroup'
import { GODA_ID_PATTERN, godaAdapter } from './goda'
import { BILIMANGA_ID_PATTERN, biliMangaAdapter } from './bilimanga'
import { KOMIIC_ID_PATTERN, komiicAdapter } from './komiic'
import { HENTAIHAND_ID_PATTERN, hentaiHandAdapter } from './hentaihand'
import { GALLERYPAGE_ID_PATTERN, galleryPageAdapter } from './gallerypage'
import { KAGANE_ID_PATTERN, kaganeAdapter } from './kagane'
import { MANGATOON_ID_PATTERN, mangaToonAdapter } from './mangatoon'
import { PAGEDPOST_ID_PATTERN, pagedPostAdapter } from './pagedpost'
import { MANGAHUB_ID_PATTERN, mangaHubAdapter } from './mangahub'
import { IKEN_ID_PATTERN, ikenAdapter } from './iken'

/** What a Site's own sites.json entry may tell its family's adapter. */
export interface FamilyOptions {
  /** MangaDex: the languages asked for and kept (default English). */
  languages?: readonly string[]
}

export interface Family {
  adapter(options?: FamilyOptions): Adapter
  idPattern: IdPattern
  /** Whether the family reads `languages` (only MangaDex does). */
  readsLanguages: boolean
}

export { FAMILY_KEYS, type FamilyKey } from './keys'

/** The family's adapter with its search, when the family has one (families/search.ts). */
function searching(key: Exclude<FamilyKey, 'mangadex'>, make: () => Adapter): () => Adapter {
  const search = familySearch(key)
  return search ? () => ({ ...make(), search }) : make
}

const MANGADEX_API = 'https://api.mangadex.org'

export const FAMILIES: Record<FamilyKey, Family> = {
  madara: { adapter: searching('madara', madaraAdapter), idPattern: MADARA_ID_PATTERN, readsLanguages: false },
  mangathemesia: { adapter: searching('mangathemesia', mangaThemesiaAdapter), idPattern: MANGATHEMESIA_ID_PATTERN, readsLanguages: false },
  webtoons: { adapter: searching('webtoons', webtoonsAdapter), idPattern: WEBTOONS_ID_PATTERN, readsLanguages: false },
  zeistmanga: { adapter: searching('zeistmanga', zeistMangaAdapter), idPattern: ZEISTMANGA_ID_PATTERN, readsLanguages: false },
  keyoapp: { adapter: searching('keyoapp', keyoappAdapter), idPattern: KEYOAPP_ID_PATTERN, readsLanguages: false },
  comiciviewer: { adapter: comiciViewerAdapter, idPattern: COMICIVIEWER_ID_PATTERN, readsLanguages: false },
  mangabox: { adapter: searching('mangabox', mangaBoxAdapter), idPattern: MANGABOX_ID_PATTERN, readsLanguages: false },
  madtheme: { adapter: madThemeAdapter, idPattern: MADTHEME_ID_PATTERN, readsLanguages: false },
  mangacatalog: { adapter: mangaCatalogAdapter, idPattern: MANGACATALOG_ID_PATTERN, readsLanguages: false },
  pizzareader: { adapter: pizzaReaderAdapter, idPattern: PIZZAREADER_ID_PATTERN, readsLanguages: false },
  gigaviewer: { adapter: gigaViewerAdapter, idPattern: GIGAVIEWER_ID_PATTERN, readsLanguages: false },
  wpcomics: { adapter: wpComicsAdapter, idPattern: WPCOMICS_ID_PATTERN, readsLanguages: false },
  grouple: { adapter: groupleAdapter, idPattern: GROUPLE_ID_PATTERN, readsLanguages: false },
  foolslide: { adapter: foolSlideAdapter, idPattern: FOOLSLIDE_ID_PATTERN, readsLanguages: false },
  mmrcms: { adapter: mmrcmsAdapter, idPattern: MMRCMS_ID_PATTERN, readsLanguages: false },
  mangareader: { adapter: mangaReaderAdapter, idPattern: MANGAREADER_ID_PATTERN, readsLanguages: false },
  galleryadults: { adapter: galleryAdultsAdapter, idPattern: GALLERYADULTS_ID_PATTERN, readsLanguages: false },
  navercomic: { adapter: naverComicAdapter, idPattern: NAVERCOMIC_ID_PATTERN, readsLanguages: false },
  xcomic: { adapter: xcomicAdapter, idPattern: XCOMIC_ID_PATTERN, readsLanguages: false },
  libgroup: { adapter: libGroupAdapter, idPattern: LIBGROUP_ID_PATTERN, readsLanguages: false },
  goda: { adapter: godaAdapter, idPattern: GODA_ID_PATTERN, readsLanguages: false },
  bilimanga: { adapter: biliMangaAdapter, idPattern: BILIMANGA_ID_PATTERN, readsLanguages: false },
  komiic: { adapter: komiicAdapter, idPattern: KOMIIC_ID_PATTERN, readsLanguages: false },
  hentaihand: { adapter: hentaiHandAdapter, idPattern: HENTAIHAND_ID_PATTERN, readsLanguages: false },
  gallerypage: { adapter: galleryPageAdapter, idPattern: GALLERYPAGE_ID_PATTERN, readsLanguages: false },
  kagane: { adapter: kaganeAdapter, idPattern: KAGANE_ID_PATTERN, readsLanguages: false },
  mangatoon: { adapter: mangaToonAdapter, idPattern: MANGATOON_ID_PATTERN, readsLanguages: false },
  pagedpost: { adapter: pagedPostAdapter, idPattern: PAGEDPOST_ID_PATTERN, readsLanguages: false },
  mangahub: { adapter: mangaHubAdapter, idPattern: MANGAHUB_ID_PATTERN, readsLanguages: false },
  iken: { adapter: ikenAdapter, idPattern: IKEN_ID_PATTERN, readsLanguages: false },
  mangadex: {
    adapter: (options) => ({
      ...mangaDexAdapter({ apiBase: MANGADEX_API, languages: options?.languages }),
      search: mangaDexSearch(MANGADEX_API, options?.languages?.length ? options.languages : DEFAULT_LANGUAGES),
    }),
    idPattern: MANGADEX_ID_PATTERN,
    readsLanguages: true,
  },
}

/**
 * What an adapter is made from, as plain data: enough to make the same adapter again in a worker thread,
 * which receives messages, not functions (docs/adr/0040-reading-pages-in-a-worker-with-a-deadline.md).
 */
export type AdapterRecipe =
  { family: Exclude<FamilyKey, 'mangadex'> } | { family: 'mangadex'; apiBase: string; languages?: string[] } | { selectors: Selectors }

/** The adapter a recipe describes; the same as the one the recipe came from. */
export function adapterFromRecipe(recipe: AdapterRecipe): Adapter {
  if ('selectors' in recipe) return selectorAdapter(recipe.selectors)
  if (recipe.family === 'mangadex') return mangaDexAdapter({ apiBase: recipe.apiBase, languages: recipe.languages })
  return FAMILIES[recipe.family].adapter()
}

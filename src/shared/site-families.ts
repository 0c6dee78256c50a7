/**
 * The built-in Site families, one descriptor each (docs/adr/0195-one-descriptor-per-family-and-the-reads-room.md):
 * a closed list of keys and, for each, what both sides say or decide about it — its name, the words Add a Site
 * shows, whether its Sites search or publish a feed, how Add a Site recognises it, the extension repository's
 * themes it reads. Main keys its adapters (`FAMILIES`), searches and feeds by the same keys, so a key added here
 * is a compile error in each place until it has its entry (site-families.types.test.ts).
 */

/** The built-in Site families' keys: a closed list, the key of every table about a family. */
export const FAMILY_KEYS = [
  'madara',
  'mangathemesia',
  'webtoons',
  'mangadex',
  'zeistmanga',
  'keyoapp',
  'comiciviewer',
  'mangabox',
  'madtheme',
  'mangacatalog',
  'pizzareader',
  'gigaviewer',
  'wpcomics',
  'grouple',
  'foolslide',
  'mmrcms',
  'mangareader',
  'galleryadults',
  'navercomic',
  'xcomic',
  'libgroup',
  'goda',
  'bilimanga',
  'komiic',
  'hentaihand',
  'gallerypage',
  'kagane',
  'mangatoon',
  'pagedpost',
  'mangahub',
  'iken',
] as const
export type FamilyKey = (typeof FAMILY_KEYS)[number]

export interface FamilyDescriptor {
  /** Its name as people know it: "Asura Scans (MangaThemesia)", "a Madara site". */
  name: string
  /** What Add a Site says after the name, in brackets: what it is built on ("Madara (WordPress)"). */
  note?: string
  /** Its Sites answer a title search (families/search.ts; MangaDex's is its API's). */
  searches: boolean
  /** Its Sites publish a latest-updates page the app reads (feeds.ts). */
  feed: boolean
  /**
   * How Add a Site tells it: `markup`, from what its Series pages write; `api`, only on a Known host, by the
   * family's own first request (an API the page does not show).
   */
  recognisedBy: 'markup' | 'api'
  /** Its id rule finds the Series page of a pasted chapter URL (a broad first-segment rule is not guessed by). */
  readsChapterUrls: boolean
  /** The extension repository's themes whose sources it reads (scripts/known-sites.ts): its own, and look-alikes. */
  themes: readonly string[]
  /**
   * Hosts its adapter asks besides the Site's own (an API elsewhere): on the pin of each of its Known Sites'
   * entries, exactly these (docs/adr/0213-libgroup-goda-and-bilimanga-adapters.md).
   */
  apiHosts?: readonly string[]
  /** Its extension stores a Series as a bare id: a backup's bare path is read under this prefix (`/series/`). */
  backupPrefix?: string
  /**
   * Its adapter asks an API on a host under the Site's own (`api.`): that host of each Known Site's own is on its
   * entry's pin too (docs/adr/0224-iken-api-on-the-sites-api-host.md).
   */
  apiSubdomain?: string
}

export const SITE_FAMILIES = {
  madara: {
    name: 'Madara',
    note: 'WordPress',
    searches: true,
    feed: true,
    recognisedBy: 'markup',
    readsChapterUrls: true,
    // ManhwaZ writes Madara's `li.wp-manga-chapter` rows and `div.post-title h1`.
    themes: ['madara', 'manhwaz'],
  },
  mangathemesia: {
    name: 'MangaThemesia',
    note: 'WordPress',
    searches: true,
    feed: true,
    recognisedBy: 'markup',
    readsChapterUrls: true,
    themes: ['mangathemesia'],
  },
  webtoons: { name: 'Webtoons', searches: true, feed: false, recognisedBy: 'api', readsChapterUrls: false, themes: ['webtoons'] },
  mangadex: { name: 'MangaDex', searches: true, feed: true, recognisedBy: 'api', readsChapterUrls: false, themes: ['mangadex'] },
  zeistmanga: {
    name: 'ZeistManga',
    note: 'Blogger',
    searches: true,
    feed: false,
    recognisedBy: 'markup',
    readsChapterUrls: true,
    themes: ['zeistmanga'],
  },
  keyoapp: { name: 'Keyoapp', searches: true, feed: false, recognisedBy: 'markup', readsChapterUrls: true, themes: ['keyoapp'] },
  comiciviewer: {
    name: 'ComiciViewer',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['comiciviewer'],
  },
  mangabox: { name: 'MangaBox', searches: true, feed: true, recognisedBy: 'markup', readsChapterUrls: true, themes: ['mangabox'] },
  madtheme: { name: 'MadTheme', searches: false, feed: false, recognisedBy: 'markup', readsChapterUrls: true, themes: ['madtheme'] },
  mangacatalog: {
    name: 'MangaCatalog',
    searches: false,
    feed: false,
    recognisedBy: 'markup',
    readsChapterUrls: true,
    themes: ['mangacatalog'],
  },
  pizzareader: {
    name: 'PizzaReader',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['pizzareader'],
  },
  gigaviewer: {
    name: 'GigaViewer',
    note: 'Japanese publishers',
    searches: false,
    feed: false,
    recognisedBy: 'markup',
    readsChapterUrls: true,
    themes: ['gigaviewer'],
  },
  wpcomics: { name: 'WPComics', searches: false, feed: false, recognisedBy: 'markup', readsChapterUrls: true, themes: ['wpcomics'] },
  grouple: {
    name: 'Grouple',
    note: 'ReadManga',
    searches: false,
    feed: false,
    recognisedBy: 'markup',
    readsChapterUrls: false,
    themes: ['grouple'],
  },
  foolslide: { name: 'FoolSlide', searches: false, feed: false, recognisedBy: 'markup', readsChapterUrls: true, themes: ['foolslide'] },
  mmrcms: {
    name: 'MMRCMS',
    note: 'My Manga Reader CMS',
    searches: false,
    feed: false,
    recognisedBy: 'markup',
    readsChapterUrls: false,
    themes: ['mmrcms'],
  },
  mangareader: {
    name: 'MangaReader',
    searches: false,
    feed: false,
    recognisedBy: 'markup',
    readsChapterUrls: false,
    themes: ['mangareader'],
  },
  galleryadults: {
    name: 'GalleryAdults',
    note: 'one chapter a gallery',
    searches: false,
    feed: false,
    recognisedBy: 'markup',
    readsChapterUrls: true,
    themes: ['galleryadults'],
  },
  navercomic: {
    name: 'Naver Webtoon',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['navercomic'],
  },
  xcomic: {
    name: 'XCOMIC',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['xcomic'],
  },
  libgroup: {
    name: 'LibGroup',
    note: 'MangaLib',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['libgroup'],
    apiHosts: ['api.cdnlibs.org'],
  },
  goda: {
    name: 'GoDa',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['goda'],
    apiHosts: ['api-get-v3.mgsearcher.com'],
  },
  bilimanga: {
    name: 'BiliManga',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['bilimanga'],
  },
  komiic: { name: 'Komiic', searches: false, feed: false, recognisedBy: 'api', readsChapterUrls: false, themes: ['komiic'] },
  hentaihand: {
    name: 'HentaiHand',
    note: 'one chapter a comic',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['hentaihand'],
  },
  gallerypage: {
    name: 'Gallery page',
    note: 'one chapter a gallery',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['masonry'],
  },
  kagane: {
    name: 'Kagane',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['kagane'],
    backupPrefix: '/series/',
  },
  mangatoon: {
    name: 'MangaToon',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['mangatoon'],
  },
  pagedpost: {
    name: 'Paged post',
    note: 'its pages the chapters',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['pagedpost'],
  },
  mangahub: {
    name: 'MangaHub',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['mangahub'],
    apiHosts: ['api.mghcdn.com'],
  },
  iken: {
    name: 'Iken',
    searches: false,
    feed: false,
    recognisedBy: 'api',
    readsChapterUrls: false,
    themes: ['iken'],
    backupPrefix: '/series/',
    apiSubdomain: 'api.',
  },
} as const satisfies Record<FamilyKey, FamilyDescriptor>

type Flag = 'searches' | 'feed' | 'readsChapterUrls'

/** The families whose descriptor says yes to a flag, as a type: a table of it is `Record<FamiliesThat<…>, …>`. */
export type FamiliesThat<F extends Flag> = { [K in FamilyKey]: (typeof SITE_FAMILIES)[K][F] extends true ? K : never }[FamilyKey]

/** The families Add a Site tells by their pages' markup. */
export type MarkupFamily = { [K in FamilyKey]: (typeof SITE_FAMILIES)[K]['recognisedBy'] extends 'markup' ? K : never }[FamilyKey]

/** The families whose descriptor says yes to a flag, in the order of `FAMILY_KEYS`. */
export function familiesThat<F extends Flag>(flag: F): FamiliesThat<F>[] {
  return FAMILY_KEYS.filter((key): key is FamiliesThat<F> => SITE_FAMILIES[key][flag])
}

export function isFamilyKey(key: string): key is FamilyKey {
  return Object.hasOwn(SITE_FAMILIES, key)
}

/** A family's name ("MangaThemesia"); a key this version does not know, as it is. */
export function familyName(key: string): string {
  return isFamilyKey(key) ? SITE_FAMILIES[key].name : key
}

/** How Add a Site names a family: "Madara (WordPress)"; a key this version does not know, as it is. */
export function familyWords(key: string): string {
  if (!isFamilyKey(key)) return key
  const family: FamilyDescriptor = SITE_FAMILIES[key]
  return family.note ? `${family.name} (${family.note})` : family.name
}

/** A Series path as a backup stores it, read as a path: a bare id of a family whose extension stores one, under its prefix. */
export function backupSeriesPath(family: string | undefined, path: string): string {
  const prefix = family && isFamilyKey(family) ? (SITE_FAMILIES[family] as FamilyDescriptor).backupPrefix : undefined
  // An id may follow the slug after "#" (Iken's `{slug}#{id}`): the slug is the Series.
  const bare = /^([A-Za-z0-9_-]{1,200})(?:#\d{1,12})?$/.exec(path)
  return prefix && bare ? `${prefix}${bare[1]!}` : path
}

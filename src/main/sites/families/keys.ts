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
] as const
export type FamilyKey = (typeof FAMILY_KEYS)[number]

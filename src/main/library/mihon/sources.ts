/**
 * Backup sources this app knows without a mapping. A Tachiyomi/Mihon source's id is the first 8 bytes of
 * MD5("<name lowercased>/<lang>/<versionId>") read big-endian, with the sign bit cleared
 * (`HttpSource.generateId` in the extensions API); MangaDex is one source per language, name "MangaDex",
 * version 1. A MangaDex manga's `url` is "/manga/<uuid>" (`MangaDexHelper.createBasicManga` in the
 * keiyoushi/extensions-source repository); the title page is https://mangadex.org/title/<uuid>.
 */
import { createHash } from 'node:crypto'

/** A source's id as the backup stores it, in decimal. */
export function sourceId(name: string, lang: string, versionId = 1): string {
  const digest = createHash('md5').update(`${name.toLowerCase()}/${lang}/${versionId}`).digest()
  return (digest.readBigUInt64BE(0) & 0x7fff_ffff_ffff_ffffn).toString()
}

/** The MangaDex extension's languages (its MangaDexFactory), as it names them. */
const MANGADEX_LANGUAGES = [
  'en',
  'af',
  'sq',
  'ar',
  'az',
  'eu',
  'be',
  'bn',
  'bg',
  'my',
  'ca',
  'zh-Hans',
  'zh-Hant',
  'cv',
  'hr',
  'cs',
  'da',
  'nl',
  'eo',
  'et',
  'fil',
  'fi',
  'fr',
  'ka',
  'de',
  'el',
  'he',
  'hi',
  'hu',
  'ga',
  'id',
  'it',
  'jv',
  'ja',
  'kk',
  'ko',
  'la',
  'lt',
  'ms',
  'mn',
  'ne',
  'no',
  'fa',
  'pl',
  'pt-BR',
  'pt',
  'ro',
  'ru',
  'sr',
  'sk',
  'es-419',
  'es',
  'sv',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'ur',
  'uz',
  'vi',
  // The same languages as MangaDex spells them, in case an older build of the extension named itself so.
  'zh',
  'zh-hk',
  'pt-br',
  'es-la',
  'tl',
  'all',
]

export const MANGADEX_SOURCE_IDS: ReadonlySet<string> = new Set(MANGADEX_LANGUAGES.map((lang) => sourceId('MangaDex', lang)))

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i

/** The MangaDex title URL of a MangaDex manga's `url` ("/manga/<uuid>", or a title URL), or null. */
export function mangaDexTitleUrl(mangaUrl: string): string | null {
  const match = /^(?:https?:\/\/(?:www\.)?mangadex\.org)?\/(?:manga|title)\/([^/?#]+)/i.exec(mangaUrl.trim())
  const uuid = match && UUID.exec(match[1]!)?.[1]
  return uuid && uuid.length === match[1]!.length ? `https://mangadex.org/title/${uuid.toLowerCase()}` : null
}

/**
 * HentaiHand (the extension repository's `hentaihand` theme: HentaiHand and NHentai.com, 56 known sources, one per
 * language each, on two hosts). A Series is one comic, `/{lang}/comic/{slug}`, and it is one chapter, the comic
 * itself, as the peers read it (`chapters = false` for both): chapter 1, at the comic's own page, when the Site's
 * API on the same host, `GET /api/comics/{slug}`, answers the comic (an object with its `slug` and `title`). Facts
 * from the extension repository's HentaiHand theme (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read to
 * write our own answers.
 */
import { MAX_TITLE, cleanText } from '../html'
import { AdapterError, type Adapter } from '../site'
import { readJson } from './json'

export const HENTAIHAND_ID_PATTERN = /^\/(?:[a-z]{2}(?:-[A-Za-z]{2,4})?\/)?comic\/([A-Za-z0-9_-]{1,200})\/?(?:[?#]|$)/

function slugOf(url: URL): string {
  const slug = HENTAIHAND_ID_PATTERN.exec(url.pathname)?.[1]
  if (!slug) throw new AdapterError(`not a HentaiHand comic URL: ${url.pathname}`)
  return slug
}

export function hentaiHandAdapter(): Adapter {
  return {
    recipe: { family: 'hentaihand' },
    request: (seriesUrl) => ({
      url: `${seriesUrl.origin}/api/comics/${slugOf(seriesUrl)}`,
      method: 'GET',
      headers: { Accept: 'application/json', Referer: `${seriesUrl.origin}/` },
    }),
    read(page, seriesUrl) {
      const slug = slugOf(seriesUrl)
      const json = readJson(page.body, 'HentaiHand: the comic') as { slug?: unknown; title?: unknown } | null
      if (!json || typeof json !== 'object' || Array.isArray(json)) throw new AdapterError('HentaiHand: the answer is no comic')
      const title = typeof json.title === 'string' ? cleanText(json.title, MAX_TITLE) || undefined : undefined
      // Another comic's answer (a redirect, a renamed slug) is no chapter of this one.
      if (json.slug !== slug) return { kind: 'parsed', result: { title, chapters: [] } }
      const url = `${seriesUrl.origin}${seriesUrl.pathname.replace(/\/$/, '')}`
      return { kind: 'parsed', result: { title, chapters: [{ number: 1, label: 'Gallery', url }] } }
    },
  }
}

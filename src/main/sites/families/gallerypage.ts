/**
 * A gallery page: Sites where a Series is one gallery page and the gallery is its one chapter, as the peers read
 * them (the extension repository's `masonry` theme — Elite Babes, FemJoy Hunter, MetArt Hunter, … 7 sources — and
 * the one-off extensions Akuma, 3Hentai and Panda Chaika (`/archive/{id}/`), one source per language each, all
 * making one "Chapter"/"Gallery" of the Series itself). Read only on the Known hosts of those sources. Chapter 1,
 * at the Series page, when the page is a gallery: a title (`h1`, `.entry-title`, `og:title`, else the document's
 * `<title>`) and at least one image; the home page, or a page without them (removed, a notice), has no chapter. The series_id is the page's path. Facts from the extension
 * repository (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read to write our own pages.
 */
import { MAX_TITLE, cleanText, loadHtml, titleOf } from '../html'
import type { Adapter } from '../site'

/** The whole path (a gallery's page has no shared shape across these Sites): at most 8 segments. */
export const GALLERYPAGE_ID_PATTERN = /^\/((?:[^/?#]{1,200}\/){0,7}[^/?#]{1,200})\/?(?:[?#]|$)/

export function galleryPageAdapter(): Adapter {
  return {
    recipe: { family: 'gallerypage' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page, seriesUrl) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['h1', '.entry-title']) ?? (cleanText($('head > title').first().text(), MAX_TITLE) || undefined)
      const image = $('img').length > 0
      if (!title || !image || !GALLERYPAGE_ID_PATTERN.test(seriesUrl.pathname)) return { kind: 'parsed', result: { title, chapters: [] } }
      return {
        kind: 'parsed',
        result: { title, chapters: [{ number: 1, label: 'Gallery', url: `${seriesUrl.origin}${seriesUrl.pathname}` }] },
      }
    },
  }
}

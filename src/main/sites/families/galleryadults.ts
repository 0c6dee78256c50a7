/**
 * GalleryAdults (49 known sources on 8 hosts — IMHentai, HentaiFox, HentaiEra, AsmHentai, … — one source per
 * language each). A Series is one gallery, `/gallery/{id}/` (AsmHentai and NHentai.xxx: `/g/{id}/`), and it is
 * one chapter, the gallery itself, as the peers read it: chapter 1, at the gallery's own URL, when the page is a
 * gallery (its pages loader: `input#load_pages` with `input#gallery_id` or `input#load_id`); the title is `h1`.
 * A page that is no gallery (removed, a notice) has no chapter. Facts from the extension repository's
 * GalleryAdults theme and its extensions, read to write our own pages.
 */
import { loadHtml, selectAll, titleOf } from '../html'
import type { Adapter } from '../site'

export const GALLERYADULTS_ID_PATTERN = /^\/(?:gallery|g)\/([0-9]{1,12})(?:[/?#]|$)/

/** The gallery's pages loader: what Add a Site recognises the family by (with `input#load_pages`). */
export const GALLERYADULTS_MARKUP = 'input#gallery_id, input#load_id'

export function galleryAdultsAdapter(): Adapter {
  return {
    recipe: { family: 'galleryadults' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page, seriesUrl) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['h1'])
      const loader = selectAll($, `input#load_pages, ${GALLERYADULTS_MARKUP}`)
      const gallery = loader.some((el) => el.attribs['id'] === 'load_pages') && loader.some((el) => el.attribs['id'] !== 'load_pages')
      const id = GALLERYADULTS_ID_PATTERN.exec(seriesUrl.pathname)?.[1]
      if (!gallery || !id) return { kind: 'parsed', result: { title, chapters: [] } }
      const prefix = seriesUrl.pathname.startsWith('/g/') ? 'g' : 'gallery'
      return { kind: 'parsed', result: { title, chapters: [{ number: 1, label: 'Gallery', url: `${seriesUrl.origin}/${prefix}/${id}/` }] } }
    },
  }
}

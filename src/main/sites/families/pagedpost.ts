/**
 * A paged post: Sites where a Series is one post whose pages are its chapters, as the peers read them (MyReadingManga,
 * one source per language: 13; XiuTaku; MissKon — each making "Part n"/"Page n" of the post's page links). Read only
 * on the Known hosts of those sources. Part 1 is the post itself; part n is the post's page n, linked from the post
 * as `{post}/{n}/` (WordPress's paged posts) or `{post}?page={n}`; the parts run to the highest page linked (at most
 * `MAX_PARTS`). A page without a title (`h1`, `.entry-title`, `og:title`, `<title>`) is no post and has no part.
 * Facts from the extension repository (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read to write our own pages.
 */
import { MAX_TITLE, cleanText, loadHtml, titleOf } from '../html'
import type { Adapter, Chapter } from '../site'

/** The whole path, as a gallery page's (families/gallerypage.ts): at most 8 segments. */
export const PAGEDPOST_ID_PATTERN = /^\/((?:[^/?#]{1,200}\/){0,7}[^/?#]{1,200})\/?(?:[?#]|$)/

/** More parts than any post has; a hostile page linking page 10⁹ is cut here. */
const MAX_PARTS = 500

/** Links looked at: the pagination is in the post's first few thousand links. */
const MAX_LINKS = 5_000

type Style = 'path' | 'query'

/** The highest page of the post a link names, and how the post names its pages. */
function lastPage(hrefs: readonly string[], post: URL): { last: number; style: Style } {
  const base = post.pathname.replace(/\/$/, '')
  let last = 1
  let style: Style = 'path'
  for (const href of hrefs) {
    let url: URL
    try {
      url = new URL(href, post)
    } catch {
      continue
    }
    if (url.origin !== post.origin) continue
    const path = url.pathname.replace(/\/$/, '')
    const byPath = path.startsWith(`${base}/`) ? /^[0-9]{1,4}$/.exec(path.slice(base.length + 1))?.[0] : undefined
    const byQuery = path === base ? /^[0-9]{1,4}$/.exec(url.searchParams.get('page') ?? '')?.[0] : undefined
    const n = Number(byPath ?? byQuery ?? 0)
    if (n > last) {
      last = n
      style = byPath ? 'path' : 'query'
    }
  }
  return { last: Math.min(last, MAX_PARTS), style }
}

export function pagedPostAdapter(): Adapter {
  return {
    recipe: { family: 'pagedpost' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page, seriesUrl) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['h1', '.entry-title']) ?? (cleanText($('head > title').first().text(), MAX_TITLE) || undefined)
      if (!title || !PAGEDPOST_ID_PATTERN.test(seriesUrl.pathname)) return { kind: 'parsed', result: { title, chapters: [] } }
      const post = new URL(`${seriesUrl.origin}${seriesUrl.pathname}`)
      const hrefs = $('a[href]')
        .slice(0, MAX_LINKS)
        .toArray()
        .map((a) => a.attribs['href'] ?? '')
      const { last, style } = lastPage(hrefs, post)
      const dir = post.pathname.endsWith('/') ? post.href : `${post.href}/`
      const chapters: Chapter[] = []
      for (let n = last; n >= 1; n--) {
        const url = n === 1 ? post.href : style === 'path' ? `${dir}${n}/` : `${post.href}?page=${n}`
        chapters.push({ number: n, label: `Part ${n}`, url })
      }
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}

/**
 * ZeistManga (a Blogger template; 35 known sources). A Series is a Blogger post, `/{yyyy}/{mm}/{slug}.html`;
 * its page names the label its chapters are posted under, and the chapters come from Blogger's JSON feed of
 * that label (`/feeds/posts/default/-/{label}?alt=json`), newest first. Where the page names the label, by
 * template version (facts from the extension repository's ZeistManga theme, read to write our own pages):
 * - `#clwd > script` calls `clwd.run('X')`: the feed is `/feeds/posts/default/-/Chapter/X`;
 * - `#myUL > script[src]` loads the feed itself: its path before the query;
 * - `#latest > script` sets `label = 'X'`: the feed is `/feeds/posts/default/-/X`.
 * In the feed, each entry is a post: its title the chapter's name, its `alternate` link the chapter's page,
 * `published` its time; the Series' own post (category "Series") is not a chapter.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { parseReleaseDate } from '../dates'
import { MAX_LABEL, MAX_TITLE, boundedRows, cleanText, coverOf, distinctChapters, loadHtml, titleOf } from '../html'
import { readJson } from './json'
import { AdapterError, type Adapter, type AdapterStep, type Chapter, type Page } from '../site'

export const ZEISTMANGA_ID_PATTERN = /^\/(\d{4}\/\d{2}\/[^/?#]+?)\.html/

/** Blogger answers at most this many posts a page; the newest come first. */
const FEED_MAX = 500
/** A script is read only this far for the label (a label is short). */
const MAX_SCRIPT = 20_000

export function zeistMangaAdapter(): Adapter {
  return {
    recipe: { family: 'zeistmanga' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page, seriesUrl): AdapterStep {
      if (isFeed(page)) return { kind: 'parsed', result: { chapters: chaptersOfFeed(page.body) } }
      const $ = loadHtml(page.body)
      const title = titleOf($, ['header h1', 'h1.entry-title', 'h1'])
      const feed = feedPath(
        $('#clwd > script').first().text(),
        $('#myUL > script[src]').first().attr('src'),
        $('#latest > script').first().text(),
      )
      if (!feed) throw new AdapterError('ZeistManga: the page names no chapter feed (#clwd, #myUL or #latest script)')
      const url = new URL(feed, seriesUrl.origin)
      url.search = `alt=json&start-index=1&max-results=${FEED_MAX}`
      return {
        kind: 'follow',
        request: { url: url.href, method: 'GET' },
        partial: { title, coverUrl: coverOf($, ['#ImageBlock img', '.thum img'], page.url) },
      }
    },
  }
}

function isFeed(page: Page): boolean {
  return /json/i.test(page.contentType) || /^\s*\{/.test(page.body.slice(0, 64))
}

/** The feed's path, from whichever script the template writes; undefined when none names it. */
function feedPath(clwd: string, myUlSrc: string | undefined, latest: string): string | undefined {
  const run = /clwd\.run\(\s*["']([^"'\n]{1,200})["']/.exec(clwd.slice(0, MAX_SCRIPT))?.[1]
  if (run) return `/feeds/posts/default/-/Chapter/${encodeURIComponent(run)}`
  if (myUlSrc) {
    try {
      const path = new URL(myUlSrc, 'https://blogger.invalid').pathname
      if (path.startsWith('/feeds/')) return path
    } catch {
      // Not a URL: the next template is tried.
    }
  }
  const label = /label\s*=\s*'([^'\n]{1,200})'/.exec(latest.slice(0, MAX_SCRIPT))?.[1]
  return label ? `/feeds/posts/default/-/${encodeURIComponent(label)}` : undefined
}

interface FeedEntry {
  title?: { $t?: unknown }
  published?: { $t?: unknown }
  category?: Array<{ term?: unknown }>
  link?: Array<{ rel?: unknown; href?: unknown }>
}

function chaptersOfFeed(body: string): Chapter[] {
  const json = readJson(body, 'ZeistManga: the chapter feed') as { feed?: { entry?: unknown } } | null
  const entries = json?.feed?.entry ?? []
  if (!Array.isArray(entries)) throw new AdapterError('ZeistManga: the chapter feed has no entry list')
  return distinctChapters(
    boundedRows(entries as FeedEntry[]).map((entry) => {
      if (entry.category?.some((c) => c.term === 'Series')) return null
      const label = typeof entry.title?.$t === 'string' ? cleanText(entry.title.$t, MAX_TITLE) : ''
      const href = entry.link?.find((l) => l.rel === 'alternate')?.href
      const number = parseChapterNumber(label)
      if (number === null || typeof href !== 'string' || !/^https?:\/\//.test(href)) return null
      const released = typeof entry.published?.$t === 'string' ? parseReleaseDate(entry.published.$t) : null
      return { number, label: cleanText(label, MAX_LABEL), url: href, released: released ?? undefined }
    }),
  )
}

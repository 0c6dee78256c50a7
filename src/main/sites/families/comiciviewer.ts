/**
 * ComiciViewer (17 known sources, Japanese publishers' sites). A Series is `/series/{hash}`; its episodes come
 * from the site's own JSON API, `GET /api/episodes?seriesHash={hash}&episodeFrom=1&episodeTo=9999`, as
 * `series.episodes[]` with `id`, `title` ("第12話", "12話 …") and `datePublished` (Unix seconds); an episode's
 * page is `/episodes/{id}`; the Series' name is `series.summary.name`. A paid or log-in episode is out, so it
 * is kept. Facts from the extension repository's ComiciViewer theme, read to write our own answers.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { MAX_LABEL, MAX_TITLE, boundedRows, cleanText, distinctChapters } from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'
import { readJson } from './json'

export const COMICIVIEWER_ID_PATTERN = /^\/series\/([0-9A-Za-z_-]{1,100})(?:[/?#]|$)/

interface Episodes {
  series?: { summary?: { name?: unknown }; episodes?: unknown }
}

export function comiciViewerAdapter(): Adapter {
  return {
    recipe: { family: 'comiciviewer' },
    request(seriesUrl) {
      const hash = COMICIVIEWER_ID_PATTERN.exec(seriesUrl.pathname)?.[1]
      if (!hash) throw new AdapterError(`not a ComiciViewer series URL: ${seriesUrl.pathname}`)
      const query = new URLSearchParams({ seriesHash: hash, episodeFrom: '1', episodeTo: '9999' })
      return { url: `${seriesUrl.origin}/api/episodes?${query}`, method: 'GET', headers: { Accept: 'application/json' } }
    },
    read(page, seriesUrl) {
      const json = readJson(page.body, 'ComiciViewer: the episode list') as Episodes | null
      const episodes = json?.series?.episodes ?? []
      if (!Array.isArray(episodes)) throw new AdapterError('ComiciViewer: the episode list has no episodes array')
      const name = json?.series?.summary?.name
      const title = typeof name === 'string' ? cleanText(name, MAX_TITLE) || undefined : undefined
      const chapters = distinctChapters(
        boundedRows(episodes as Array<{ id?: unknown; title?: unknown; datePublished?: unknown }>).map((e): Chapter | null => {
          if (typeof e.id !== 'string' || !/^[0-9A-Za-z_-]{1,100}$/.test(e.id) || typeof e.title !== 'string') return null
          const label = cleanText(e.title, MAX_LABEL)
          const number = parseChapterNumber(label, title)
          if (number === null) return null
          const at = typeof e.datePublished === 'number' && e.datePublished > 0 ? e.datePublished * 1000 : null
          return { number, label, url: `${seriesUrl.origin}/episodes/${e.id}`, released: at ? { at, exact: true } : undefined }
        }),
      )
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}

/**
 * GigaViewer (13 known sources: Japanese publishers' sites such as Shonen Jump+, Comic Days, Tonari no Young
 * Jump). A Series is an episode page, `/episode/{id}` (the one the site's series list links to); the page names
 * its series in `script.js-valve[data-giga_series]` (older pages: `.js-readable-products-pagination
 * [data-aggregate-id]`), the title in `h1.series-header-title`. The episodes come from the site's JSON API,
 * `GET /api/viewer/pagination_readable_products?type=episode&aggregate_id={id}&sort_order=desc&offset=0`, newest
 * first, as `[{ readable_product_id, title ("第12話"), display_open_at ("2026-11-28T15:00:00Z"), status: { label
 * } }]`; an episode's page is `/episode/{readable_product_id}`. A paid episode is out, so it is kept; an
 * "unpublished" one is not out yet. Facts from the extension repository's GigaViewer theme, read to write our
 * own pages and answers.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { parseReleaseDate } from '../dates'
import { MAX_LABEL, boundedRows, cleanText, distinctChapters, loadHtml, titleOf } from '../html'
import { AdapterError, type Adapter, type AdapterStep, type Chapter } from '../site'
import { readJson } from './json'

export const GIGAVIEWER_ID_PATTERN = /^\/episode\/([0-9]{1,30})(?:[/?#]|$)/

/** Where a GigaViewer page names its series: the markup Add a Site recognises it by. */
export const GIGAVIEWER_MARKUP = 'script.js-valve[data-giga_series], .js-readable-products-pagination[data-aggregate-id]'

const ID = /^[0-9A-Za-z_-]{1,100}$/

interface Product {
  readable_product_id?: unknown
  title?: unknown
  display_open_at?: unknown
  status?: { label?: unknown } | null
}

export function gigaViewerAdapter(): Adapter {
  return {
    recipe: { family: 'gigaviewer' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page, seriesUrl) {
      if (/^\s*\[/.test(page.body.slice(0, 100))) return { kind: 'parsed', result: { chapters: products(page.body, seriesUrl) } }
      return followToApi(page.body, seriesUrl)
    },
  }
}

/** The episode page: its series id and title, and the API request for the episodes. */
function followToApi(body: string, seriesUrl: URL): AdapterStep {
  const $ = loadHtml(body)
  const marked = $(GIGAVIEWER_MARKUP).first()
  const aggregate = marked.attr('data-giga_series') ?? marked.attr('data-aggregate-id')
  if (!aggregate || !ID.test(aggregate)) throw new AdapterError('GigaViewer: the episode page names no series (data-giga_series)')
  const title = titleOf($, ['h1.series-header-title'])
  const query = new URLSearchParams({ type: 'episode', aggregate_id: aggregate, sort_order: 'desc', offset: '0' })
  return {
    kind: 'follow',
    request: {
      url: `${seriesUrl.origin}/api/viewer/pagination_readable_products?${query}`,
      method: 'GET',
      headers: { Accept: 'application/json', Referer: seriesUrl.href },
    },
    partial: title ? { title } : {},
  }
}

function products(body: string, seriesUrl: URL): Chapter[] {
  const list = readJson(body, 'GigaViewer: the episode list')
  if (!Array.isArray(list)) throw new AdapterError('GigaViewer: the episode list is not an array')
  return distinctChapters(
    boundedRows(list as Product[]).map((p): Chapter | null => {
      if (!p || typeof p !== 'object' || typeof p.title !== 'string') return null
      const id = p.readable_product_id
      if (typeof id !== 'string' || !ID.test(id) || p.status?.label === 'unpublished') return null
      const label = cleanText(p.title, MAX_LABEL)
      const number = parseChapterNumber(label)
      if (number === null) return null
      const released = typeof p.display_open_at === 'string' ? parseReleaseDate(p.display_open_at) : null
      return { number, label, url: `${seriesUrl.origin}/episode/${id}`, released: released ?? undefined }
    }),
  )
}

/**
 * Naver Webtoon (comic.naver.com; Korean: Webtoon, Challenge and Best Challenge, 3 known sources). A Series is
 * `/{webtoon|challenge|bestChallenge}/list?titleId={id}`; its episodes come from the site's JSON API on the same
 * host, `GET /api/article/list?titleId={id}&page=1`, as `articleList[]` with `no` (the episode's number, the
 * chapter), `subtitle` (its name) and `serviceDateDescription` ("24.11.28", or a time of day for today);
 * `pageInfo.nextPage` is 0 on the last page. An episode's page is `/{type}/detail?titleId={id}&no={no}`.
 * `sort=DESC` asks for the newest first, so the first page holds the newest episodes (the API's own order on the
 * web list; the extension reads every page). Facts from the extension repository's navercomic source (commit
 * fd4236e034ea55f9df1799bf34b7c713f1a46780), read to write our own answers.
 */
import { MAX_LABEL, absoluteHref, boundedRows, cleanText, distinctChapters } from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'
import { readJson } from './json'

export const NAVERCOMIC_ID_PATTERN = /^\/(?:webtoon|challenge|bestChallenge)\/list\?(?:[^#]*&)?titleId=(\d+)/

interface NaverArticle {
  no?: unknown
  subtitle?: unknown
}

/** The kind of list (`webtoon`, `challenge`, `bestChallenge`) and the title id of a Series URL. */
function seriesOf(url: URL): { type: string; titleId: string } {
  const m = NAVERCOMIC_ID_PATTERN.exec(`${url.pathname}${url.search}`)
  if (!m) throw new AdapterError(`not a Naver Webtoon list URL: ${url.pathname}${url.search}`)
  return { type: url.pathname.split('/')[1]!, titleId: m[1]! }
}

export function naverComicAdapter(): Adapter {
  return {
    recipe: { family: 'navercomic' },
    request(seriesUrl) {
      const { titleId } = seriesOf(seriesUrl)
      return {
        url: `${seriesUrl.origin}/api/article/list?titleId=${titleId}&page=1&sort=DESC`,
        method: 'GET',
        headers: { Accept: 'application/json' },
      }
    },
    read(page, seriesUrl) {
      const { type, titleId } = seriesOf(seriesUrl)
      const json = readJson(page.body, 'Naver Webtoon: the episode list') as { articleList?: unknown } | null
      const list = json?.articleList ?? []
      if (!Array.isArray(list)) throw new AdapterError('Naver Webtoon: the answer has no articleList array')
      const chapters = distinctChapters(
        boundedRows(list as NaverArticle[]).map((a): Chapter | null => {
          if (!Number.isSafeInteger(a.no) || (a.no as number) < 0) return null
          const number = a.no as number
          const label = typeof a.subtitle === 'string' ? cleanText(a.subtitle, MAX_LABEL) : ''
          const url = absoluteHref(`/${type}/detail?titleId=${titleId}&no=${number}`, seriesUrl.origin)
          return { number, label: label || `Episode ${number}`, url }
        }),
      )
      return { kind: 'parsed', result: { chapters } }
    },
  }
}

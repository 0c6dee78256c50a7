/**
 * The simulated Sites' latest-updates pages (docs/adr/0165-site-feeds.md): every Series of the Site (held or not)
 * by its newest shown chapter, newest first, `FEED_LINES` long, in the family's shape — with the faults a real
 * one has, drawn from the Site and the minute (no draw from the run's generator, so the fixed and adaptive runs
 * keep the same draws for every other request): a stale cache (the page as it was up to two hours ago), a line
 * missing, two lines swapped, a broken page (a maintenance notice).
 */
import type { FetchResult } from '../fetch/fetcher'
import { parseUrl, type PageRequest } from '../sites/site'
import { shownBy, type SimSeries, type SimSite } from './catalogue'

/** Lines on a page: bounded, as a real one is (one page of the list). */
export const FEED_LINES = 20
/** The chance of each fault per read. */
export const FEED_FAULTS = { stale: 0.05, missing: 0.1, swapped: 0.1, broken: 0.02 } as const

/** Whether a request is for the Site's updates page (the family's, as src/main/sites/feeds.ts asks for it). */
export function isFeedRequest(sim: SimSite, url: URL): boolean {
  switch (sim.family) {
    case 'madara':
    case 'madara-xhr':
      return url.pathname === '/manga/' && url.searchParams.get('m_orderby') === 'latest'
    case 'mangathemesia':
      return url.pathname === '/manga/' && url.searchParams.get('order') === 'update'
    case 'mangadex':
      return url.host === sim.apiHost && url.pathname === '/chapter'
    default:
      return false
  }
}

/** A number in [0, 1) from the Site, the minute and a salt: the same read draws the same faults. */
function draw(site: string, minute: number, salt: string): number {
  let h = 2166136261
  for (const ch of `${site}:${minute}:${salt}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619)
  return ((h >>> 0) % 1_000_000) / 1_000_000
}

interface Line {
  series: SimSeries
  chapter: number
  at: number
}

/** The lines at `now`, faults applied. Null for a broken page. */
export function feedLines(sim: SimSite, all: readonly SimSeries[], now: number): Line[] | null {
  const minute = Math.floor(now / 60_000)
  const key = sim.site.key
  if (draw(key, minute, 'broken') < FEED_FAULTS.broken) return null
  const asOf = draw(key, minute, 'stale') < FEED_FAULTS.stale ? now - Math.ceil(draw(key, minute, 'age') * 120) * 60_000 : now
  const lines: Line[] = []
  for (const series of all) {
    const top = shownBy(series, asOf).at(-1)
    if (top) lines.push({ series, chapter: top.number, at: top.at })
  }
  lines.sort((a, b) => b.at - a.at || a.series.key.localeCompare(b.series.key))
  const shown = lines.slice(0, FEED_LINES + 1)
  if (draw(key, minute, 'missing') < FEED_FAULTS.missing) shown.splice(Math.floor(draw(key, minute, 'which') * shown.length), 1)
  if (draw(key, minute, 'swapped') < FEED_FAULTS.swapped && shown.length > 1) {
    const i = Math.floor(draw(key, minute, 'where') * (shown.length - 1))
    ;[shown[i], shown[i + 1]] = [shown[i + 1]!, shown[i]!]
  }
  return shown.slice(0, FEED_LINES)
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')

/** The page in the family's shape. */
export function feedAnswer(sim: SimSite, all: readonly SimSeries[], request: PageRequest, url: URL, now: number): FetchResult {
  const lines = feedLines(sim, all, now)
  const answer = (status: number, contentType: string, body: string): FetchResult => ({
    kind: 'page',
    page: { url: url.href, status, contentType, body, date: now },
  })
  if (!lines) return answer(200, 'text/html', '<!DOCTYPE html><title>Maintenance</title><p>Back soon.</p>')
  const origin = `${url.protocol}//${sim.site.hosts[0] ?? url.host}`
  switch (sim.family) {
    case 'mangadex':
      return answer(
        200,
        'application/json',
        JSON.stringify({
          result: 'ok',
          data: lines.map((l) => ({
            id: `${l.series.uuid}-${l.chapter}`,
            type: 'chapter',
            attributes: { chapter: String(l.chapter), publishAt: new Date(l.at).toISOString(), translatedLanguage: 'en' },
            relationships: [{ id: l.series.uuid, type: 'manga' }],
          })),
        }),
      )
    case 'mangathemesia':
      return answer(
        200,
        'text/html',
        `<!DOCTYPE html><div class="listupd">${lines
          .map(
            (l) =>
              `<div class="bs"><div class="bsx"><a href="${origin}/manga/${l.series.slug}/" title="${esc(l.series.title)}">` +
              `<div class="tt">${esc(l.series.title)}</div><div class="adds"><div class="epxs">Chapter ${l.chapter}</div></div></a></div></div>`,
          )
          .join('')}</div>`,
      )
    default:
      return answer(
        200,
        'text/html',
        `<!DOCTYPE html><div class="page-listing-item">${lines
          .map(
            (l) =>
              `<div class="page-item-detail manga"><div class="post-title"><h3><a href="${origin}/manga/${l.series.slug}/">${esc(l.series.title)}</a></h3></div>` +
              `<div class="list-chapter"><div class="chapter-item"><span class="chapter"><a href="${origin}/manga/${l.series.slug}/chapter-${l.chapter}/">Chapter ${l.chapter}</a></span></div></div></div>`,
          )
          .join('')}</div>`,
      )
  }
}

/** Whether a ledger request's URL is a Site's updates page (the shapes `isFeedRequest` answers). */
export function isFeedUrl(raw: string): boolean {
  const url = parseUrl(raw)
  if (!url) return false
  return (
    (url.pathname === '/manga/' && (url.searchParams.get('m_orderby') === 'latest' || url.searchParams.get('order') === 'update')) ||
    (url.pathname === '/chapter' && url.searchParams.has('order[publishAt]'))
  )
}

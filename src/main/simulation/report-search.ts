/**
 * The report's figures on title searches, covers and moves (docs/adr/0185-the-simulation-searches-and-moves.md),
 * counted from the Sites' ledger and the actions: what searches and covers cost in requests, per Series and per
 * simulated day.
 */
import { DAY, type World } from './catalogue'
import type { SimEvent } from './events'

export interface SearchCoverCounts {
  searches: {
    /** Search requests the Sites received. */
    requests: number
    /** Of those, a Reader's (the rest: the app finding a moved Series again). */
    byReaders: number
    /** Searches the app declined in words (a Reader past the bound, a paused or refusing Lane): no request. */
    declined: number
    /** Searches a Reader made that were answered. */
    answered: number
  }
  covers: {
    requests: number
    /** Distinct Series a cover was requested for. */
    series: number
    /** Distinct cover URLs requested. */
    urls: number
    /** Requests per Series a cover was requested for: 1, and 1 more for each cover its page changed to. */
    perSeries: number
  }
  moves: { moved: number; accepted: number; offeredWrong: number }
  /** Search and cover requests per Series held and simulated day (the held at the end of the run). */
  perSeriesPerDay: { searches: number; covers: number }
}

export function searchCoverCounts(events: readonly SimEvent[], world: World): SearchCoverCounts {
  const c: SearchCoverCounts = {
    searches: { requests: 0, byReaders: 0, declined: 0, answered: 0 },
    covers: { requests: 0, series: 0, urls: 0, perSeries: 0 },
    moves: { moved: 0, accepted: 0, offeredWrong: 0 },
    perSeriesPerDay: { searches: 0, covers: 0 },
  }
  const coverSeries = new Set<string>()
  const coverUrls = new Set<string>()
  const held = new Set<string>()
  for (const e of events) {
    if (e.type === 'seed' && e.held) held.add(e.series)
    if (e.type === 'request' && e.kind === 'search') {
      c.searches.requests++
      if (e.reader !== undefined) c.searches.byReaders++
    }
    if (e.type === 'request' && e.kind === 'cover') {
      c.covers.requests++
      coverSeries.add(e.series)
      coverUrls.add(e.url)
    }
    if (e.type !== 'action') continue
    if (e.action === 'bookmark' && e.result === 'ok' && e.series) held.add(e.series)
    if (e.action === 'search') {
      if (e.declined) c.searches.declined++
      else if (e.result === 'ok') c.searches.answered++
    }
    if (e.action === 'series-moved') c.moves.moved++
    if (e.action === 'accept-move') {
      if (e.result === 'ok') c.moves.accepted++
      else if (e.result.startsWith('the app offered')) c.moves.offeredWrong++
    }
  }
  c.covers.series = coverSeries.size
  c.covers.urls = coverUrls.size
  c.covers.perSeries = coverSeries.size ? Math.round((c.covers.requests / coverSeries.size) * 100) / 100 : 0
  const seriesDays = Math.max(1, held.size) * Math.max(1 / 24, (world.end - world.start) / DAY)
  c.perSeriesPerDay = {
    searches: Math.round((c.searches.requests / seriesDays) * 1000) / 1000,
    covers: Math.round((c.covers.requests / seriesDays) * 1000) / 1000,
  }
  return c
}

/** The report's line on them. */
export function searchCoverLine(c: SearchCoverCounts): string {
  return (
    `searches and covers: ${c.searches.requests} search requests (${c.searches.byReaders} by Readers, ${c.searches.answered} answered, ` +
    `${c.searches.declined} declined), ${c.covers.requests} cover requests for ${c.covers.series} Series (${c.covers.urls} URLs, ${c.covers.perSeries} a Series); ` +
    `per Series a day: ${c.perSeriesPerDay.searches} searches, ${c.perSeriesPerDay.covers} covers; ` +
    `moves ${c.moves.moved}, accepted ${c.moves.accepted}${c.moves.offeredWrong ? `, offered wrong ${c.moves.offeredWrong}` : ''}`
  )
}

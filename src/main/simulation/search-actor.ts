/**
 * The simulation's title searches and moves as they come due (docs/adr/0185-the-simulation-searches-and-moves.md):
 * Readers search a Site by a (partial) title through the app's own path (use-cases/search-site.ts, on the Site's
 * Lane) and follow a result; now and then a Reader types fast and sends more searches in a minute than the app
 * allows; a Site moves a Series to a new slug; the owner looks at the app's "found again" proposals every
 * OWNER_REVIEW_EVERY_MS and accepts each (at once or after a while). Every step goes into the event log.
 */
import { normalisedTitle, SEARCHES_PER_READER_PER_MINUTE } from '../../shared/search'
import { AppError } from '../../shared/errors'
import type { AdminApi } from '../../shared/admin-api'
import type { FakeClock } from '../testing/clock'
import { bookmarkByUrl, type AcquireDeps } from '../use-cases/acquire'
import { searchSite } from '../use-cases/search-site'
import type { Household, Level } from './agenda'
import { DAY, type SimSeries, type World } from './catalogue'
import type { EventLog } from './events'
import type { Random } from './random'
import { OWNER_REVIEW_EVERY_MS, type Moves, type SeriesMove } from './sim-search'
import type { SimSites } from './sim-sites'

/** One moment of the searches' and moves' own agenda. */
export type SearchMoment =
  | { at: number; kind: 'search'; reader: number; series: SimSeries; query: string }
  /** A Reader's search box fires more searches in a minute than the app allows. */
  | { at: number; kind: 'search-burst'; reader: number }
  | { at: number; kind: 'series-moved'; move: SeriesMove }
  | { at: number; kind: 'owner-review' }

/** Reader searches per simulated day, at actions `some`. */
const SEARCHES_PER_DAY = 6
const SCALE: Record<Level, number> = { none: 0, some: 1, many: 3 }

/**
 * The agenda of searches and moves: Reader searches (a Poisson stream), one search burst in the first day, each
 * move at its time and the owner's looks every OWNER_REVIEW_EVERY_MS once a move happened. Sorted by time.
 */
export function searchMoments(rng: Random, world: World, moves: Moves, actions: Level, readers: number): SearchMoment[] {
  const out: SearchMoment[] = []
  const perDay = SEARCHES_PER_DAY * SCALE[actions]
  const searchable = world.series.filter((s) => !s.flood && !moves.list.some((m) => m.series === s))
  if (perDay > 0 && searchable.length) {
    for (let t = world.start + rng.exponential(DAY / perDay); t < world.end; t += rng.exponential(DAY / perDay)) {
      const series = rng.pick(searchable)
      out.push({ at: Math.round(t), kind: 'search', reader: rng.int(0, readers - 1), series, query: partialTitle(rng, series.title) })
    }
    const burstAt = world.start + rng.between(0.2, 0.9) * Math.min(DAY, world.end - world.start)
    out.push({ at: Math.round(burstAt), kind: 'search-burst', reader: rng.int(0, readers - 1) })
  }
  for (const move of moves.list) out.push({ at: move.at, kind: 'series-moved', move })
  const first = Math.min(...moves.list.map((m) => m.at))
  for (let t = first + OWNER_REVIEW_EVERY_MS; Number.isFinite(first) && t < world.end; t += OWNER_REVIEW_EVERY_MS)
    out.push({ at: t, kind: 'owner-review' })
  return out.sort((a, b) => a.at - b.at)
}

/** What a Reader types: one word of the title, two, or the whole of it. */
function partialTitle(rng: Random, title: string): string {
  const words = title.split(' ')
  const n = rng.int(1, words.length)
  const from = rng.int(0, words.length - n)
  return words.slice(from, from + n).join(' ')
}

export interface SearchActorDeps {
  world: World
  clock: FakeClock
  log: EventLog
  admin: AdminApi
  /** The core's, with the Sites' view that marks each request as an Acquisition's (a follow is a bookmark). */
  acquireDeps: AcquireDeps
  sites: SimSites
  moves: Moves
  household: Household
  readers: readonly number[]
  track(work: Promise<unknown>): void
  snapshotUnread(readerId: number, series: SimSeries): void
}

/** How long a burst sent while the machine sleeps waits before the Reader's device sends it again. */
const BURST_RETRY_MS = 15 * 60_000

export class SearchActor {
  /** When the owner first saw each proposal (monotonic), by Series key. */
  readonly #seen = new Map<string, number>()

  constructor(private readonly d: SearchActorDeps) {}

  run(m: SearchMoment): Promise<void> {
    // Nobody uses the app while the machine sleeps (the burst waits for it to wake); the Sites move Series all the same.
    if (m.kind !== 'series-moved' && m.kind !== 'search-burst' && this.#asleep()) return Promise.resolve()
    switch (m.kind) {
      case 'search':
        return this.#search(m.reader, m.series, m.query, true)
      case 'search-burst':
        return this.#burst(m.reader)
      case 'series-moved':
        this.d.log.add({
          type: 'action',
          action: 'series-moved',
          site: m.move.series.site,
          series: m.move.series.key,
          url: m.move.url,
          // How long the owner will wait once the app offers the move (the rule on it allows for that).
          durationMs: m.move.acceptAfterMs,
          result: 'ok',
        })
        return Promise.resolve()
      case 'owner-review':
        return this.#review()
    }
  }

  /** Whether the machine sleeps now: the Lanes' last stop (actions.ts, on a sleep) not followed by a start. */
  #asleep(): boolean {
    const events = this.d.log.events
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!
      if (e.type === 'action' && (e.action === 'lanes-stop' || e.action === 'lanes-start')) return e.action === 'lanes-stop'
    }
    return false
  }

  /** Past the bound at once: the searches the app must decline are the ones over SEARCHES_PER_READER_PER_MINUTE. */
  async #burst(reader: number): Promise<void> {
    const { world, clock } = this.d
    while (this.#asleep() && clock.monotonic() < world.end) await clock.sleep(BURST_RETRY_MS)
    if (this.#asleep()) return
    const pool = world.series.filter((s) => !s.flood && !this.d.moves.list.some((m) => m.series === s))
    const works: Array<Promise<void>> = []
    for (let i = 0; i < SEARCHES_PER_READER_PER_MINUTE + 2; i++) {
      const series = pool[(i * 7919 + reader) % pool.length]!
      works.push(this.#search(reader, series, series.title.split(' ')[0]!, false))
    }
    await Promise.all(works)
  }

  /** A Reader searches the Series' Site; when `follow`, follows the Series if the answer has it and they do not hold it. */
  async #search(readerIndex: number, series: SimSeries, query: string, follow: boolean): Promise<void> {
    const { sites, log, acquireDeps } = this.d
    const readerId = this.d.readers[readerIndex]!
    const deps = {
      ...acquireDeps,
      fetchers: { http: sites.http('acquisition', readerId), browser: sites.browser('acquisition', readerId) },
    }
    const entry = { type: 'action' as const, action: 'search' as const, site: series.site, series: series.key, reader: readerId }
    let results: Awaited<ReturnType<typeof searchSite>>['results']
    try {
      results = (await searchSite(deps, { site: series.site, query, readerId })).results
    } catch (error) {
      const declined = error instanceof AppError && (error.code === 'rate-limited' || error.code === 'conflict') ? error.code : undefined
      log.add({ ...entry, result: (error as Error).message, ...(declined ? { declined } : {}) })
      return
    }
    log.add({ ...entry, results: results.length, result: 'ok' })
    const wanted = normalisedTitle(series.title)
    const hit = results.find((r) => normalisedTitle(r.title) === wanted)
    if (follow && hit && !hit.following && !this.d.household.held.get(series.key)?.has(readerId))
      await this.#follow(series, readerId, hit.url)
  }

  /** Follows a result with one tap: the bookmark-by-URL path, an Acquisition when the app had no row for it. */
  async #follow(series: SimSeries, readerId: number, url: string): Promise<void> {
    const { household, log } = this.d
    const acquired = !household.held.get(series.key)?.size && !household.known.has(series.key)
    household.known.add(series.key)
    const holders = household.held.get(series.key) ?? new Set<number>()
    holders.add(readerId)
    household.held.set(series.key, holders)
    const entry = { type: 'action' as const, action: 'bookmark' as const, site: series.site, series: series.key, reader: readerId }
    try {
      await bookmarkByUrl(this.d.acquireDeps, { readerId, url })
      log.add({ ...entry, acquired, result: 'ok' })
    } catch (error) {
      log.add({ ...entry, result: (error as Error).message })
    }
  }

  /**
   * The owner looks at the proposals: each one of a moved Series at its new URL is accepted once it has waited the
   * move's delay (the Readers' views of it entered before and after, so progress is seen to stay); anything else is
   * an action that failed (the app offered a wrong place) and is dismissed.
   */
  async #review(): Promise<void> {
    const { admin, moves, clock, log, household } = this.d
    let proposals: Awaited<ReturnType<AdminApi['foundAgain']>>
    try {
      proposals = await admin.foundAgain()
    } catch {
      return // a locked database: the owner looks again later
    }
    for (const p of proposals) {
      const move = moves.list.find((m) => m.series.site === p.site && m.series.seriesId === p.seriesId)
      const key = `${p.site}/${p.seriesId}`
      const entry = { type: 'action' as const, action: 'accept-move' as const, site: p.site, series: key, url: p.toUrl }
      if (!move || p.toUrl !== move.url) {
        log.add({ ...entry, result: `the app offered ${p.toUrl} for a Series ${move ? `moved to ${move.url}` : 'that never moved'}` })
        await admin.dismissFoundAgain({ site: p.site, seriesId: p.seriesId }).catch(() => undefined)
        continue
      }
      const seen = this.#seen.get(key) ?? clock.monotonic()
      this.#seen.set(key, seen)
      if (clock.monotonic() - seen < move.acceptAfterMs) continue
      const holders = [...(household.held.get(key) ?? [])]
      for (const reader of holders) this.d.snapshotUnread(reader, move.series)
      try {
        await admin.acceptFoundAgain({ site: p.site, seriesId: p.seriesId })
        log.add({ ...entry, result: 'ok' })
      } catch (error) {
        log.add({ ...entry, result: (error as Error).message })
      }
      for (const reader of holders) this.d.snapshotUnread(reader, move.series)
    }
  }
}

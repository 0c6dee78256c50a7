import { describe, expect, it } from 'vitest'
import { SEARCHES_PER_READER_PER_MINUTE } from '../../shared/search'
import { GONE_AFTER_CHECKS } from '../../shared/series-state'
import { DEFAULT_PACE, type Page } from '../sites/site'
import { searchBase } from '../use-cases/search-site'
import { buildWorld, DAY, HOUR } from './catalogue'
import { checkInvariants, type CheckerConfig, type RuleName } from './checker'
import { checkSearchRules, moveAllowance, waitedDeadline } from './checker-search'
import type { SimEvent } from './events'
import { Random } from './random'
import { coverUrl, OWNER_REVIEW_EVERY_MS, planMoves, searchAnswer, searchMatches, searchQuery, SIM_SEARCH_RESULTS } from './sim-search'

const T0 = Date.UTC(2025, 0, 6)
const world = buildWorld(new Random(7), { sites: 6, series: 60, start: T0, end: T0 + 3 * DAY })

describe('the simulated Sites answer a title search the way their family does', () => {
  it.each(world.sites.map((s) => [s.family, s] as const))('%s: the real search adapter reads the answer', (_family, sim) => {
    const search = sim.site.adapter.search!
    const series = world.series.find((s) => s.site === sim.site.key)!
    const query = series.title.split(' ').slice(1).join(' ')
    const searchFor = { query, base: searchBase(sim.site) }
    const request = search.request(searchFor)
    const url = new URL(request.url)
    expect(searchQuery(sim, url)).toBe(query)
    const found = searchMatches(
      world.series.filter((s) => s.site === sim.site.key),
      query,
    ).map((s) => ({ series: s, url: s.url, cover: coverUrl(sim, s, world, T0), latest: 'Chapter 3' }))
    expect(found.map((f) => f.series)).toContain(series)
    const page: Page = { url: url.href, status: 200, contentType: 'text/html', body: searchAnswer(sim, found), date: T0 }
    const results = search.read(page, searchFor)
    const hit = results.find((r) => r.title === series.title)!
    expect(hit).toBeDefined()
    expect(sim.site.seriesIdOf(new URL(hit.url))).toBe(series.seriesId)
    if (sim.family !== 'mangadex') expect(hit.coverUrl).toBe(coverUrl(sim, series, world, T0))
  })

  it('answers at most SIM_SEARCH_RESULTS, only titles holding the query, and nothing for a URL that is no search', () => {
    const all = world.series.filter((s) => s.site === world.sites[0]!.site.key)
    expect(searchMatches(all, 'e').length).toBeLessThanOrEqual(SIM_SEARCH_RESULTS)
    expect(searchMatches(all, 'zzzz-no-title')).toEqual([])
    expect(searchQuery(world.sites[0]!, new URL(all[0]!.url))).toBeNull()
  })
})

describe('moves and covers', () => {
  it('a plan moves held slug Series in the first two-thirds of the run, the same for a seed', () => {
    const a = planMoves(new Random(3), world)
    const b = planMoves(new Random(3), world)
    expect(a.list.length).toBeGreaterThanOrEqual(2)
    expect(a.list.map((m) => m.url)).toEqual(b.list.map((m) => m.url))
    for (const m of a.list) {
      expect(m.series.initiallyHeld).toBe(true)
      expect(m.at).toBeLessThan(T0 + 2 * DAY)
      expect(m.url).not.toBe(m.series.url)
      expect(a.movedBy(m.series, m.at - 1)).toBeUndefined()
      expect(a.urlOf(m.series, m.at)).toBe(m.url)
      expect(a.bySlug(m.series.site, m.slug, m.at)).toBe(m.series)
      expect(a.bySlug(m.series.site, m.slug, m.at - 1)).toBeUndefined()
    }
  })

  it('a cover stays the same across the run but for every fifth Series, on the Site host or its image host', () => {
    const sim = world.sites.find((s) => s.family === 'madara')!
    for (const series of world.series.filter((s) => s.site === sim.site.key)) {
      const first = coverUrl(sim, series, world, T0)!
      expect(sim.site.hosts.includes(new URL(first).host) || sim.site.imageHosts?.includes(new URL(first).host)).toBe(true)
      expect(coverUrl(sim, series, world, T0 + 2 * DAY) === first).toBe(series.postId % 5 !== 0)
    }
  })
})

/** A log written by hand for the rules. */
function log(entries: Array<Record<string, unknown> & { at: number }>): SimEvent[] {
  return entries.map(({ at, ...e }, seq) => ({ seq, mono: T0 + at, wall: T0 + at, ...e }) as unknown as SimEvent)
}
const search = (at: number, reader = 1, site = 'a') => ({
  at,
  type: 'request',
  site,
  series: '',
  caller: 'acquisition',
  first: false,
  url: 'https://a.example/?s=x',
  fault: null,
  served: null,
  kind: 'search',
  reader,
})
const pace = { ...DEFAULT_PACE }
const facts = { end: T0 + 10 * DAY, facts: () => ({ pace, checkSlackMs: 1_000, browser: false }), unavailable: () => [] }
const rules = (events: SimEvent[]) => checkSearchRules(events, facts).map((v) => v.rule)

describe('the rules on searches, covers and moves', () => {
  it('search-bounded: a Reader past the bound in a minute fires; at the bound, or two Readers, does not', () => {
    const n = SEARCHES_PER_READER_PER_MINUTE
    const within = Array.from({ length: n }, (_, i) => search(i * 1_000))
    expect(rules(log(within))).toEqual([])
    expect(rules(log([...within, search(59_000, 2), search(61_000)]))).toEqual([])
    expect(rules(log([...within, search(59_000)]))).toEqual(['search-bounded'])
  })

  it('cover-once: a cover URL fetched again after the Site served it fires; after a failure, or a new URL, not', () => {
    const cover = (at: number, url: string, image: boolean) => ({
      at,
      type: 'request',
      site: 'a',
      series: 'a/x',
      caller: 'lane',
      first: false,
      url,
      fault: null,
      kind: 'cover',
      image,
    })
    expect(rules(log([cover(0, 'u1', false), cover(HOUR, 'u1', true), cover(2 * HOUR, 'u2', true)]))).toEqual([])
    expect(rules(log([cover(0, 'u1', true), cover(HOUR, 'u1', true)]))).toEqual(['cover-once'])
  })

  it('move-found-again: a move never accepted within its bound fires; one accepted in time does not', () => {
    const moved = { at: 0, type: 'action', action: 'series-moved', site: 'a', series: 'a/x', url: 'u2', durationMs: 2 * HOUR, result: 'ok' }
    const accepted = (at: number) => ({ at, type: 'action', action: 'accept-move', site: 'a', series: 'a/x', result: 'ok' })
    expect(rules(log([moved]))).toEqual(['move-found-again'])
    expect(rules(log([moved, accepted(8 * HOUR)]))).toEqual([])
    expect(rules(log([moved, accepted(3 * DAY)]))).toEqual(['move-found-again'])
  })

  it("move-found-again: on a Site behind a browser each turn also waits the browser's wake threshold", () => {
    const moved = { at: 0, type: 'action', action: 'series-moved', site: 'a', series: 'a/x', url: 'u2', durationMs: 2 * HOUR, result: 'ok' }
    const turns = GONE_AFTER_CHECKS + 2
    const plainBound = turns * (pace.restMs + pace.maxPassMs + 1_000) + 2 * OWNER_REVIEW_EVERY_MS + 2 * HOUR
    const late = {
      at: plainBound + (turns * pace.wakeOldestMs) / 2,
      type: 'action',
      action: 'accept-move',
      site: 'a',
      series: 'a/x',
      result: 'ok',
    }
    const behindBrowser = { ...facts, facts: () => ({ pace, checkSlackMs: 1_000, browser: true }) }
    expect(rules(log([moved, late]))).toEqual(['move-found-again'])
    expect(checkSearchRules(log([moved, late]), behindBrowser).map((v) => v.rule)).toEqual([])
  })

  it('move-found-again: a Series the owner has Finished is not checked, so its bound waits the Finished time', () => {
    const moved = { at: 0, type: 'action', action: 'series-moved', site: 'a', series: 'a/x', url: 'u2', durationMs: 0, result: 'ok' }
    const owner = (at: number, action: 'finish' | 'unfinish') => ({ at, type: 'action', action, site: 'a', series: 'a/x', result: 'ok' })
    const accepted = (at: number) => ({ at, type: 'action', action: 'accept-move', site: 'a', series: 'a/x', result: 'ok' })
    const bound = (GONE_AFTER_CHECKS + 2) * (pace.restMs + pace.maxPassMs + 1_000) + 2 * OWNER_REVIEW_EVERY_MS
    // Finished a day before the move and never again checked: never gone, never searched — not judged.
    expect(rules(log([owner(-DAY, 'finish'), moved]))).toEqual([])
    // Finished and checked again from 2 days on: the bound counts from there.
    expect(rules(log([owner(-DAY, 'finish'), moved, owner(2 * DAY, 'unfinish'), accepted(2 * DAY + bound - HOUR)]))).toEqual([])
    expect(rules(log([owner(-DAY, 'finish'), moved, owner(2 * DAY, 'unfinish'), accepted(2 * DAY + bound + HOUR)]))).toEqual([
      'move-found-again',
    ])
    // Finished and unfinished before the move, or another Series Finished: judged as any move.
    expect(rules(log([owner(-DAY, 'finish'), owner(-HOUR, 'unfinish'), moved]))).toEqual(['move-found-again'])
    expect(rules(log([{ ...owner(-DAY, 'finish'), series: 'a/y' }, moved]))).toEqual(['move-found-again'])
  })

  it('waitedDeadline: overlapping waits count once; what they add reaches later ones; an open one is Infinity', () => {
    expect(waitedDeadline(0, 10, [])).toBe(10)
    expect(
      waitedDeadline(0, 10, [
        [5, 15],
        [8, 20],
      ]),
    ).toBe(25)
    expect(
      waitedDeadline(0, 10, [
        [5, 15],
        [18, 30],
      ]),
    ).toBe(32)
    expect(waitedDeadline(0, 10, [[-5, 2]])).toBe(12)
    expect(waitedDeadline(0, 10, [[40, Infinity]])).toBe(10)
    expect(
      waitedDeadline(0, 10, [
        [5, 15],
        [19, Infinity],
      ]),
    ).toBe(Infinity)
  })

  it('moved-keeps-progress: a Reader whose Progress differs across the acceptance fires', () => {
    const unread = (at: number, progress: number | null) => ({ at, type: 'unread', reader: 1, site: 'a', series: 'a/x', progress })
    const accepted = { at: 5, type: 'action', action: 'accept-move', site: 'a', series: 'a/x', result: 'ok' }
    expect(rules(log([unread(5, 12), accepted, unread(5, 12)]))).toEqual([])
    expect(rules(log([unread(5, 12), accepted, unread(5, null)]))).toEqual(['moved-keeps-progress'])
  })

  it("a moved Series' chapters get the time from the move to the acceptance", () => {
    const move = { movedAt: T0 + HOUR, acceptedAt: T0 + 10 * HOUR }
    expect(moveAllowance(move, { mono: T0 }, T0 + 2 * HOUR)).toBe(9 * HOUR)
    expect(moveAllowance(move, { mono: T0 + 4 * HOUR }, T0 + 5 * HOUR)).toBe(6 * HOUR)
    expect(moveAllowance(move, { mono: T0 + 11 * HOUR }, T0 + 12 * HOUR)).toBe(0)
    expect(moveAllowance(move, { mono: T0 - 3 * HOUR }, T0 + HOUR / 2)).toBe(0)
    expect(moveAllowance(undefined, { mono: T0 }, T0 + HOUR)).toBe(0)
  })
})

describe('the pacing rules count search and cover requests', () => {
  const config: CheckerConfig = { end: T0 + 10 * DAY, sites: { a: { pace, browser: false, checkSlackMs: 1_000 } } }
  const GAP = 72_000
  const check = (at: number, series = 'a/x') => ({
    at,
    type: 'request',
    site: 'a',
    series,
    caller: 'lane',
    first: true,
    url: 'x',
    fault: null,
    served: 1,
  })
  const pass = (at: number) => ({ at, type: 'pass', site: 'a', row: null, newChapters: [] })
  const judged = (events: SimEvent[], only: readonly RuleName[]) =>
    checkInvariants(events, config)
      .violations.map((v) => v.rule)
      .filter((r) => only.includes(r))
  const PACING: readonly RuleName[] = ['gap-kept', 'acquisition-paced', 'min-gap', 'closed-lane-silent', 'refusal-respected']

  it("a cover closer than its pass's gap after a check breaks gap-kept", () => {
    const row = { site: 'a', skip: '', gap: GAP, due: 1, checked: 1 }
    const cover = (at: number) => ({
      at,
      type: 'request',
      site: 'a',
      series: 'a/x',
      caller: 'lane',
      first: false,
      url: 'c',
      fault: null,
      kind: 'cover',
      image: true,
    })
    const events = (coverAt: number) => log([check(0), cover(coverAt), { ...pass(coverAt + 1), row: { id: 1, ...row } }])
    expect(judged(events(GAP / 2), PACING)).toEqual(['gap-kept'])
    expect(judged(events(GAP), PACING)).toEqual([])
  })

  it('a search closer than minGapMs after a check breaks min-gap; a check right after a search breaks acquisition-paced', () => {
    expect(judged(log([check(0), search(pace.minGapMs / 2)]), PACING)).toEqual(['min-gap'])
    const row = { id: 1, site: 'a', skip: '', gap: GAP, due: 1, checked: 1 }
    expect(judged(log([search(0), check(pace.minGapMs), { ...pass(pace.minGapMs + 1), row }]), PACING)).toEqual(['acquisition-paced'])
  })

  it('a search inside a refusal the Site answered breaks refusal-respected', () => {
    const refusal = { at: 0, type: 'refusal', site: 'a', series: 'a/x', caller: 'lane', form: '429', retryAfter: '600', askedMs: 600_000 }
    expect(judged(log([refusal, search(60_000)]), PACING)).toContain('refusal-respected')
  })
})

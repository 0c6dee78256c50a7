import { describe, expect, it } from 'vitest'
import { highestChapter, parseChapterNumber } from '../../shared/chapter-number'
import type { FetchResult } from '../fetch/fetcher'
import type { PageRequest } from '../sites/site'
import { FakeClock } from '../testing/clock'
import { buildWorld, chapterLabel, DAY, LABEL_STYLES, shownBy } from './catalogue'
import { EventLog } from './events'
import { Random } from './random'
import { SimSites } from './sim-sites'

const START = Date.UTC(2025, 0, 6)

describe('chapter labels', () => {
  it.each(LABEL_STYLES)('the parser reads the number back from a "%s" label, fractional and [END] ones too', (style) => {
    for (const n of [1, 12.5, 100, 1034]) {
      expect(parseChapterNumber(chapterLabel(style, n, 'silver-tide-crown'), 'Silver Tide Crown')).toBe(n)
      expect(parseChapterNumber(chapterLabel(style, n, 'silver-tide-crown', true), 'Silver Tide Crown')).toBe(n)
    }
  })
})

describe('the world', () => {
  const world = buildWorld(new Random(9).fork('world'), { sites: 6, series: 120, start: START, end: START + 30 * DAY })

  it('has every family, and Series whose chapters only go up, with releases during the run', () => {
    expect(world.sites.map((s) => s.family).sort()).toEqual(['madara', 'madara-xhr', 'mangadex', 'mangathemesia', 'selectors', 'webtoons'])
    let released = 0
    for (const series of world.series) {
      const numbers = series.chapters.map((c) => c.number)
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
      expect(new Set(numbers).size).toBe(numbers.length)
      released += series.chapters.filter((c) => c.at >= START).length
    }
    expect(released).toBeGreaterThan(100)
    expect(world.series.some((s) => s.chapters.some((c) => !Number.isInteger(c.number)))).toBe(true)
    expect(new Set(world.series.map((s) => s.schedule[0]!.cadence)).size).toBeGreaterThanOrEqual(6)
  })

  it("serves pages the real adapters read: each Series' highest released chapter, by its own label", async () => {
    const clock = new FakeClock(START + 15 * DAY)
    const log = new EventLog(clock)
    const rates = { '5xx': 0, timeout: 0, challenge: 0, empty: 0, 'no-chapter': 0, 'browser-dies': 0, database: 0 }
    const sites = new SimSites({ world, clock, log, rng: new Random(1), rates, episodes: [], onRequest: () => {} })
    const fetch = async (
      request: PageRequest,
      via: 'http' | 'browser',
      site: (typeof world.sites)[number]['site'],
    ): Promise<FetchResult> => {
      const answer = (via === 'browser' ? sites.browser('lane') : sites.http('lane')).fetch(request, site)
      await clock.runQuiet(5_000)
      return answer
    }
    for (const series of world.series) {
      const { site } = world.sites.find((s) => s.site.key === series.site)!
      const url = new URL(series.url)
      let request = site.adapter.request(url)
      let found: number | undefined
      for (let hop = 0; hop < 3 && found === undefined; hop++) {
        const result = await fetch(request, site.fetcher, site)
        if (result.kind !== 'page') throw new Error(`${series.key}: ${result.kind}`)
        const step = site.adapter.read(result.page, url)
        if (step.kind === 'follow') request = step.request
        else found = highestChapter(step.result.chapters)?.number
      }
      expect(found, series.key).toBe(shownBy(series, clock.monotonic()).at(-1)!.number)
      expect(site.seriesIdOf(url)).toBe(series.seriesId)
    }
  })
})

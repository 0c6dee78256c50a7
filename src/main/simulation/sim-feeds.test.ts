/** The simulated Sites' updates pages read by the app's own feeds (docs/adr/0165-site-feeds.md). */
import { describe, expect, it } from 'vitest'
import { siteFeed } from '../sites/feeds'
import { buildWorld, DAY, shownBy } from './catalogue'
import { Random } from './random'
import { FEED_LINES, feedAnswer, feedLines, isFeedRequest, isFeedUrl } from './sim-feeds'
import { SIM_START } from './simulate'

const world = buildWorld(new Random(4).fork('world'), { sites: 6, series: 200, start: SIM_START, end: SIM_START + 10 * DAY })

describe('sim updates pages', () => {
  for (const sim of world.sites.filter((s) => ['madara', 'madara-xhr', 'mangathemesia', 'mangadex'].includes(s.family))) {
    it(`${sim.family}: the app's feed asks for it and reads its newest lines as the Site shows them`, () => {
      const feed = siteFeed(sim.site.adapter)!
      const all = world.series.filter((s) => s.site === sim.site.key)
      const sample = new URL(all[0]!.url)
      const request = feed.request(sample)
      const url = new URL(request.url)
      expect(isFeedRequest(sim, url)).toBe(true)
      expect(isFeedUrl(request.url)).toBe(true)
      // A minute whose draws give a whole page: no fault.
      let now = SIM_START + 5 * DAY
      while (feedLines(sim, all, now)?.length !== Math.min(FEED_LINES, all.length) || feedLines(sim, all, now - 7_200_000) === null)
        now += 60_000
      const answer = feedAnswer(sim, all, request, url, now)
      if (answer.kind !== 'page') throw new Error('no page')
      const entries = feed.read(answer.page)
      expect(entries.length).toBeGreaterThan(0)
      expect(entries.length).toBeLessThanOrEqual(FEED_LINES)
      for (const entry of entries) {
        const id = sim.site.seriesIdOf(new URL(entry.seriesUrl))
        const series = all.find((s) => sim.site.seriesIdOf(new URL(s.url)) === id)!
        expect(entry.chapter).toBe(shownBy(series, now).at(-1)!.number)
      }
    })
  }

  it('its faults come: a broken page, a missing line, in a week of minutes', () => {
    const sim = world.sites.find((s) => s.family === 'madara')!
    const all = world.series.filter((s) => s.site === sim.site.key)
    let broken = 0
    for (let m = 0; m < 7 * 24 * 60; m += 7) if (feedLines(sim, all, SIM_START + m * 60_000) === null) broken++
    expect(broken).toBeGreaterThan(0)
    expect(broken).toBeLessThan((7 * 24 * 60) / 7 / 10)
  })
})

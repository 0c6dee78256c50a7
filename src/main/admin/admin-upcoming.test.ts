import { expect, it } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import { upcomingSeries } from './admin-upcoming'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const now = Date.UTC(2026, 0, 5, 12)
const weekly = { kind: 'periodic', periodMs: 7 * DAY, offsetMs: 5 * DAY + 15 * HOUR, spreadMs: 600_000, timeKnown: true }
const belief = (at: number) => JSON.stringify({ rhythm: weekly, hits: 2, window: { at, halfWidthMs: HOUR, timeKnown: true } })

it("lists the owner's held, unfinished Series expected within the week, soonest first", async ({ store }) => {
  const reader = await seedReader(store.db)
  await seedSeries(store.db, { id: 'tue', title: 'Tuesday Series', readers: [reader] })
  await seedSeries(store.db, { id: 'soon', title: 'Soon', readers: [reader] })
  await seedSeries(store.db, { id: 'orphan', readers: [] })
  await seedSeries(store.db, { id: 'shelved', finishedAt: 1, readers: [reader] })
  await seedSeries(store.db, { id: 'plain', readers: [reader] })
  const tuesday = Date.UTC(2026, 0, 6, 15)
  for (const [id, at] of [
    ['tue', tuesday],
    ['soon', now + HOUR],
    ['orphan', tuesday],
    ['shelved', tuesday],
  ] as const)
    await store.db
      .updateTable('series')
      .set({ rhythm: belief(at) })
      .where('series_id', '=', id)
      .execute()
  const upcoming = await upcomingSeries(store.db, now, (site) => `Site ${site}`)
  expect(upcoming).toEqual([
    { site: 'a', siteName: 'Site a', seriesId: 'soon', title: 'Soon', expectedAt: now + HOUR, timeKnown: true },
    { site: 'a', siteName: 'Site a', seriesId: 'tue', title: 'Tuesday Series', expectedAt: tuesday, timeKnown: true },
  ])
})

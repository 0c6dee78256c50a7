/**
 * The owner sees, per Series of an adaptive Site, the rhythm the app believes in and its next planned check
 * (docs/adr/0014-freshness-per-request.md); a fixed Site's Series say nothing new. The real app on a real store,
 * no Lanes running; the plan is the one a check would write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type RunningApp } from '../app'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { planAfterCheck } from '../lanes/cadence'
import { silentLog } from '../log'
import { FakeClock } from '../testing/clock'
import { seedReader, seedSeries, tempDir } from '../testing/store'

const HOUR = 3_600_000
const WEEK = 7 * 24 * HOUR
/** Tuesday 3 November 2026, 00:00 UTC. */
const TUESDAY = Date.UTC(2026, 10, 3)
const clock = new FakeClock(TUESDAY + 8 * WEEK + 2 * 24 * HOUR)
let app: RunningApp
let fixture: FixtureSite
let dir: { dir: string; remove(): void }

beforeAll(async () => {
  dir = tempDir()
  fixture = await startFixtureSite({ now: () => clock.now() })
  const sites = fixtureSites(fixture.host).map((s) =>
    s.key === 'fixture-madara' ? { ...s, pace: { ...s.pace, cadence: 'adaptive' as const } } : s,
  )
  app = await startApp({ shell: 'headless', dataDir: dir.dir, port: 0, log: silentLog, clock, sites, lanes: false })
})
afterAll(async () => {
  await app.stop()
  await fixture.close()
  dir.remove()
})

const db = () => app.core.store.db

describe("an adaptive Site's Series", () => {
  it('says the rhythm the app believes in and when its next check is planned; a fixed Site says nothing new', async () => {
    const reader = await seedReader(db())
    const now = clock.now()
    await seedSeries(db(), { site: 'fixture-madara', id: 'weekly', readers: [reader], checkedAt: now })
    await seedSeries(db(), { site: 'fixture-madara', id: 'fresh', readers: [reader], checkedAt: now })
    await seedSeries(db(), { site: 'fixture-themesia', id: 'fixed', readers: [reader], checkedAt: now })
    const plan = planAfterCheck({
      row: { rhythm: '', releases: '', rhythm_misses: 0 },
      pageReleases: Array.from({ length: 8 }, (_, i) => ({ at: TUESDAY + i * WEEK + 15 * HOUR, exact: true })),
      newChapter: false,
      previousCheckAt: 0,
      now,
      pace: { restMs: HOUR, ceilingMs: 24 * HOUR },
    })
    await db().updateTable('series').set(plan).where('series_id', '=', 'weekly').execute()

    const weekly = (await app.api.seriesDetail({ site: 'fixture-madara', seriesId: 'weekly' })).row
    expect(weekly.rhythm).toBe('weekly, Tuesdays ~15:00 UTC')
    expect(weekly.plannedCheckAt).toBe(plan.next_check_at)
    expect(weekly.plannedCheckAt).toBeGreaterThan(now + HOUR)
    expect(weekly.waiting).toEqual({ kind: 'next-check', at: plan.next_check_at })

    const fresh = (await app.api.seriesDetail({ site: 'fixture-madara', seriesId: 'fresh' })).row
    expect(fresh.rhythm).toBe('no rhythm yet — checked every hour, less often while it stays silent (at most every 2 hours)')
    expect(fresh.waiting).toEqual({ kind: 'next-check', at: now + HOUR })

    const fixed = (await app.api.seriesDetail({ site: 'fixture-themesia', seriesId: 'fixed' })).row
    expect(fixed).not.toHaveProperty('rhythm')
    expect(fixed).not.toHaveProperty('plannedCheckAt')
  })
})

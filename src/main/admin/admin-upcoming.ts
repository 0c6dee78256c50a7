/** The owner's Upcoming (issue 26 §3): held Series expected in the next 7 days, soonest first. */
import type { UpcomingView } from '../../shared/admin-api'
import { expectedRelease } from '../lanes/expected-release'
import type { Db } from '../store/database'
import { seriesWithRhythm } from '../store/rhythms'

const WEEK_MS = 7 * 86_400_000
/** Series with a rhythm read at most (a larger library shows the soonest planned of them). */
const MAX_READ = 5_000
const MAX_SHOWN = 50

export async function upcomingSeries(db: Db, now: number, siteName: (site: string) => string): Promise<UpcomingView[]> {
  const rows = await seriesWithRhythm(db, MAX_READ)
  const coming: UpcomingView[] = []
  for (const r of rows) {
    const expected = expectedRelease(r, now)
    if (!expected || expected.at > now + WEEK_MS) continue
    coming.push({
      site: r.site,
      siteName: siteName(r.site),
      seriesId: r.series_id,
      title: r.title,
      expectedAt: expected.at,
      timeKnown: expected.timeKnown,
    })
  }
  return coming.sort((a, b) => a.expectedAt - b.expectedAt).slice(0, MAX_SHOWN)
}

/**
 * `npx tsx scripts/feed-model.ts SEED [DAYS] [SERIES]` — the quick model (scripts/cadence-model.ts) with the Sites'
 * updates pages (docs/adr/0165-site-feeds.md): Sites whose family has one (Madara, MangaThemesia, MangaDex) read it
 * on its learnt cadence (the Lane's `nextInterval`), 20 lines long, newest first over every Series of the Site
 * (held or not), with faults — a line missing (10 %), a stale read that serves the previous page again (5 %) —
 * and plan from it by the Lane's rules (a chapter above the Latest Chapter: a check now; shown unchanged or
 * covered: after the next read, within the safety ceiling). The other Sites keep the adaptive cadence. Compared
 * with the fixed rest over the same world. No HTTP, no store, no Lane gap: for the rule; the simulation measures.
 */
import { buildWorld, releasedBy, DAY, type SimSeries } from '../src/main/simulation/catalogue'
import { Random } from '../src/main/simulation/random'
import { SIM_START } from '../src/main/simulation/simulate'
import { planAfterCheck } from '../src/main/lanes/cadence'
import { nextInterval, safetyCeilingMs } from '../src/main/lanes/feed'
import { percentile } from '../src/main/simulation/report'
import type { Pace } from '../src/main/sites/site'

const seed = Number(process.argv[2] ?? 1)
const days = Number(process.argv[3] ?? 21)
const seriesCount = Number(process.argv[4] ?? 100)
const PAGE_LINES = 20
const FEED_FAMILIES = new Set(['madara', 'madara-xhr', 'mangathemesia', 'mangadex'])
const root = new Random(seed)
const faults = root.fork('feed-faults')
const start = SIM_START
const world = buildWorld(root.fork('world'), { sites: 6, series: seriesCount, start, end: start + days * DAY })

interface Row {
  rhythm: string
  releases: string
  rhythm_misses: number
  next_check_at?: number
}
interface Held {
  s: SimSeries
  row: Row
  plan: number
  lastCheck: number
  highest: number
  found: Map<number, number>
  /** Why its next check comes: its cadence, a Sighting from the page, or the safety ceiling. */
  why: 'cadence' | 'sighted' | 'ceiling'
  onFeed: boolean
}

type Tally = { requests: number; feedRequests: number; delays: number[]; ceilingGap: number; why: Record<string, number> }

function check(h: Held, t: number, pace: Pace, mode: 'fixed' | 'adaptive' | 'feeds', tally: Tally): void {
  tally.requests++
  if (h.onFeed) tally.why[h.why] = (tally.why[h.why] ?? 0) + 1
  h.why = 'cadence'
  tally.ceilingGap = Math.max(tally.ceilingGap, t - h.lastCheck)
  const shown = releasedBy(h.s, t)
  const top = shown.at(-1)?.number ?? 0
  for (const c of shown) if (c.at >= start && !h.found.has(c.number)) h.found.set(c.number, t)
  const newChapter = top > h.highest
  h.highest = Math.max(h.highest, top)
  if (mode === 'fixed') h.plan = t + pace.restMs
  else {
    const dated = shown.slice(-12).map((c) => ({ at: Math.floor(c.at / DAY) * DAY, exact: false }))
    h.row = planAfterCheck({ row: h.row, pageReleases: dated, newChapter, previousCheckAt: h.lastCheck, now: t, pace })
    h.plan = Math.max(h.row.next_check_at ?? t + pace.restMs, t + 1000)
  }
  h.lastCheck = t
}

/** The updates page at `t`: the Series of the Site by their newest release, with the chapter shown. */
function page(all: readonly SimSeries[], t: number): Array<{ key: string; chapter: number; at: number }> {
  const lines: Array<{ key: string; chapter: number; at: number }> = []
  for (const s of all) {
    const top = releasedBy(s, t).at(-1)
    if (top && !faults.chance(0.1)) lines.push({ key: s.key, chapter: top.number, at: top.at })
  }
  return lines.sort((a, b) => b.at - a.at).slice(0, PAGE_LINES)
}

function runSite(siteIndex: number, mode: 'fixed' | 'adaptive' | 'feeds', tally: Tally): void {
  const sim = world.sites[siteIndex]!
  const pace: Pace = { ...sim.site.pace, cadence: mode === 'fixed' ? 'fixed' : 'adaptive' }
  const all = world.series.filter((s) => s.site === sim.site.key)
  const held: Held[] = all
    .filter((s) => s.initiallyHeld && !s.initiallyFinished)
    .map((s) => ({
      s,
      row: { rhythm: '', releases: '', rhythm_misses: 0 },
      plan: start + ((s.key.length * 7919) % pace.restMs),
      lastCheck: start - pace.restMs,
      highest: releasedBy(s, start).at(-1)?.number ?? 0,
      found: new Map(),
      why: 'cadence' as const,
      onFeed: mode === 'feeds' && FEED_FAMILIES.has(sim.family),
    }))
  const withFeed = mode === 'feeds' && FEED_FAMILIES.has(sim.family)
  let interval = pace.restMs / 2
  let previous: Array<{ key: string; chapter: number }> | null = null
  let coveredSince: number | null = null
  const safety = safetyCeilingMs(pace)
  for (let r = start; r < world.end;) {
    const nextRead = withFeed ? r + interval : world.end
    for (const h of held)
      while (h.plan < nextRead && h.plan < world.end) {
        check(h, h.plan + 120_000, pace, mode, tally)
        // Between reads the Lane holds a Series checked since the coverage began past the next read (holdCovered).
        const until = nextRead + interval
        if (withFeed && coveredSince !== null && h.lastCheck >= coveredSince && h.plan <= until) {
          h.plan = Math.max(h.plan, Math.min(h.lastCheck + safety, until))
          if (h.plan === h.lastCheck + safety) h.why = 'ceiling'
        }
      }
    r = nextRead
    if (!withFeed || r >= world.end) continue
    tally.requests++
    tally.feedRequests++
    const lines: Array<{ key: string; chapter: number }> = previous && faults.chance(0.05) ? previous : page(all, r)
    const keyOf = (l: { key: string; chapter: number }) => `${l.key}:${l.chapter}`
    const before = new Set(previous?.map(keyOf))
    // The Lane's overlap (coveredSince in src/main/lanes/feed.ts): any line of the previous read still shown, unless
    // a Series shows a lower chapter than it did then (a stale page).
    const was = new Map(previous?.map((l) => [l.key, l.chapter]))
    const older = lines.some((l) => l.chapter < (was.get(l.key) ?? -Infinity))
    const overlaps = !older && lines.some((l) => before.has(keyOf(l)))
    coveredSince = coveredSince !== null && overlaps ? coveredSince : r
    const changed = previous ? lines.filter((l) => !before.has(keyOf(l))).length : lines.length
    interval = nextInterval(interval, changed, lines.length, { ...pace }, held.length)
    previous = lines
    const until = r + 2 * interval
    for (const h of held) {
      const line = lines.find((l) => l.key === h.s.key)
      if (line && line.chapter > h.highest) {
        if (h.plan > r) h.why = 'sighted'
        h.plan = Math.min(h.plan, r)
      } else if ((line || h.lastCheck >= coveredSince) && h.plan <= until) {
        h.plan = Math.max(h.plan, Math.min(h.lastCheck + safety, until))
        if (h.plan === h.lastCheck + safety) h.why = 'ceiling'
      }
    }
  }
  for (const h of held)
    for (const c of h.s.chapters)
      if (c.at >= start && c.at < world.end && h.found.has(c.number)) tally.delays.push(h.found.get(c.number)! - c.at)
}

const h = (ms: number | null) => (ms === null ? '-' : (ms / 60_000).toFixed(0) + ' min')
const results: Record<string, Tally> = {}
/** Requests on the Sites with an updates page, per mode. */
const onFeedSites: Record<string, number> = {}
for (const mode of ['fixed', 'adaptive', 'feeds'] as const) {
  const tally: Tally = { requests: 0, feedRequests: 0, delays: [], ceilingGap: 0, why: {} }
  const perSite: string[] = []
  for (let i = 0; i < world.sites.length; i++) {
    const before = tally.requests
    runSite(i, mode, tally)
    perSite.push(`${world.sites[i]!.family}:${tally.requests - before}`)
    if (FEED_FAMILIES.has(world.sites[i]!.family)) onFeedSites[mode] = (onFeedSites[mode] ?? 0) + tally.requests - before
  }
  results[mode] = tally
  console.log(
    mode.padEnd(8),
    'requests',
    tally.requests,
    'feed',
    tally.feedRequests,
    'chapters',
    tally.delays.length,
    'p50',
    h(percentile(tally.delays, 0.5)),
    'p95',
    h(percentile(tally.delays, 0.95)),
    'longest gap between checks',
    h(tally.ceilingGap),
    perSite.join(' '),
    mode === 'feeds' ? `why checked on the Sites with a page: ${JSON.stringify(tally.why)}` : '',
  )
}
const fixed = results.fixed!
for (const mode of ['adaptive', 'feeds'] as const) {
  const r = results[mode]!
  console.log(
    `${mode} / fixed: requests ${(r.requests / fixed.requests).toFixed(2)} (Sites with a page: ${((onFeedSites[mode] ?? 0) / (onFeedSites.fixed ?? 1)).toFixed(3)}), p50 ${((percentile(r.delays, 0.5) ?? 0) / (percentile(fixed.delays, 0.5) ?? 1)).toFixed(2)}, p95 ${((percentile(r.delays, 0.95) ?? 0) / (percentile(fixed.delays, 0.95) ?? 1)).toFixed(2)}`,
  )
}

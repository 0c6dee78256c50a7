/**
 * `npx tsx scripts/cadence-model.ts SEED [DAYS] [by-kind]` — a quick model of the two cadences over the
 * simulation's world (docs/freshness.md): each held Series checked every rest (fixed) or when planAfterCheck
 * plans (adaptive), its page's dates as its Site's family prints them — no HTTP, no store, no faults, no Lane
 * gap. Seconds instead of the simulation's minutes: for trying a rule; the simulation is the measurement.
 */
import { buildWorld, releasedBy, DAY } from '../src/main/simulation/catalogue'
import { Random } from '../src/main/simulation/random'
import { SIM_START } from '../src/main/simulation/simulate'
import { planAfterCheck } from '../src/main/lanes/cadence'
import { percentile } from '../src/main/simulation/report'

const seed = Number(process.argv[2] ?? 1)
const days = Number(process.argv[3] ?? 60)
/** MODEL_JITTER=1: each check a few minutes after it came due, as a Lane's turn makes it. */
const jitter = process.env.MODEL_JITTER === '1'
/** MODEL_STEPS=1: the app's wall clock steps ±1–6 h about every three days, as the simulation's clock steps do. */
const steps: Array<[number, number]> = []
if (process.env.MODEL_STEPS === '1') {
  const walk = new Random(seed).fork('model-steps')
  let offset = 0
  for (let at = SIM_START; at < SIM_START + days * DAY; at += walk.between(0.5, 5.5) * DAY) {
    offset += (walk.chance(0.5) ? -1 : 1) * walk.int(1, 6) * 3_600_000
    steps.push([at, offset])
  }
}
/** The app's wall time at world time `t`. */
const wall = (t: number) => t + (steps.filter(([at]) => at <= t).at(-1)?.[1] ?? 0)
const root = new Random(seed)
const start = SIM_START
const world = buildWorld(root.fork('world'), { sites: 6, series: 300, start, end: start + days * DAY })
for (const mode of ['fixed', 'adaptive'] as const) {
  let requests = 0
  const delays: number[] = []
  const byKind: Record<string, { req: number; delays: number[] }> = {}
  for (const s of world.series) {
    if (!s.initiallyHeld || s.initiallyFinished) continue
    const sim = world.sites.find((x) => x.site.key === s.site)!
    const pace = sim.site.pace
    const kind = s.schedule.map((p) => p.cadence).join('>')
    const k = (byKind[kind] ??= { req: 0, delays: [] })
    let row: { rhythm: string; releases: string; rhythm_misses: number; next_check_at?: number } = {
      rhythm: '',
      releases: '',
      rhythm_misses: 0,
    }
    let t = start + ((s.key.length * 7919) % pace.restMs)
    let prev = 0
    let highest = releasedBy(s, start).at(-1)?.number ?? 0
    const found = new Map<number, number>()
    while (t < world.end) {
      requests++
      k.req++
      const shown = releasedBy(s, t)
      const top = shown.at(-1)?.number ?? 0
      const newChapter = top > highest
      for (const c of shown) if (c.at >= start && !found.has(c.number)) found.set(c.number, t)
      highest = Math.max(highest, top)
      if (mode === 'fixed') t += pace.restMs + (jitter ? (t * 7) % 300_000 : 0)
      else {
        const dated =
          sim.family === 'selectors'
            ? []
            : shown
                .slice(-12)
                .map((c) => (sim.family === 'mangadex' ? { at: c.at, exact: true } : { at: Math.floor(c.at / DAY) * DAY, exact: false }))
        // The Site's clock is world time: its responses' Date says how far the app's wall clock is from it.
        row = planAfterCheck({ row, pageReleases: dated, newChapter, previousCheckAt: prev, now: wall(t), siteOffsetMs: t - wall(t), pace })
        prev = wall(t)
        // A Lane checks a due Series a little after it comes due (its turn in the gap, the next pass).
        t = Math.max((row.next_check_at ?? 0) - wall(t) + t, t + 1000) + (jitter ? (t * 7) % 300_000 : 0)
      }
    }
    for (const c of s.chapters)
      if (c.at >= start && c.at < world.end && found.has(c.number)) {
        delays.push(found.get(c.number)! - c.at)
        k.delays.push(found.get(c.number)! - c.at)
      }
  }
  const h = (ms: number | null) => (ms === null ? '-' : (ms / 3_600_000).toFixed(2) + 'h')
  console.log(
    mode,
    'requests',
    requests,
    'chapters',
    delays.length,
    'p50',
    h(percentile(delays, 0.5)),
    'p95',
    h(percentile(delays, 0.95)),
    'max',
    h(Math.max(...delays)),
  )
  if (process.argv[4])
    for (const [kind, v] of Object.entries(byKind).sort())
      console.log(
        '  ',
        kind.padEnd(28),
        'req',
        v.req,
        'ch',
        v.delays.length,
        'p50',
        h(percentile(v.delays, 0.5)),
        'p95',
        h(percentile(v.delays, 0.95)),
      )
}

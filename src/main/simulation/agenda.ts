/**
 * The simulation's agenda: what happens when over a run — releases, the owner's and Readers' actions, the wall
 * clock's steps and the machine's sleeps, seeded from the run's random streams, plus a scenario's scripted steps —
 * and the Sites' fault episodes.
 */
import { PAUSE_DURATIONS, type PauseDuration } from '../../shared/admin-api'
import { DAY, floodSite, HOUR, type SimChapter, type SimSeries, type World } from './catalogue'
import type { Random } from './random'
import type { FaultEpisode } from './sim-sites'

export type Level = 'none' | 'some' | 'many'
export const LEVELS: readonly Level[] = ['none', 'some', 'many']

const FAULT_SCALE: Record<Level, number> = { none: 0, some: 1, many: 4 }
const ACTION_SCALE: Record<Level, number> = { none: 0, some: 1, many: 3 }

/** Per day, at level `some`. */
const ACTION_RATES = {
  'check-now': 6,
  pause: 0.4,
  finish: 0.3,
  unfinish: 0.1,
  bookmark: 1.5,
  'bookmark-burst': 0.25,
  'bookmark-second': 0.5,
  'sighting-bogus': 0.3,
  'sighting-stale': 0.3,
} as const
/** The chance a Reader reports a tracked release shortly after it comes out. */
const SIGHTING_OF_RELEASE = 0.12
const DISTURBANCE_RATES = { 'clock-step': 0.3, 'machine-sleep': 0.25, outage: 0.1, 'challenge-episode': 0.07 } as const

/** One thing on the agenda, due at `at` (monotonic): something the world does, or the owner or a Reader. */
export type Item =
  | { at: number; kind: 'release'; series: SimSeries; chapter: SimChapter }
  | { at: number; kind: 'sighting'; flavour: 'real' | 'bogus' | 'stale'; series?: SimSeries; chapter?: number }
  | { at: number; kind: 'pause'; site: string; duration: PauseDuration; resumeAfter: number | null }
  | { at: number; kind: 'resume'; site: string }
  | { at: number; kind: 'finish' | 'unfinish' | 'bookmark' | 'bookmark-second' }
  | { at: number; kind: 'check-now'; site?: string; finished?: boolean }
  | { at: number; kind: 'bookmark-burst'; site?: string; count?: number; reader?: number; flood?: boolean }
  | { at: number; kind: 'clock-step'; stepMs: number }
  | { at: number; kind: 'machine-sleep' | 'machine-wake' }
  | { at: number; kind: 'database-locked'; forMs: number }
  /** A Reader (by their place among the Readers) reads a few of their Series and records Progress. */
  | { at: number; kind: 'read'; reader: number }

/**
 * One step of a scripted scenario, `at` ms after the start; a Site is given by its index in the run's
 * Sites. Scenarios add to the seeded agenda (run them with `faults: 'none', actions: 'none'` for a minimal
 * reproduction).
 */
export type ScenarioStep =
  | { at: number; do: 'clock-step'; stepMs: number }
  | { at: number; do: 'machine-sleep'; forMs: number }
  | { at: number; do: 'pause'; site: number; duration: PauseDuration }
  | { at: number; do: 'resume'; site: number }
  /** Check now on a Series of the Site a Reader holds. */
  | { at: number; do: 'check-now'; site: number }
  /** A Reader (`reader`: its index among the Readers; else any) bookmarks `count` new Series of the Site at once. */
  | { at: number; do: 'bookmark-burst'; site: number; count: number; reader?: number }
  /** Another process holds the database's lock: every store query fails for `forMs`. */
  | { at: number; do: 'database-locked'; forMs: number }

/** The items of one kind. */
export type ItemOf<K extends Item['kind']> = Extract<Item, { kind: K }>

export interface Household {
  /** Readers holding each Series. */
  held: Map<string, Set<number>>
  finished: Set<string>
  /** Series the app has a row for (held now or once). */
  known: Set<string>
}

function poisson(rng: Random, perDay: number, from: number, to: number): number[] {
  const out: number[] = []
  if (perDay <= 0) return out
  for (let t = from + rng.exponential(DAY / perDay); t < to; t += rng.exponential(DAY / perDay)) out.push(Math.round(t))
  return out
}

export function makeEpisodes(rng: Random, world: World, faults: Level): FaultEpisode[] {
  const scale = FAULT_SCALE[faults]
  const episodes: FaultEpisode[] = []
  for (const { site } of world.sites) {
    for (const at of poisson(rng, DISTURBANCE_RATES.outage * scale, world.start, world.end))
      episodes.push({ site: site.key, from: at, to: at + rng.between(10 * 60_000, 2 * HOUR), fault: rng.chance(0.7) ? '5xx' : 'timeout' })
    for (const at of poisson(rng, DISTURBANCE_RATES['challenge-episode'] * scale, world.start, world.end))
      episodes.push({ site: site.key, from: at, to: at + rng.between(30 * 60_000, 6 * HOUR), fault: 'challenge' })
  }
  return episodes
}

export function makeAgenda(rng: Random, world: World, faults: Level, actions: Level, household: Household): Item[] {
  const { start, end } = world
  const items: Item[] = []
  for (const series of world.series) {
    for (const chapter of series.chapters) {
      if (chapter.at < start || chapter.at >= end) continue
      items.push({ at: chapter.at, kind: 'release', series, chapter })
      // A Reader reading on the Site reports what they saw, often before the app has checked.
      if (ACTION_SCALE[actions] && household.held.get(series.key)?.size && rng.chance(SIGHTING_OF_RELEASE))
        items.push({
          at: chapter.at + Math.round(rng.between(60_000, 45 * 60_000)),
          kind: 'sighting',
          flavour: 'real',
          series,
          chapter: chapter.number,
        })
    }
  }
  const a = ACTION_SCALE[actions]
  for (const kind of ['check-now', 'finish', 'unfinish', 'bookmark', 'bookmark-burst', 'bookmark-second'] as const)
    for (const at of poisson(rng, ACTION_RATES[kind] * a, start, end)) items.push({ at, kind })
  for (const at of poisson(rng, ACTION_RATES['sighting-bogus'] * a, start, end)) items.push({ at, kind: 'sighting', flavour: 'bogus' })
  for (const at of poisson(rng, ACTION_RATES['sighting-stale'] * a, start, end)) items.push({ at, kind: 'sighting', flavour: 'stale' })
  for (const at of poisson(rng, ACTION_RATES.pause * a, start, end)) {
    const duration = rng.weighted<PauseDuration>([
      ['1h', 70],
      ['6h', 25],
      ['24h', 5],
    ])
    // Half the time the owner resumes before the pause runs out.
    const resumeAfter = rng.chance(0.5) ? Math.round(rng.between(5 * 60_000, PAUSE_DURATIONS[duration])) : null
    items.push({ at, kind: 'pause', site: rng.pick(world.sites).site.key, duration, resumeAfter })
  }
  const f = FAULT_SCALE[faults]
  for (const at of poisson(rng, DISTURBANCE_RATES['clock-step'] * f, start, end))
    items.push({ at, kind: 'clock-step', stepMs: (rng.chance(0.5) ? -1 : 1) * rng.int(1, 6) * HOUR })
  let awakeFrom = start
  for (const at of poisson(rng, DISTURBANCE_RATES['machine-sleep'] * f, start, end)) {
    if (at < awakeFrom) continue
    const wake = Math.round(at + rng.between(HOUR, 8 * HOUR))
    items.push({ at, kind: 'machine-sleep' }, { at: wake, kind: 'machine-wake' })
    awakeFrom = wake + HOUR
  }
  return items.sort((x, y) => x.at - y.at)
}

/** The agenda items of one scenario step. */
export function scenarioItems(step: ScenarioStep, world: World): Item[] {
  const at = world.start + step.at
  const site = (index: number) => {
    const found = world.sites[index]
    if (!found) throw new Error(`simulation: scenario step at ${step.at} ms names Site ${index}; there are ${world.sites.length}`)
    return found.site.key
  }
  switch (step.do) {
    case 'clock-step':
      return [{ at, kind: 'clock-step', stepMs: step.stepMs }]
    case 'machine-sleep':
      return [
        { at, kind: 'machine-sleep' },
        { at: at + step.forMs, kind: 'machine-wake' },
      ]
    case 'pause':
      return [{ at, kind: 'pause', site: site(step.site), duration: step.duration, resumeAfter: null }]
    case 'resume':
      return [{ at, kind: 'resume', site: site(step.site) }]
    case 'check-now':
      return [{ at, kind: 'check-now', site: site(step.site) }]
    case 'bookmark-burst':
      return [
        {
          at,
          kind: 'bookmark-burst',
          site: site(step.site),
          count: step.count,
          reader: step.reader,
        },
      ]
    case 'database-locked':
      return [{ at, kind: 'database-locked', forMs: step.forMs }]
  }
}

/**
 * The moments a plain run must meet (each from its own stream, so a 3-day run of default options meets every one):
 * a Reader bookmarking new Series while their Site is paused, a Pause pressed while a Lane waits its turn, and
 * Check now on a Finished Series and on a paused Site's. Within the first day, while new Series are left to bookmark.
 */
export function scenarioMoments(rng: Random, world: World, household: Household): Item[] {
  const items: Item[] = []
  const t = (from: number, to: number) => Math.round(world.start + rng.between(from * HOUR, to * HOUR))
  // The Site with the most Series left to bookmark, early, before the agenda's own bookmarks take them.
  const freshOf = (key: string) => world.series.filter((s) => s.site === key && !s.flood && !household.known.has(s.key)).length
  const site = [...world.sites].sort((a, b) => freshOf(b.site.key) - freshOf(a.site.key))[0]!.site.key
  const pausedAt = t(1, 3)
  items.push(
    { at: pausedAt, kind: 'pause', site, duration: '1h', resumeAfter: null },
    { at: pausedAt + Math.round(rng.between(5, 20) * 60_000), kind: 'bookmark-burst', site, count: 2 },
    { at: pausedAt + Math.round(rng.between(25, 50) * 60_000), kind: 'check-now', site },
  )
  // Check now wakes the busiest Site's Lane, which then waits its gap: a Pause pressed a second later lands in the wait.
  const busiest = world.sites[0]!.site.key
  for (const at of [t(6, 30), t(36, 60)])
    items.push(
      { at, kind: 'check-now', site: busiest },
      { at: at + 1_000, kind: 'pause', site: busiest, duration: '1h', resumeAfter: 20 * 60_000 },
    )
  items.push(...twoAtOnce(world, household))
  items.push({ at: t(4, 40), kind: 'check-now', finished: true }, { at: t(44, 70), kind: 'check-now', finished: true })
  items.push(...flood(rng, world))
  return items
}

/** Hours into the run a flood comes, when the run is long enough to see it out (FLOOD_SERIES). */
export const FLOOD_WINDOW_HOURS = [48, 56] as const

/**
 * One Reader bookmarking the world's flood Series at once (an import of a whole list), past what a rest of their
 * Site holds: the fair share (docs/adr/0081) has to keep the other Readers' turns, and each pass finds several of
 * the flood's New Chapters for one Reader (one digest, not one message each).
 */
function flood(rng: Random, world: World): Item[] {
  const count = world.series.filter((s) => s.flood).length
  const at = Math.round(world.start + rng.between(FLOOD_WINDOW_HOURS[0] * HOUR, FLOOD_WINDOW_HOURS[1] * HOUR))
  if (count === 0 || at >= world.end) return []
  // The first Reader, told of every New Chapter (minUnread 1): a new bookmark starts caught up, so a Reader who
  // waits for two unread hears of a flood's Series only at their second New Chapter.
  return [{ at, kind: 'bookmark-burst', site: floodSite(world.sites).site.key, count, reader: 0, flood: true }]
}

/**
 * The machine asleep over two releases of one Site on Series one Reader holds (the first such pair of the run, at
 * most 8 h apart): on waking, one pass finds both, and the Reader's digest names two Series.
 */
function twoAtOnce(world: World, household: Household): Item[] {
  const releases = world.series
    .filter((s) => household.held.get(s.key)?.size && !household.finished.has(s.key))
    .flatMap((s) => s.chapters.filter((c) => c.at > world.start + HOUR && c.at < world.end - 2 * HOUR).map((c) => ({ s, at: c.at })))
    .sort((a, b) => a.at - b.at)
  for (const [i, a] of releases.entries())
    for (const b of releases.slice(i + 1)) {
      if (b.at - a.at > 8 * HOUR) break
      const together =
        b.s.site === a.s.site && b.s !== a.s && [...household.held.get(a.s.key)!].some((r) => household.held.get(b.s.key)!.has(r))
      if (together)
        return [
          { at: a.at - 10 * 60_000, kind: 'machine-sleep' },
          { at: b.at + 10 * 60_000, kind: 'machine-wake' },
        ]
    }
  return []
}

/** How often each Reader sits down to read (mean hours between), by their place among the Readers. */
const READING_EVERY_HOURS = [6, 20, 3, 40]

/** Each Reader's reading sessions over the run, from a stream of their own. */
export function readingItems(rng: Random, world: World, readers: number): Item[] {
  const items: Item[] = []
  for (let reader = 0; reader < readers; reader++) {
    const every = READING_EVERY_HOURS[reader % READING_EVERY_HOURS.length]! * HOUR
    for (const at of poisson(rng, DAY / every, world.start, world.end)) items.push({ at, kind: 'read', reader })
  }
  return items
}

export function agendaInsert(agenda: Item[], item: Item): void {
  // The driver is walking the agenda with for…of; inserting after the current position is seen in order.
  let index = agenda.length
  while (index > 0 && agenda[index - 1]!.at > item.at) index--
  agenda.splice(index, 0, item)
}

/**
 * Bugs planted for the rules that had no plant (issue 39): each caught from outside in a plain 3-day run.
 * Each bug is planted in a plain 3-day `npm run simulate` on the seed that meets it (`plant-bugs.ts`); the
 * plants are split over several files so Vitest runs them on every core. `PLANT_PRINT=1` prints what fired, by day.
 */
import { describe, expect, it, vi } from 'vitest'
import { NO_WALL_TIME_LIMIT, runPlanted, type Bug } from './plant-bugs'
import type { RuleName } from './checker'

vi.mock('../lanes/decisions', (io) => import('./plant-bugs').then((m) => m.decisions(io)))
vi.mock('../store/notify', (io) => import('./plant-bugs').then((m) => m.notifyStore(io)))
vi.mock('../store/chapters', (io) => import('./plant-bugs').then((m) => m.chapters(io)))
vi.mock('../store/due', (io) => import('./plant-bugs').then((m) => m.due(io)))
vi.mock('../sites/html', (io) => import('./plant-bugs').then((m) => m.html(io)))
vi.mock('../store/sightings', (io) => import('./plant-bugs').then((m) => m.sightings(io)))

const PLANTS: ReadonlyArray<readonly [Bug, RuleName, number]> = [
  ['rest-doubled', 'detection-bound', 1],
  ['sighting-lowers-latest', 'latest-never-down', 1],
  ['newest-chapter-not-stored', 'chapters-as-served', 1],
  ['digested-chapters-kept', 'one-message-per-reader-per-pass', 1],
  ['fraction-is-adapter-error', 'error-needs-fault', 1],
  ['gate-not-read-after-wait', 'closed-lane-silent', 1],
  ['paused-lane-sleeps-out-pause', 'proof-of-life', 1],
  ['relabel-not-stored', 'site-edits-as-served', 1],
]

describe('bugs planted for the rules without one, caught from outside', () => {
  it.each(PLANTS)(
    '%s is caught by %s in a plain run, seed %i',
    async (bug, rule, seed) => {
      const { fired } = await runPlanted(bug, seed)
      expect([...fired.keys()]).toContain(rule)
    },
    NO_WALL_TIME_LIMIT,
  )
})

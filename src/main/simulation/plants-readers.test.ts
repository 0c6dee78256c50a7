/**
 * Bugs planted in what a Reader is told, caught from the Readers' side (docs/adr/0123).
 * Each bug is planted in a plain 3-day `npm run simulate` on the seed that meets it (`plant-bugs.ts`); the
 * plants are split over several files so Vitest runs them on every core. `PLANT_PRINT=1` prints what fired, by day.
 */
import { describe, expect, it, vi } from 'vitest'
import { NO_WALL_TIME_LIMIT, runPlanted, type Bug } from './plant-bugs'
import type { RuleName } from './checker'

vi.mock('../lanes/decisions', (io) => import('./plant-bugs').then((m) => m.decisions(io)))
vi.mock('../lanes/pacer', (io) => import('./plant-bugs').then((m) => m.pacer(io)))
vi.mock('../store/series', (io) => import('./plant-bugs').then((m) => m.seriesStore(io)))
vi.mock('../store/notify', (io) => import('./plant-bugs').then((m) => m.notifyStore(io)))
vi.mock('../store/chapters', (io) => import('./plant-bugs').then((m) => m.chapters(io)))
vi.mock('../store/due', (io) => import('./plant-bugs').then((m) => m.due(io)))
vi.mock('../notify/digest', (io) => import('./plant-bugs').then((m) => m.digest(io)))
vi.mock('../use-cases/acquire', (io) => import('./plant-bugs').then((m) => m.acquire(io)))
vi.mock('../sites/html', (io) => import('./plant-bugs').then((m) => m.html(io)))
vi.mock('../store/passes', (io) => import('./plant-bugs').then((m) => m.passes(io)))

const PLANTS: ReadonlyArray<readonly [Bug, RuleName, number]> = [
  ['message-per-chapter', 'one-digest-per-reader-per-pass', 3],
  ['quiet-hours-ignored', 'quiet-hours-kept', 1],
  ['outbox-row-deleted-before-delivery', 'delivered-at-least-once', 1],
  ['unread-off-by-one', 'unread-as-served', 1],
]

describe("bugs planted in the Readers' side, caught from outside", () => {
  it.each(PLANTS)(
    '%s is caught by %s in a plain run, seed %i',
    async (bug, rule, seed) => {
      const { fired } = await runPlanted(bug, seed)
      expect([...fired.keys()]).toContain(rule)
    },
    NO_WALL_TIME_LIMIT,
  )
})

/**
 * Bugs planted in title search and covers, caught from the Sites' side (docs/adr/0185-the-simulation-searches-and-moves.md):
 * a search that takes its turn without the Site's spacing, and a cover the app forgets it fetched. Each in a plain
 * 3-day `npm run simulate` (plant-bugs.ts's `plainRun`); the wrappers live here, so the production code carries no
 * trace of them. `PLANT_PRINT=1` prints what fired.
 */
import { describe, expect, it, vi } from 'vitest'
import type * as Pacer from '../lanes/pacer'
import type * as Covers from '../store/covers'
import { NO_WALL_TIME_LIMIT, plainRun } from './plant-bugs'
import type { RuleName } from './checker'

const planted = { bug: '' as '' | 'search-skips-gap' | 'cover-forgotten' }

// A search's turn asks for no spacing (told apart by its frames: the search's own module asks).
vi.mock('../lanes/pacer', async (importOriginal) => {
  const real = await importOriginal<typeof Pacer>()
  class PlantedPacer extends real.SitePacer {
    override turn(site: string, spacingMs: number, signal?: AbortSignal) {
      const fromSearch = planted.bug === 'search-skips-gap' && /search-site/.test(new Error().stack ?? '')
      return super.turn(site, fromSearch ? 0 : spacingMs, signal)
    }
  }
  return { ...real, SitePacer: PlantedPacer }
})

// The cover kept is never read back: every check's cover URL is wanted again.
vi.mock('../store/covers', async (importOriginal) => {
  const real = await importOriginal<typeof Covers>()
  class PlantedCovers extends real.CoverStore {
    override record(key: Covers.CoverKey) {
      return planted.bug === 'cover-forgotten' ? undefined : super.record(key)
    }
  }
  return { ...real, CoverStore: PlantedCovers }
})

const PLANTS: ReadonlyArray<readonly [typeof planted.bug, RuleName, number]> = [
  ['search-skips-gap', 'min-gap', 1],
  ['cover-forgotten', 'cover-once', 1],
]

describe('bugs planted in search and covers, caught from outside', () => {
  it.each(PLANTS)(
    '%s is caught by %s in a plain run, seed %i',
    async (bug, rule, seed) => {
      const { simulate } = await import('./simulate')
      planted.bug = bug
      try {
        const report = await simulate(plainRun(seed))
        const fired = new Set(report.invariantViolations.map((v) => v.rule))
        if (process.env.PLANT_PRINT) console.warn(`plant ${bug} seed ${seed}: ${[...fired].join(', ') || 'nothing fired'}`)
        expect([...fired]).toContain(rule)
      } finally {
        planted.bug = ''
      }
    },
    NO_WALL_TIME_LIMIT,
  )
})

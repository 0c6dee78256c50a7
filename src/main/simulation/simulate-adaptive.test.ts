/**
 * The adaptive cadence under the simulation (docs/freshness.md): the same world as a fixed run, the invariants
 * (cadence-aware: never sooner than half a rest unless forced, found within the ceiling) hold, and it sends
 * fewer requests for the same chapters.
 */
import { describe, expect, it, vi } from 'vitest'
import { simulate, type SimulationOptions } from './simulate'
import type { SimulationReport } from './report'

// The simulation's tests assert what a run finds, never how long it took on a shared machine: no timeout (0 is none).
vi.setConfig({ testTimeout: 0 })

describe('an adaptive household', () => {
  const options: SimulationOptions = { days: 4, series: 24, sites: 4, seed: 7, faults: 'some', actions: 'some' }
  let fixed: SimulationReport
  let adaptive: SimulationReport

  it('runs with no violation and no unexplained error, and the same chapters are published as under fixed', async () => {
    fixed = await simulate({ ...options, cadence: 'fixed' })
    adaptive = await simulate({ ...options, cadence: 'adaptive' })
    expect(adaptive.invariantViolations).toEqual([])
    expect(adaptive.unexplainedErrors).toEqual([])
    expect(adaptive.series.map((s) => s.releases)).toEqual(fixed.series.map((s) => s.releases))
    expect(adaptive.chaptersDetected).toBeGreaterThan(0)
  })

  it('sends fewer requests than fixed for the same world', () => {
    expect(adaptive.requests.byCaller.lane).toBeLessThan(fixed.requests.byCaller.lane)
  })
})

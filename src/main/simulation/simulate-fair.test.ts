/**
 * One Reader floods one Site with bookmarks (docs/adr/0081-one-reader-bounded.md): the other Readers' Series are
 * still checked within a rest of their turn (the fair-share invariant), while the flood is read after them.
 */
import { describe, expect, it } from 'vitest'
import type { SimEvent } from './events'
import { simulate } from './simulate'

const MIN = 60_000

describe('a Reader floods a Site', () => {
  it("the other Readers' Series keep their turn: the fair-share invariant holds, and the flood is read", async () => {
    let events: readonly SimEvent[] = []
    const report = await simulate({
      days: 1.5 / 24,
      sites: 1,
      series: 530,
      // The household holds a few Series; the flood is the rest, five times what a rest holds at this pace (100).
      held: 0.06,
      pace: { restMs: 10 * MIN, minGapMs: 6_000 },
      seed: 29,
      faults: 'none',
      actions: 'none',
      scenario: [{ at: 15 * MIN, do: 'bookmark-burst', site: 0, count: 530, reader: 0 }],
      onEvents: (all) => (events = all),
    })
    const flood = events.filter((e) => e.type === 'action' && e.action === 'bookmark' && e.result === 'ok').length
    expect(flood).toBeGreaterThan(300)
    expect(report.invariantViolations).toEqual([])
    expect(report.violationsByRule['fair-share']).toBe(0)
    expect(Object.entries(report.violationsByRule).filter(([, n]) => n > 0)).toEqual([])
  })
})

/**
 * The browser's wake thresholds read the same for both cadences (issue 24): "the oldest due Series waited
 * wakeOldestMs" counts from when it came due — a fixed Series' rest running out, an adaptive Series' plan — so a
 * Series planned hours after its check does not wake a sleeping browser alone the moment its plan comes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_PACE } from '../sites/site'
import { dueFigures } from '../store/due'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { wakeDue } from './decisions'

const HOUR = 3_600_000
const NOW = 1_000 * HOUR
const pace = { ...DEFAULT_PACE, restMs: HOUR, wakeOldestMs: 3 * HOUR, wakeDueCount: 20 }
const cutoffs = { restCutoff: NOW - pace.restMs, ceilingCutoff: NOW - pace.ceilingMs }

let store: TestStore
let alice: number
beforeEach(async () => {
  store = openTestStore()
  alice = await seedReader(store.db, 'alice')
})
afterEach(() => store.dispose())

describe('the wake threshold of an adaptive Site', () => {
  it('a Series planned 4 h after its check, due now, leaves the browser asleep — as a fixed Series due now does', async () => {
    await seedSeries(store.db, { id: 'x', checkedAt: NOW - 4 * HOUR, readers: [alice] })
    await store.db.updateTable('series').set({ next_check_at: NOW }).execute()
    const adaptive = await dueFigures(store.db, 'a', { ...cutoffs, plannedBy: NOW })
    expect(adaptive.due).toBe(1)
    expect(wakeDue(pace, adaptive, NOW)).toBe(false)
    // Its fixed twin: due since its rest ran out a moment ago.
    await store.db
      .updateTable('series')
      .set({ latest_checked_at: NOW - pace.restMs, next_check_at: 0 })
      .execute()
    expect(wakeDue(pace, await dueFigures(store.db, 'a', cutoffs), NOW)).toBe(false)
  })

  it('the same Series wakes the browser once it has waited the threshold past its plan', async () => {
    await seedSeries(store.db, { id: 'x', checkedAt: NOW - 8 * HOUR, readers: [alice] })
    // Planned 2 h ago: it has waited as long as a fixed Series checked 3 h ago (rest 1 h, then 2 h overdue).
    await store.db
      .updateTable('series')
      .set({ next_check_at: NOW - 2 * HOUR })
      .execute()
    const figures = await dueFigures(store.db, 'a', { ...cutoffs, plannedBy: NOW })
    expect(figures.oldestCheckedAt).toBe(NOW - 3 * HOUR)
    expect(wakeDue(pace, figures, NOW)).toBe(true)
    expect(wakeDue(pace, figures, NOW - 1)).toBe(false)
  })

  it('a Series with no plan yet counts from its check stamp, as before', async () => {
    await seedSeries(store.db, { id: 'x', checkedAt: NOW - 3 * HOUR, readers: [alice] })
    const figures = await dueFigures(store.db, 'a', { ...cutoffs, plannedBy: NOW })
    expect(figures.oldestCheckedAt).toBe(NOW - 3 * HOUR)
    expect(wakeDue(pace, figures, NOW)).toBe(true)
  })
})

/**
 * The stamps of a Site's Series when the wall clock was set forward (docs/adr/0238-a-wall-clock-set-forward-told-by-the-sites-clock.md): a
 * real SQLite file.
 */
import { describe, expect, it } from '../testing/fixtures'
import { seedReader, seedSeries, type TestStore } from '../testing/store'
import { stampsSteppedForward } from './feed-plans'

const HOUR = 3_600_000
const stamps = async (store: TestStore) =>
  Object.fromEntries(
    (await store.db.selectFrom('series').select(['series_id', 'latest_checked_at', 'force_poll_at']).orderBy('series_id').execute()).map(
      (r) => [r.series_id, { checked: r.latest_checked_at, forced: r.force_poll_at }],
    ),
  )

describe('stamps on a wall clock set forward', () => {
  it('move forward by the step when written on the old clock; those written on the new one stay', async ({ store }) => {
    const alice = await seedReader(store.db, 'alice')
    const before = 100 * HOUR
    await seedSeries(store.db, { id: 'old', checkedAt: before - 20 * HOUR, readers: [alice] })
    await seedSeries(store.db, { id: 'new', checkedAt: before + 5 * HOUR, readers: [alice] })
    await seedSeries(store.db, { id: 'never', checkedAt: 0, readers: [alice] })
    expect(await stampsSteppedForward(store.db, 'a', 6 * HOUR, before)).toBe(1)
    const after = await stamps(store)
    expect([after.old!.checked, after.new!.checked, after.never!.checked]).toEqual([before - 14 * HOUR, before + 5 * HOUR, 0])
  })

  it('a pending Check now stays pending, a press on the new clock keeps its time, a served one stays served', async ({ store }) => {
    const alice = await seedReader(store.db, 'alice')
    const before = 100 * HOUR
    await seedSeries(store.db, { id: 'pressed', checkedAt: before - 2 * HOUR, forcedAt: before - HOUR, readers: [alice] })
    await seedSeries(store.db, { id: 'late', checkedAt: before - 2 * HOUR, forcedAt: before + HOUR, readers: [alice] })
    await seedSeries(store.db, { id: 'served', checkedAt: before - HOUR, forcedAt: before - 2 * HOUR, readers: [alice] })
    await stampsSteppedForward(store.db, 'a', 6 * HOUR, before)
    const after = await stamps(store)
    expect(after.pressed).toEqual({ checked: before + 4 * HOUR, forced: before + 5 * HOUR })
    expect(after.late!.forced).toBeGreaterThan(after.late!.checked)
    expect(after.served!.forced).toBeLessThanOrEqual(after.served!.checked)
  })
})

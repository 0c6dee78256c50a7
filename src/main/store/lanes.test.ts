import { describe, expect, it } from '../testing/fixtures'
import type { TestStore } from '../testing/store'
import { LONGEST_PAUSE_MS } from '../../shared/domain'
import { allLanes, boundLaneTimes, ensureLane, laneRow, pauseLane, recordRefusal, refusalLengthOf } from './lanes'

const MIN = 60_000
const HOUR = 60 * MIN
const NOW = 1_700_000_000_000
const BACKOFF = 15 * MIN

describe('Lane rows', () => {
  it('ensureLane adds a row of zeros once, and keeps a pause already there', async ({ store }) => {
    await ensureLane(store.db, 'b')
    await pauseLane(store.db, 'a', NOW + HOUR, NOW)
    await ensureLane(store.db, 'a')
    expect(await allLanes(store.db)).toEqual([
      { site: 'a', paused_until: NOW + HOUR, refuse_until: 0, refuse_ms: 0 },
      { site: 'b', paused_until: 0, refuse_until: 0, refuse_ms: 0 },
    ])
  })

  it('a pause not in the future is invalid, and says which Lane and why', async ({ store }) => {
    await expect(pauseLane(store.db, 'a', NOW, NOW)).rejects.toMatchObject({
      code: 'invalid',
      message: `pause of "a" must end in the future (until=${NOW}, now=${NOW})`,
    })
  })

  it('a refusal keeps its own length; a second one replaces the first', async ({ store }) => {
    await recordRefusal(store.db, 'a', NOW + 2 * HOUR, 2 * HOUR)
    await recordRefusal(store.db, 'a', NOW + BACKOFF)
    expect(await laneRow(store.db, 'a')).toEqual({ site: 'a', paused_until: 0, refuse_until: NOW + BACKOFF, refuse_ms: 0 })
  })
})

describe("a refusal's length", () => {
  it('its own when it was recorded with one, else the backoff', () => {
    expect(refusalLengthOf({ refuse_ms: 2 * HOUR }, BACKOFF)).toBe(2 * HOUR)
    expect(refusalLengthOf({ refuse_ms: 0 }, BACKOFF)).toBe(BACKOFF)
  })
})

describe('a pause and a refusal never last longer from now than the app set them (a wall clock set back)', () => {
  const lane = (paused_until: number, refuse_until: number, refuse_ms = 0) => ({ site: 'a', paused_until, refuse_until, refuse_ms })
  const bound = async (store: TestStore, row: ReturnType<typeof lane>) => {
    await store.db.insertInto('poll_lanes').values(row).execute()
    return { changed: await boundLaneTimes(store.db, row, NOW, BACKOFF), stored: await laneRow(store.db, 'a') }
  }

  it('times within their lengths are left as they are', async ({ store }) => {
    const row = lane(NOW + HOUR, NOW + 10 * MIN)
    expect(await bound(store, row)).toEqual({ changed: undefined, stored: row })
  })

  it('exactly the longest pause and exactly the backoff are within them', async ({ store }) => {
    const row = lane(NOW + LONGEST_PAUSE_MS, NOW + BACKOFF)
    expect(await bound(store, row)).toEqual({ changed: undefined, stored: row })
  })

  it('a refusal recorded with a long Retry-After is bounded by its own length, not the backoff', async ({ store }) => {
    const row = lane(0, NOW + 2 * HOUR, 2 * HOUR)
    expect(await bound(store, row)).toEqual({ changed: undefined, stored: row })
  })

  it('a refusal past its length is brought back to now + its length; the pause is kept', async ({ store }) => {
    const { changed, stored } = await bound(store, lane(NOW + HOUR, NOW + 10 * HOUR))
    expect(changed).toEqual({ site: 'a', paused_until: NOW + HOUR, refuse_until: NOW + BACKOFF, refuse_ms: 0 })
    expect(stored).toEqual(changed)
  })

  it('a pause past the longest pause is brought back to now + the longest pause; the refusal is kept', async ({ store }) => {
    const { changed, stored } = await bound(store, lane(NOW + LONGEST_PAUSE_MS + 1, NOW + MIN))
    expect(changed).toEqual({ site: 'a', paused_until: NOW + LONGEST_PAUSE_MS, refuse_until: NOW + MIN, refuse_ms: 0 })
    expect(stored).toEqual(changed)
  })
})

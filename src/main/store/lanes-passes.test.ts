import { describe, expect, it } from '../testing/fixtures'
import { laneRow, pauseLane, pausedLanes, recordRefusal, resumeLane } from './lanes'
import { carryForward, insertPass, latestPass, latestPassPerSite, prunePasses, type PassFigures } from './passes'

const pass = (over: Partial<PassFigures>): PassFigures => ({
  site: 'a',
  started_at: 1,
  ended_at: 2,
  skip: '',
  due: 0,
  gap: 0,
  clamped: 0,
  checked: 0,
  refused: 0,
  unreachable: 0,
  no_chapter: 0,
  unfetchable: 0,
  errors: 0,
  ...over,
})

describe('lanes', () => {
  it('a Site never paused reads as zeros', async ({ store }) => {
    expect(await laneRow(store.db, 'a')).toEqual({ site: 'a', paused_until: 0, refuse_until: 0, refuse_ms: 0 })
  })

  it('pause rejects an until that is not in the future', async ({ store }) => {
    await expect(pauseLane(store.db, 'a', 1000, 1000)).rejects.toThrow(/pause of "a" must end in the future/)
    await expect(pauseLane(store.db, 'a', 999, 1000)).rejects.toThrow(/future/)
    expect(await pausedLanes(store.db, 0)).toEqual([])
  })

  it('resume zeroes paused_until and keeps the row with its refusal', async ({ store }) => {
    await recordRefusal(store.db, 'a', 5000)
    await pauseLane(store.db, 'a', 9000, 1000)
    expect(await pausedLanes(store.db, 1000)).toEqual([{ site: 'a', paused_until: 9000, refuse_until: 5000, refuse_ms: 0 }])
    expect(await resumeLane(store.db, 'a')).toEqual({ site: 'a', paused_until: 0, refuse_until: 5000, refuse_ms: 0 })
    expect(await pausedLanes(store.db, 1000)).toEqual([])
  })

  it('pausedLanes filters by now', async ({ store }) => {
    await pauseLane(store.db, 'a', 2000, 1000)
    expect(await pausedLanes(store.db, 1999)).toHaveLength(1)
    expect(await pausedLanes(store.db, 2000)).toHaveLength(0)
  })
})

describe('passes', () => {
  it('a pass with its own gap keeps its figures', () => {
    const prev = { ...pass({ due: 9, gap: 100, clamped: 1, checked: 7 }), id: 1 }
    expect(carryForward(pass({ due: 3, gap: 50, checked: 2 }), prev)).toMatchObject({ due: 3, gap: 50, checked: 2 })
  })

  it('a pass whose own gap is 0 carries due, gap, clamped and checked forward, and nothing else', async ({ store }) => {
    await insertPass(store.db, pass({ due: 9, gap: 100, clamped: 1, checked: 7, errors: 2 }))
    const skipped = await insertPass(store.db, pass({ skip: 'paused', started_at: 10, ended_at: 11 }))
    expect(skipped).toMatchObject({ skip: 'paused', due: 9, gap: 100, clamped: 1, checked: 7, errors: 0, started_at: 10 })
  })

  it('the first pass of a Site has nothing to carry', async ({ store }) => {
    expect(await insertPass(store.db, pass({ skip: 'asleep' }))).toMatchObject({ due: 0, gap: 0, checked: 0 })
  })

  it('carry-forward reads only the same Site', async ({ store }) => {
    await insertPass(store.db, pass({ site: 'b', due: 9, gap: 100, checked: 7 }))
    expect(await insertPass(store.db, pass({ site: 'a', skip: 'paused' }))).toMatchObject({ due: 0, gap: 0 })
  })

  it('latestPassPerSite returns the newest row of every Site', async ({ store }) => {
    await insertPass(store.db, pass({ site: 'a', due: 1, gap: 1 }))
    await insertPass(store.db, pass({ site: 'a', due: 2, gap: 1 }))
    await insertPass(store.db, pass({ site: 'b', due: 3, gap: 1 }))
    const rows = await latestPassPerSite(store.db)
    expect(rows.map((r) => [r.site, r.due])).toEqual([
      ['a', 2],
      ['b', 3],
    ])
  })

  it("retention prunes rows older than the cut-off but keeps each Site's newest", async ({ store }) => {
    await insertPass(store.db, pass({ site: 'a', ended_at: 100, gap: 1 }))
    await insertPass(store.db, pass({ site: 'a', ended_at: 200, gap: 1 }))
    await insertPass(store.db, pass({ site: 'a', ended_at: 900, gap: 1 }))
    await insertPass(store.db, pass({ site: 'b', ended_at: 150, gap: 1 }))
    // A Lane that has never written a pass must not stop retention.
    await store.db.insertInto('poll_lanes').values({ site: 'quiet' }).execute()
    expect(await prunePasses(store.db, 500)).toBe(2)
    expect((await latestPass(store.db, 'a'))?.ended_at).toBe(900)
    expect((await latestPass(store.db, 'b'))?.ended_at).toBe(150)
    const count = await store.db
      .selectFrom('poll_passes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst()
    expect(count?.n).toBe(2)
  })
})

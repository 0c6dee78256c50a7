/**
 * Pass rows written as a Lane writes them after the store refused some (docs/adr/0045-storage-faults.md): in
 * order, in one transaction, each carrying forward from the row before it; and read back newest first.
 */
import { describe, expect, it } from '../testing/fixtures'
import { insertPass, insertPasses, latestPass, latestPassPerSite, prunePasses, recentPasses, type PassFigures } from './passes'

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

describe('rows written together', () => {
  it('are stored in the order given, each skipped one carrying the figures of the row just before it', async ({ store }) => {
    await insertPass(store.db, pass({ due: 1, gap: 10, checked: 1 }))
    const rows = await insertPasses(store.db, [
      pass({ skip: 'paused', started_at: 10 }),
      pass({ due: 5, gap: 50, clamped: 1, checked: 4, started_at: 20 }),
      pass({ due: 6, gap: 60, checked: 6, started_at: 30 }),
      pass({ skip: 'refusing', started_at: 40 }),
    ])
    expect(rows.map((r) => [r.started_at, r.skip, r.due, r.gap, r.clamped, r.checked])).toEqual([
      [10, 'paused', 1, 10, 0, 1],
      [20, '', 5, 50, 1, 4],
      [30, '', 6, 60, 0, 6],
      [40, 'refusing', 6, 60, 0, 6],
    ])
    expect(await latestPass(store.db, 'a')).toEqual(rows[3])
    expect(rows[0]!.id).toBeLessThan(rows[1]!.id)
  })

  it('none is no write at all', async ({ store }) => {
    expect(await insertPasses(store.db, [])).toEqual([])
    expect(await latestPassPerSite(store.db)).toEqual([])
  })

  it('rows of two Sites are refused, and none of them is written', async ({ store }) => {
    await expect(insertPasses(store.db, [pass({ site: 'a', gap: 1 }), pass({ site: 'b', gap: 1 })])).rejects.toThrow(
      'store: pass rows of one Site at a time (a, b)',
    )
    expect(await recentPasses(store.db, 'a', 10)).toEqual([])
  })
})

describe('reading them back', () => {
  it("a Site's recent rows come newest first, as many as asked, none of another Site's", async ({ store }) => {
    for (let i = 1; i <= 4; i++) await insertPass(store.db, pass({ started_at: i, gap: 1 }))
    await insertPass(store.db, pass({ site: 'b', started_at: 9, gap: 1 }))
    expect((await recentPasses(store.db, 'a', 3)).map((r) => r.started_at)).toEqual([4, 3, 2])
    expect((await latestPass(store.db, 'b'))?.started_at).toBe(9)
  })

  it('retention keeps a row that ended exactly at the cut-off', async ({ store }) => {
    await insertPass(store.db, pass({ ended_at: 100, gap: 1 }))
    await insertPass(store.db, pass({ ended_at: 200, gap: 1 }))
    await insertPass(store.db, pass({ ended_at: 300, gap: 1 }))
    expect(await prunePasses(store.db, 200)).toBe(1)
    expect((await recentPasses(store.db, 'a', 10)).map((r) => r.ended_at)).toEqual([300, 200])
  })
})

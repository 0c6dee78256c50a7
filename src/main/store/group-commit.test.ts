import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { getBookmark, updateBookmark } from './bookmarks'
import { groupCommit } from './group-commit'

let store: TestStore
let alice: number
beforeEach(async () => {
  store = openTestStore()
  alice = await seedReader(store.db, 'alice')
  for (const id of ['a', 'b', 'c']) await seedSeries(store.db, { id, readers: [alice] })
})
afterEach(() => store.dispose())

describe('group commit', () => {
  it('writes that arrive together share one transaction; each caller gets its own answer', async () => {
    const writes = groupCommit(store.db, (trx, id: string) =>
      updateBookmark(trx, alice, { site: 'a', seriesId: id }, { progress: 5, progressAt: 10 }, 100),
    )
    const results = await Promise.all(['a', 'b', 'c'].map((id) => writes.run(id)))
    expect(results.map((r) => [r.series_id, r.progress])).toEqual([
      ['a', 5],
      ['b', 5],
      ['c', 5],
    ])
    for (const id of ['a', 'b', 'c']) expect((await getBookmark(store.db, alice, { site: 'a', seriesId: id }))?.progress).toBe(5)
  })

  it('a write that fails, fails alone', async () => {
    const writes = groupCommit(store.db, (trx, id: string) =>
      updateBookmark(trx, alice, { site: 'a', seriesId: id }, { progress: 7, progressAt: 10 }, 100),
    )
    const [ok, missing, alsoOk] = await Promise.allSettled(['a', 'nope', 'c'].map((id) => writes.run(id)))
    expect(ok!.status).toBe('fulfilled')
    expect(missing).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/no bookmark a\/nope/) } })
    expect(alsoOk!.status).toBe('fulfilled')
    expect((await getBookmark(store.db, alice, { site: 'a', seriesId: 'c' }))?.progress).toBe(7)
  })

  it('batches concurrent writes: many writes, few transactions', async () => {
    let transactions = 0
    const writes = groupCommit(store.db, (trx, n: number) =>
      updateBookmark(trx, alice, { site: 'a', seriesId: 'a' }, { progress: n, progressAt: n }, 100),
    )
    const spy = store.db.transaction.bind(store.db)
    ;(store.db as { transaction: typeof spy }).transaction = () => {
      transactions++
      return spy()
    }
    await Promise.all(Array.from({ length: 50 }, (_, n) => writes.run(n + 1)))
    expect(transactions).toBe(1)
    expect((await getBookmark(store.db, alice, { site: 'a', seriesId: 'a' }))?.progress).toBe(50)
  })
})

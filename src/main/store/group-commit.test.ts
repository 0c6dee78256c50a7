import { describe, expect, it } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import { getBookmark, updateBookmark } from './bookmarks'
import { groupCommit } from './group-commit'

let alice: number
it.beforeEach(async ({ store }) => {
  alice = await seedReader(store.db, 'alice')
  for (const id of ['a', 'b', 'c']) await seedSeries(store.db, { id, readers: [alice] })
})

describe('group commit', () => {
  it('writes that arrive together share one transaction; each caller gets its own answer', async ({ store }) => {
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

  it('a write that fails, fails alone', async ({ store }) => {
    const writes = groupCommit(store.db, (trx, id: string) =>
      updateBookmark(trx, alice, { site: 'a', seriesId: id }, { progress: 7, progressAt: 10 }, 100),
    )
    const [ok, missing, alsoOk] = await Promise.allSettled(['a', 'nope', 'c'].map((id) => writes.run(id)))
    expect(ok!.status).toBe('fulfilled')
    expect(missing).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/no bookmark a\/nope/) } })
    expect(alsoOk!.status).toBe('fulfilled')
    expect((await getBookmark(store.db, alice, { site: 'a', seriesId: 'c' }))?.progress).toBe(7)
  })

  it('batches concurrent writes: many writes, few transactions', async ({ store }) => {
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

describe('group commit at its bounds', () => {
  it('beyond its batch size, commits in several transactions in arrival order, and takes later writes too', async ({ store }) => {
    const transactions: unknown[] = []
    const writes = groupCommit(
      store.db,
      async (trx, n: number) => {
        transactions.push(trx)
        return updateBookmark(trx, alice, { site: 'a', seriesId: 'a' }, { progress: n, progressAt: n }, 100)
      },
      2,
    )
    await Promise.all([1, 2, 3, 4, 5].map((n) => writes.run(n)))
    expect(new Set(transactions).size).toBe(3)
    expect(transactions[0]).toBe(transactions[1])
    expect(transactions[2]).toBe(transactions[3])
    expect((await getBookmark(store.db, alice, { site: 'a', seriesId: 'a' }))?.progress).toBe(5)
    // A write after the queue ran dry starts a batch of its own.
    expect(await writes.run(6)).toMatchObject({ progress: 6 })
  })

  it('writes that arrive while a batch is being written wait, and share the next transaction', async ({ store }) => {
    const transactions: unknown[] = []
    const arrivedLate: Array<Promise<unknown>> = []
    const tick = () => new Promise((resolve) => setImmediate(resolve))
    const writes = groupCommit(store.db, async (trx, n: number) => {
      transactions.push(trx)
      if (n === 1) {
        // Two requests parsed while this batch is still being written, a moment apart.
        arrivedLate.push(writes.run(2))
        await tick()
        await tick()
        arrivedLate.push(writes.run(3))
      }
      return updateBookmark(trx, alice, { site: 'a', seriesId: 'a' }, { progress: n, progressAt: n }, 100)
    })
    await writes.run(1)
    await Promise.all(arrivedLate)
    expect(new Set(transactions).size).toBe(2)
    expect(transactions[1]).toBe(transactions[2])
    expect((await getBookmark(store.db, alice, { site: 'a', seriesId: 'a' }))?.progress).toBe(3)
  })

  it('a write the storage cannot take fails its whole batch, keeps nothing of it, and the next batch still runs', async ({ store }) => {
    const writes = groupCommit(
      store.db,
      async (trx, id: string) => {
        if (id === 'big') {
          await trx
            .insertInto('readers')
            .values({ name: 'x'.repeat(50_000), token_hash: 'h', created_at: 1 })
            .execute()
          return null
        }
        return updateBookmark(trx, alice, { site: 'a', seriesId: id }, { progress: 9, progressAt: 10 }, 100)
      },
      2,
    )
    // A disk with no free block: SQLite's page limit at the file's size.
    store.sqlite.pragma(`max_page_count = ${Number(store.sqlite.pragma('page_count', { simple: true }))}`)
    const [a, big, c] = await Promise.allSettled([writes.run('a'), writes.run('big'), writes.run('c')])
    expect(a).toMatchObject({ status: 'rejected', reason: { code: 'storage-unavailable' } })
    expect(big).toMatchObject({ status: 'rejected', reason: { code: 'storage-unavailable' } })
    expect(c).toMatchObject({ status: 'fulfilled', value: { progress: 9 } })
    expect((await getBookmark(store.db, alice, { site: 'a', seriesId: 'a' }))?.progress).toBeNull()
  })
})

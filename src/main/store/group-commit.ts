/**
 * Group commit: writes that arrive together are applied in one transaction, so they share one fsync
 * (`synchronous=FULL` makes every commit wait for the disk). Each caller still gets its own result or error,
 * and only after the transaction holding its write has committed.
 */
import type { Db } from './database'
import { isStorageUnavailable } from './storage'

export interface GroupCommit<T, R> {
  run(item: T): Promise<R>
}

/**
 * `apply(trx, item)` runs one write inside the shared transaction. A write that throws fails alone: its
 * caller gets the error, the others commit (an error here must not have changed anything, as the store's
 * not-found and invalid errors do not). A write the storage cannot take (a full disk, a read-only file) fails
 * the whole batch: SQLite has ended the transaction, so nothing after it may run as if inside it.
 */
export function groupCommit<T, R>(db: Db, apply: (trx: Db, item: T) => Promise<R>, maxBatch = 256): GroupCommit<T, R> {
  let queue: Array<{ item: T; resolve(r: R): void; reject(e: unknown): void }> = []
  let scheduled = false

  async function drain(): Promise<void> {
    while (queue.length) {
      const batch = queue.slice(0, maxBatch)
      queue = queue.slice(batch.length)
      const outcomes: Array<{ ok: true; value: R } | { ok: false; error: unknown }> = []
      try {
        await db.transaction().execute(async (trx) => {
          for (const { item } of batch) {
            try {
              outcomes.push({ ok: true, value: await apply(trx, item) })
            } catch (error) {
              if (isStorageUnavailable(error)) throw error
              outcomes.push({ ok: false, error })
            }
          }
        })
      } catch (error) {
        // The commit itself failed: nothing of this batch was written.
        for (const waiter of batch) waiter.reject(error)
        continue
      }
      batch.forEach((waiter, i) => {
        const outcome = outcomes[i]!
        if (outcome.ok) waiter.resolve(outcome.value)
        else waiter.reject(outcome.error)
      })
    }
    scheduled = false
  }

  return {
    run(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject })
        if (!scheduled) {
          scheduled = true
          // Let the writes of requests already parsed join this batch.
          setImmediate(() => void drain())
        }
      })
    },
  }
}

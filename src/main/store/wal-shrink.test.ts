/**
 * The WAL is shrunk (docs/reliability.md): a burst grows it, and once a checkpoint resets it it is cut back to
 * `WAL_LIMIT_BYTES` instead of keeping its largest size; on a full disk the storage watch checkpoints it whole and
 * truncates it, so the space it held comes back and writes resume without the owner freeing any.
 */
import { statSync, truncateSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { describe, expect, it } from '../testing/fixtures'
import { mountSmallTmpfs, type SmallTmpfs } from '../testing/faults'
import { openStore, STORE_FILE, WAL_LIMIT_BYTES, type Store } from './database'

const walBytes = (file: string) => statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0

/**
 * Writes `rows` settings, then rewrites them in place `times` times more, each round its own commit: many WAL
 * frames of the same few pages (a value of the same length never needs a new page).
 */
function churn(store: Store, rows: number, times: number): void {
  const put = store.sqlite.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)')
  const rewrite = store.sqlite.prepare('UPDATE settings SET value = ? WHERE key = ?')
  for (let t = 0; t <= times; t++)
    store.sqlite.transaction(() => {
      for (let i = 0; i < rows; i++) {
        const value = JSON.stringify(`${t % 10}`.repeat(900))
        if (put.run(`churn-${i}`, value).changes === 0) rewrite.run(value, `churn-${i}`)
      }
    })()
}

const tmpfs = mountSmallTmpfs(6 * 1024 * 1024)
const mounted = 'dir' in tmpfs ? (tmpfs as SmallTmpfs) : null
afterAll(() => mounted?.unmount())

describe('the WAL', () => {
  it('is cut back to its limit once a checkpoint resets it, after a burst grew it past it', async ({ dataDir }) => {
    const file = join(dataDir, STORE_FILE)
    const store = openStore(file, { now: 1 })
    // One transaction of ~12 MB: the WAL cannot be reset while it is written.
    store.sqlite.pragma('wal_autocheckpoint = 0')
    churn(store, 12_000, 0)
    expect(walBytes(file)).toBeGreaterThan(3 * WAL_LIMIT_BYTES)
    store.sqlite.pragma('wal_autocheckpoint = 1000')
    store.sqlite.pragma('wal_checkpoint(PASSIVE)')
    churn(store, 1, 1)
    expect(walBytes(file)).toBeLessThanOrEqual(WAL_LIMIT_BYTES)
    await store.close()
  })

  it.skipIf(!mounted)('on a full disk, is checkpointed and truncated by the watch, and writes resume alone', async () => {
    const file = join(mounted!.dir, `wal-${Date.now()}`, STORE_FILE)
    const store = openStore(file, { now: 1 })
    // The rows are in the database's own pages; the WAL then holds many versions of them.
    churn(store, 200, 0)
    store.sqlite.pragma('wal_checkpoint(TRUNCATE)')
    store.sqlite.pragma('wal_autocheckpoint = 0')
    churn(store, 200, 12)
    const grown = walBytes(file)
    expect(grown).toBeGreaterThan(1024 * 1024)
    // Nearly full: a quarter of a megabyte left, less than the write below needs in the WAL.
    mounted!.fill()
    const filler = join(mounted!.dir, 'filler')
    truncateSync(filler, statSync(filler).size - 256 * 1024)
    try {
      const write = () =>
        store.db
          .insertInto('settings')
          .values({ key: 'after', value: JSON.stringify('y'.repeat(1_000_000)) })
          .execute()
      await expect(write()).rejects.toMatchObject({ code: 'storage-unavailable' })
      expect(store.health.fault()?.kind).toBe('full')
      store.health.check()
      expect(walBytes(file)).toBe(0)
      await write()
      expect(store.health.fault()).toBeNull()
    } finally {
      await store.close()
      mounted!.free()
    }
  })
})

/**
 * A database that opens but has a damaged page (docs/adr/0046-the-file-the-app-opened.md): the quick integrity
 * check at start notices it, the app takes no more writes into it (503 `storage-unavailable`), and the Overview
 * says what to do — restore a backup, naming the newest.
 */
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { startApp } from './app'
import { startCore } from './core'
import { silentLog } from './log'
import { BACKUP_DIR, backupDatabase } from './store/backups'
import { openStore, STORE_FILE } from './store/database'
import { FakeClock } from './testing/clock'
import { corruptMiddlePage } from './testing/faults'
import { seedReader, seedSeries, tempDir } from './testing/store'
import { fixtureSites } from './demo/fixture-sites'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A data directory with 3,000 bookmarked Series, a backup of it, and then a page in the middle damaged. */
async function damagedDataDir(): Promise<{ dir: string; file: string; backup: string }> {
  const temp = tempDir('mb-damaged-')
  cleanups.push(() => temp.remove())
  const file = join(temp.dir, STORE_FILE)
  const store = openStore(file, { now: 1 })
  const reader = await seedReader(store.db, 'aiko')
  // One transaction: 3,000 commits, each synced, take half a minute on a busy machine.
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 3_000; i++) await seedSeries(trx, { site: 'fixture-madara', id: `series-${i}`, readers: [reader] })
  })
  const backup = await backupDatabase(store.sqlite, join(temp.dir, BACKUP_DIR), Date.UTC(2026, 0, 1))
  await store.close()
  corruptMiddlePage(file)
  // The fault is real: the file opens and counts its rows, and quick_check finds the damage.
  const probe = new BetterSqlite3(file, { readonly: true })
  expect(probe.prepare('SELECT COUNT(*) AS n FROM readers').get()).toEqual({ n: 1 })
  expect(probe.pragma('quick_check', { simple: true })).not.toBe('ok')
  probe.close()
  return { dir: temp.dir, file, backup: backup.file }
}

describe('a damaged page in a database that opens', () => {
  it('is found at start: writes are refused, reads answer, the Overview says to restore a backup and names the newest', async () => {
    const { dir, file, backup } = await damagedDataDir()
    const app = await startApp({
      shell: 'headless',
      dataDir: dir,
      log: silentLog,
      clock: new FakeClock(),
      port: 0,
      sites: [],
      lanes: false,
    })
    cleanups.push(() => app.stop())
    const problem = app.core.storage.problem()!
    expect(problem.kind).toBe('damaged')
    expect(problem.message).toMatch(
      new RegExp(`^cannot write to ${file}: the database is damaged \\(.+\\); restore the newest good backup`),
    )
    expect(problem.message).toContain(`the newest is ${backup}`)
    // The Overview says what to do. Its counts come from small indexes and the per-Site counts
    // (docs/adr/0051-the-owners-list-pages-by-key.md), not from the damaged page, so it still answers.
    expect(await app.admin.call('overview', {})).toMatchObject({ ok: true, value: { storage: { problem: { message: problem.message } } } })
    // What does not touch the page still answers.
    expect(await app.admin.call('readers', {})).toMatchObject({ ok: true, value: [{ name: 'aiko' }] })
    const added = await app.admin.call('addReader', { name: 'bo' })
    expect(added).toMatchObject({ ok: false, error: { code: 'storage-unavailable' } })
  })

  it('with the Lanes on, the app starts all the same: reads answer, writes are 503, the Lanes run', async () => {
    const { dir } = await damagedDataDir()
    const app = await startApp({
      shell: 'headless',
      dataDir: dir,
      log: silentLog,
      clock: new FakeClock(),
      port: 0,
      // Nothing listens there: no pass is wanted, only Lanes that start.
      sites: fixtureSites('127.0.0.1:9'),
    })
    cleanups.push(() => app.stop())
    expect(app.core.lanesRunning).toBe(true)
    expect(app.core.storage.problem()).toMatchObject({ kind: 'damaged' })
    expect(await app.admin.call('readers', {})).toMatchObject({ ok: true, value: [{ name: 'aiko' }] })
    expect(await app.admin.call('pauseLane', { site: 'fixture-madara', duration: '1h' })).toMatchObject({
      ok: false,
      error: { code: 'storage-unavailable' },
    })
  })

  it('in a file the start does not wait for, the verdict comes while the app runs', async () => {
    const { dir } = await damagedDataDir()
    const core = await startCore({ dataDir: dir, clock: new FakeClock(), log: silentLog, sites: [], integrityWaitMs: 0 })
    cleanups.push(() => core.stop())
    const started = Date.now()
    while (!core.storage.problem() && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(core.storage.problem()).toMatchObject({ kind: 'damaged' })
  })

  it('a sound file passes, and the app takes writes', async () => {
    const temp = tempDir('mb-sound-')
    cleanups.push(() => temp.remove())
    const core = await startCore({ dataDir: temp.dir, clock: new FakeClock(), log: silentLog, sites: [] })
    cleanups.push(() => core.stop())
    expect(core.storage.problem()).toBeNull()
    await seedReader(core.store.db, 'aiko')
  })
})

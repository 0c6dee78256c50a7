/**
 * A database that opens but has a damaged page (docs/adr/0046-the-file-the-app-opened.md): the quick integrity
 * check notices it — the app's after it listens and its Lanes run (docs/adr/0210-the-start-before-the-verdict.md) —
 * the app takes no more writes into it (503 `storage-unavailable`), the Lanes stop, and the Overview says what to
 * do — restore a backup, naming the newest.
 */
import BetterSqlite3 from 'better-sqlite3'
import { fixtureSites } from './demo/fixture-sites'
import { describe, expect, it } from './testing/app-fixtures'
import { damagedLibrary, inOneTransaction } from './testing/damaged-library'
import { seedReader, seedSeries } from './testing/store'

/** 3,000 bookmarked Series in `dir`, a backup of them, and then a page in the middle damaged. */
async function damagedDataDir(dir: string): Promise<{ file: string; backup: string }> {
  const damaged = await damagedLibrary(dir, {
    backupAt: Date.UTC(2026, 0, 1),
    before: async (db) => {
      const reader = await seedReader(db, 'aiko')
      await inOneTransaction(db, 3_000, (trx, i) => seedSeries(trx, { site: 'fixture-madara', id: `series-${i}`, readers: [reader] }))
    },
  })
  // The fault is real: the file opens and counts its rows, and quick_check finds the damage.
  const probe = new BetterSqlite3(damaged.file, { readonly: true })
  expect(probe.prepare('SELECT COUNT(*) AS n FROM readers').get()).toEqual({ n: 1 })
  expect(probe.pragma('quick_check', { simple: true })).not.toBe('ok')
  probe.close()
  return damaged
}

describe('a damaged page in a database that opens', () => {
  it('is found at start: writes are refused, reads answer, the Overview says to restore a backup and names the newest', async ({
    dataDir,
    startTestApp,
  }) => {
    const { file, backup } = await damagedDataDir(dataDir)
    const app = await startTestApp({ dataDir, lanes: false })
    // The app started without the verdict: the check's worker answers no sooner than the next turn of the loop.
    expect(app.core.storage.problem()).toBeNull()
    await app.core.integrityChecked
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

  it('with the Lanes on, the app starts them; the verdict stops them and writes, and a restore starts them again', async ({
    dataDir,
    startTestApp,
  }) => {
    const { backup } = await damagedDataDir(dataDir)
    // Nothing listens there: no pass is wanted, only Lanes that start.
    const app = await startTestApp({ dataDir, sites: fixtureSites('127.0.0.1:9') })
    expect(app.core.lanesRunning).toBe(true)
    // The first pass's writes may meet the damaged page before the verdict does: either way the Lanes stop.
    await app.core.integrityChecked
    expect(app.core.storage.problem()).toMatchObject({ kind: 'damaged' })
    expect(app.core.lanesRunning).toBe(false)
    // Held: a start asked now waits for the restore.
    await app.core.startLanes()
    expect(app.core.lanesRunning).toBe(false)
    expect(await app.admin.call('readers', {})).toMatchObject({ ok: true, value: [{ name: 'aiko' }] })
    expect(await app.admin.call('pauseLane', { site: 'fixture-madara', duration: '1h' })).toMatchObject({
      ok: false,
      error: { code: 'storage-unavailable' },
    })
    await app.core.restorer.restore(backup)
    expect(app.core.storage.problem()).toBeNull()
    expect(app.core.lanesRunning).toBe(true)
  })

  it('in a file the start does not wait for, the verdict comes while the app runs', async ({ dataDir, startTestCore }) => {
    await damagedDataDir(dataDir)
    const core = await startTestCore({ dataDir, integrityWaitMs: 0 })
    await core.integrityChecked
    expect(core.storage.problem()).toMatchObject({ kind: 'damaged' })
  })

  it('a sound file passes, and the app takes writes', async ({ dataDir, startTestCore }) => {
    const core = await startTestCore({ dataDir })
    expect(core.storage.problem()).toBeNull()
    await seedReader(core.store.db, 'aiko')
  })
})

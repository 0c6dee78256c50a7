/**
 * Settings → Backups → Restore through the admin contract, on a real data directory and a real sync endpoint
 * (docs/adr/0089-restore-in-place.md): the backups listed with their verdict; a restore while the app runs puts
 * the backup in place without the process exiting — reads answer from it, writes are taken into it, the Lanes run
 * again — and the file it replaced is kept aside with everything written after the backup. A database found
 * damaged at start is restored the same way, and takes writes again.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { pino } from 'pino'
import { type RunningApp } from './app'
import { fixtureSites } from './demo/fixture-sites'
import { BACKUP_DIR, backupName } from './store/backups'
import { FakeClock } from './testing/clock'
import { describe, expect, it, type TestAppOptions } from './testing/app-fixtures'
import { damagedLibrary, inOneTransaction } from './testing/damaged-library'
import { seedReader } from './testing/store'

/** The app's options here: its fake clock starts on 1 March 2026. */
const on = (options: TestAppOptions): TestAppOptions => ({ clock: new FakeClock(Date.UTC(2026, 2, 1)), ...options })

const call = async (app: RunningApp, method: string, input: unknown = {}) => app.admin.call(method as never, input as never) as Promise<any>

const names = (file: string) => {
  const db = new BetterSqlite3(file, { readonly: true })
  try {
    return (db.prepare('SELECT name FROM readers ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name)
  } finally {
    db.close()
  }
}

describe('Restore in the window', () => {
  it('puts the backup in place while the app runs; the file it replaced is kept with what came after', async ({
    dataDir,
    fixtureSite,
    startTestApp,
  }) => {
    const app = await startTestApp(on({ dataDir, sites: fixtureSites(fixtureSite.host) }))
    const aiko = (await call(app, 'addReader', { name: 'aiko' })).value
    await call(app, 'backupNow')
    await call(app, 'addReader', { name: 'after-the-backup' })
    // A damaged backup beside it is listed as such, and cannot be restored.
    const bad = join(dataDir, BACKUP_DIR, backupName(Date.UTC(2020, 0, 1)))
    writeFileSync(bad, 'not a database')

    const listed = (await call(app, 'backups')).value
    expect(listed.map((b: { ok: boolean }) => b.ok)).toEqual([true, false])
    expect(listed[1]).toMatchObject({ file: bad, ok: false, problems: [expect.stringMatching(/integrity_check/)] })
    expect(await call(app, 'restoreBackup', { file: bad })).toMatchObject({ ok: false, error: { code: 'invalid' } })

    const restored = await call(app, 'restoreBackup', { file: listed[0].file })
    expect(restored.ok, JSON.stringify(restored)).toBe(true)
    expect(restored.value).toMatchObject({ from: listed[0].file, file: app.dataFile, storage: { problem: null } })
    // The process did not exit: the same app answers from the restored file.
    expect((await call(app, 'readers')).value.map((r: { name: string }) => r.name)).toEqual(['aiko'])
    const token = await fetch(`${app.origin}/api/v1/bookmarks`, { headers: { authorization: `Bearer ${aiko.token}` } })
    expect(token.status).toBe(200)
    expect(app.core.lanesRunning).toBe(true)
    // What came after the backup is kept aside, never deleted.
    const aside = restored.value.aside[0]
    expect(aside).toMatch(/manga-bookmark\.sqlite\.before-restore-/)
    expect(names(aside)).toEqual(['after-the-backup', 'aiko'])
    // Writes go into the restored file, at its path.
    expect(await call(app, 'addReader', { name: 'bo' })).toMatchObject({ ok: true })
    expect(names(app.dataFile)).toContain('bo')
  })

  it('marks a sound backup that holds no Reader and no Series as empty', async ({ dataDir, startTestApp }) => {
    const clock = new FakeClock(Date.UTC(2026, 2, 1))
    const app = await startTestApp({ dataDir, clock })
    // The first backup of a new library is made (no backup holds one yet), and holds nothing.
    await call(app, 'backupNow')
    await clock.advance(60_000)
    await call(app, 'addReader', { name: 'aiko' })
    await call(app, 'backupNow')
    const bad = join(dataDir, BACKUP_DIR, backupName(Date.UTC(2020, 0, 1)))
    writeFileSync(bad, 'not a database')
    const listed = (await call(app, 'backups')).value
    expect(listed.map((b: { ok: boolean; empty: boolean }) => [b.ok, b.empty])).toEqual([
      [true, false],
      [true, true],
      [false, false],
    ])
  })

  it('a database found damaged at start is restored from the window and takes writes again', async ({ dataDir, startTestApp }) => {
    const { backup } = await damagedLibrary(dataDir, {
      backupAt: Date.UTC(2026, 0, 1),
      before: async (db) => {
        await seedReader(db, 'aiko')
        // Enough rows that a page in the middle holds them.
        await inOneTransaction(db, 2_000, (trx, i) => seedReader(trx, `reader-${i}`))
      },
    })

    const app = await startTestApp(on({ dataDir }))
    await app.core.integrityChecked
    expect((await call(app, 'overview')).value?.storage.problem ?? app.core.storage.problem()).toMatchObject({
      kind: 'damaged',
      action: expect.stringMatching(/^restore the newest good backup/),
    })
    expect(await call(app, 'addReader', { name: 'refused' })).toMatchObject({ ok: false, error: { code: 'storage-unavailable' } })
    const restored = await call(app, 'restoreBackup', { file: backup })
    expect(restored.ok, JSON.stringify(restored)).toBe(true)
    expect(app.core.storage.problem()).toBeNull()
    expect(await call(app, 'addReader', { name: 'taken' })).toMatchObject({ ok: true })
    expect(existsSync(restored.value.aside[0])).toBe(true)
  })
})

describe('a new, empty database beside backups', () => {
  it('is said at start (an error line) and on the Overview, until a backup is restored', async ({ dataDir, startTestApp }) => {
    const first = await startTestApp(on({ dataDir }))
    await call(first, 'addReader', { name: 'aiko' })
    const made = (await call(first, 'backupNow')).value.lastBackup
    await first.stop()
    for (const side of ['', '-wal', '-shm']) rmSync(`${first.dataFile}${side}`, { force: true })

    const lines: string[] = []
    const app = await startTestApp(on({ dataDir, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) }))
    const said = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50)
    expect(said.map((l) => l.msg)).toEqual([
      expect.stringMatching(
        /^store: a new, empty database was made at .+, but .+ holds 1 backups, the newest from 2026-.+: if the database was deleted or moved, restore it \(Settings → Backups → Restore, or quit and run npm run restore -- --latest\)$/,
      ),
    ])
    expect((await call(app, 'overview')).value.storage.madeEmpty).toEqual({ backups: 1, newest: made })
    expect(await call(app, 'restoreBackup', { file: made.file })).toMatchObject({ ok: true })
    expect((await call(app, 'overview')).value.storage.madeEmpty).toBeNull()
    expect((await call(app, 'readers')).value.map((r: { name: string }) => r.name)).toEqual(['aiko'])
  })
})

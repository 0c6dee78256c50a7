/**
 * `npm run restore` on a real data directory (docs/adr/0089-restore-in-place.md): the backups listed with their
 * verdict; a damaged database replaced by the newest good backup, the damaged file and its journal kept aside;
 * a damaged backup refused; and a refusal while the app runs on the directory.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { startCore } from '../core'
import { silentLog } from '../log'
import { BACKUP_DIR, backupDatabase, backupName } from '../store/backups'
import { openStore, STORE_FILE } from '../store/database'
import { FakeClock } from '../testing/clock'
import { corruptMiddlePage } from '../testing/faults'
import { seedReader, seedSeries, tempDir } from '../testing/store'
import { runRestoreCommand } from './restore'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const AT = Date.UTC(2026, 2, 1, 4)

/** A data directory with a good backup of 2 Readers and 300 Series, then more written, then the file damaged. */
async function damagedWithBackup(): Promise<{ dir: string; file: string; backup: string }> {
  const temp = tempDir('mb-restore-cli-')
  cleanups.push(() => temp.remove())
  const file = join(temp.dir, STORE_FILE)
  const store = openStore(file, { now: 1 })
  const aiko = await seedReader(store.db, 'aiko')
  await seedReader(store.db, 'bo')
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 300; i++) await seedSeries(trx, { site: 'fixture-madara', id: `series-${i}`, readers: [aiko] })
  })
  const backup = await backupDatabase(store.sqlite, join(temp.dir, BACKUP_DIR), AT)
  await store.db.transaction().execute(async (trx) => {
    for (let i = 300; i < 600; i++) await seedSeries(trx, { site: 'fixture-madara', id: `series-${i}`, readers: [aiko] })
  })
  await store.close()
  corruptMiddlePage(file)
  return { dir: temp.dir, file, backup: backup.file }
}

async function run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = []
  const err: string[] = []
  const code = await runRestoreCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, { now: () => AT + 3_600_000 })
  return { code, out, err }
}

const count = (file: string, table: string) => {
  const db = new BetterSqlite3(file, { readonly: true })
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n
  } finally {
    db.close()
  }
}

describe('npm run restore', () => {
  it('--latest puts the newest good backup in place, keeps the damaged file and its journal aside, and the app opens it', async () => {
    const { dir, file, backup } = await damagedWithBackup()
    // A damaged copy made later sorts first: --latest passes over it.
    const bad = join(dir, BACKUP_DIR, backupName(AT + 60_000))
    writeFileSync(bad, readFileSync(file))
    // The old file's journal, which must never be applied to the restored file.
    writeFileSync(`${file}-wal`, 'not a journal of the backup')
    const damagedBytes = readFileSync(file)

    const listed = await run(['--data', dir, '--list'])
    expect(listed.code).toBe(0)
    expect(listed.out).toHaveLength(2)
    expect(listed.out[0]).toMatch(/^2026-03-01 04:01:00Z +[\d.]+ KB {2}damaged \(.+\) {2}.+$/)
    expect(listed.out[1]).toMatch(new RegExp(`^2026-03-01 04:00:00Z +[\\d.]+ KB {2}ok {2}${backup}$`))

    const restored = await run(['--data', dir, '--latest'])
    expect(restored).toMatchObject({ code: 0, out: [file] })
    const aside = `${file}.before-restore-2026-03-01T05-00-00-000Z`
    expect(restored.err.join('\n')).toContain(`the file it replaced is kept at ${aside}, ${aside}-wal`)
    expect(readFileSync(aside).equals(damagedBytes)).toBe(true)
    expect(readFileSync(`${aside}-wal`, 'utf8')).toBe('not a journal of the backup')
    expect(existsSync(`${file}-wal`)).toBe(false)

    const core = await startCore({ dataDir: dir, clock: new FakeClock(), log: silentLog, sites: [] })
    cleanups.push(() => core.stop())
    expect(core.storage.problem()).toBeNull()
    expect(count(file, 'readers')).toBe(2)
    expect(count(file, 'series')).toBe(300)
  })

  it('refuses a damaged backup and changes nothing', async () => {
    const { dir, file } = await damagedWithBackup()
    const before = readFileSync(file)
    const bad = join(dir, 'copy.sqlite')
    writeFileSync(bad, before)
    const answer = await run(['--data', dir, '--from', bad])
    expect(answer.code).toBe(1)
    expect(answer.err[0]).toMatch(new RegExp(`^restore: ${bad} does not pass integrity_check \\(.+\\); nothing was changed$`))
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('refuses while the app runs on the data directory, and says where to restore instead', async () => {
    const temp = tempDir('mb-restore-running-')
    cleanups.push(() => temp.remove())
    const core = await startCore({ dataDir: temp.dir, clock: new FakeClock(), log: silentLog, sites: [] })
    cleanups.push(() => core.stop())
    await seedReader(core.store.db, 'aiko')
    await core.backups.backupNow()
    const answer = await run(['--data', temp.dir, '--latest'])
    expect(answer.code).toBe(1)
    expect(answer.err[0]).toMatch(
      /^restore: the data directory .+ is in use by process \d+ on .+; quit the app first, or restore in its window \(Settings → Backups → Restore\); nothing was changed$/,
    )
    expect(existsSync(join(temp.dir, `${STORE_FILE}.restoring`))).toBe(false)
  })

  it('says what is wrong with its arguments', async () => {
    expect((await run(['--latest', '--from', 'x'])).code).toBe(2)
    expect((await run(['--nope'])).code).toBe(2)
    const empty = tempDir('mb-restore-empty-')
    cleanups.push(() => empty.remove())
    expect(await run(['--data', empty.dir, '--latest'])).toMatchObject({
      code: 1,
      err: [`restore: no backup in ${join(empty.dir, BACKUP_DIR)} passes integrity_check`],
    })
  })
})

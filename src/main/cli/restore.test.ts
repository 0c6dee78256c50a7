/**
 * `npm run restore` on a real data directory (docs/adr/0089-restore-in-place.md): the backups listed with their
 * verdict; a damaged database replaced by the newest good backup, the damaged file and its journal kept aside;
 * a damaged backup refused; and a refusal while the app runs on the directory.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { BACKUP_DIR, backupDatabase, backupName } from '../store/backups'
import { openStore, STORE_FILE } from '../store/database'
import { describe, expect, it } from '../testing/app-fixtures'
import { damagedLibrary, inOneTransaction } from '../testing/damaged-library'
import { seedReader, seedSeries } from '../testing/store'
import { runRestoreCommand } from './restore'

const AT = Date.UTC(2026, 2, 1, 4)

/** In `dir`: a good backup of 2 Readers and 300 Series, then more written, then the file damaged. */
async function damagedWithBackup(dir: string): Promise<{ file: string; backup: string }> {
  let aiko = 0
  const series = (from: number) => (trx: Parameters<typeof seedSeries>[0], i: number) =>
    seedSeries(trx, { site: 'fixture-madara', id: `series-${from + i}`, readers: [aiko] })
  return damagedLibrary(dir, {
    backupAt: AT,
    before: async (db) => {
      aiko = await seedReader(db, 'aiko')
      await seedReader(db, 'bo')
      await inOneTransaction(db, 300, series(0))
    },
    after: (db) => inOneTransaction(db, 300, series(300)),
  })
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
  it('--list marks a sound backup that holds no Reader and no Series as empty', async ({ dataDir: dir }) => {
    const store = openStore(join(dir, STORE_FILE), { now: AT })
    try {
      await backupDatabase(store.sqlite, join(dir, BACKUP_DIR), AT)
      await seedReader(store.db, 'aiko')
      await backupDatabase(store.sqlite, join(dir, BACKUP_DIR), AT + 60_000)
    } finally {
      await store.close()
    }
    const listed = await run(['--data', dir, '--list'])
    expect(listed.code).toBe(0)
    expect(listed.out[0]).toMatch(/^2026-03-01 04:01:00Z +[\d.]+ KB {2}ok {2}.+$/)
    expect(listed.out[1]).toMatch(/^2026-03-01 04:00:00Z +[\d.]+ KB {2}ok, empty \(no Reader, no Series\) {2}.+$/)
  })

  it('--latest puts the newest good backup in place, keeps the damaged file and its journal aside, and the app opens it', async ({
    dataDir: dir,
    startTestCore,
  }) => {
    const { file, backup } = await damagedWithBackup(dir)
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

    const core = await startTestCore({ dataDir: dir })
    expect(core.storage.problem()).toBeNull()
    expect(count(file, 'readers')).toBe(2)
    expect(count(file, 'series')).toBe(300)
  })

  it('refuses a damaged backup and changes nothing', async ({ dataDir: dir }) => {
    const { file } = await damagedWithBackup(dir)
    const before = readFileSync(file)
    const bad = join(dir, 'copy.sqlite')
    writeFileSync(bad, before)
    const answer = await run(['--data', dir, '--from', bad])
    expect(answer.code).toBe(1)
    expect(answer.err[0]).toMatch(new RegExp(`^restore: ${bad} does not pass integrity_check \\(.+\\); nothing was changed$`))
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('refuses while the app runs on the data directory, and says where to restore instead', async ({ dataDir, startTestCore }) => {
    const core = await startTestCore({ dataDir })
    await seedReader(core.store.db, 'aiko')
    await core.backups.backupNow()
    const answer = await run(['--data', dataDir, '--latest'])
    expect(answer.code).toBe(1)
    expect(answer.err[0]).toMatch(
      /^restore: the data directory .+ is in use by process \d+ on .+; quit the app first, or restore in its window \(Settings → Backups → Restore\); nothing was changed$/,
    )
    expect(existsSync(join(dataDir, `${STORE_FILE}.restoring`))).toBe(false)
  })

  it('says what is wrong with its arguments', async ({ dataDir: empty }) => {
    expect((await run(['--latest', '--from', 'x'])).code).toBe(2)
    expect((await run(['--nope'])).code).toBe(2)
    expect(await run(['--data', empty, '--latest'])).toMatchObject({
      code: 1,
      err: [`restore: no backup in ${join(empty, BACKUP_DIR)} passes integrity_check`],
    })
  })
})

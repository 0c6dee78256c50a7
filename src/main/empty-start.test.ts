/**
 * An empty start beside backups (docs/adr/0114-an-empty-start-keeps-the-backups.md), end to end: the database
 * deleted while the app is stopped; the next start past the daily backup check makes no backup of the empty
 * library, a Reader's phone is told the library is missing (not "unknown token", which would make it forget its
 * token); `npm run restore -- --latest` brings the library back and the same token works.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { FIRST_BACKUP_DELAY_MS } from './backup-schedule'
import { runBackupCommand } from './cli/backup'
import { runRestoreCommand } from './cli/restore'
import { BACKUP_DIR, backupDatabase, listBackups } from './store/backups'
import { openStore, STORE_FILE } from './store/database'
import { describe, expect, it } from './testing/app-fixtures'
import { FakeClock } from './testing/clock'

const DAY = 86_400_000
const START = Date.UTC(2026, 2, 1, 3, 0, 0)

const me = (origin: string, token: string) =>
  fetch(`${origin}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({
    status: r.status,
    json: (await r.json()) as { name?: string; error?: { code: string; message: string } },
  }))

describe('an empty start beside backups', () => {
  it('makes no backup of the empty library, answers Readers library-missing, and restore --latest brings the library back', async ({
    dataDir,
    startTestApp,
  }) => {
    const first = await startTestApp({ dataDir, clock: new FakeClock(START), lanes: false })
    const added = (await first.admin.call('addReader', { name: 'aiko' })) as { ok: true; value: { token: string } }
    const token = added.value.token
    expect((await first.admin.call('backupNow', {})).ok).toBe(true)
    await first.stop()
    const backups = () => listBackups(join(dataDir, BACKUP_DIR))
    expect(backups()).toHaveLength(1)

    // Deleted while the app is stopped; the next start is two days on, so the newest backup is due again.
    for (const side of ['', '-wal', '-shm']) rmSync(join(dataDir, `${STORE_FILE}${side}`), { force: true })
    const clock = new FakeClock(START + 2 * DAY)
    const second = await startTestApp({ dataDir, clock, lanes: false })
    expect(second.core.madeEmpty()?.backups).toBe(1)

    const refused = await me(second.origin, token)
    expect(refused.status).toBe(503)
    expect(refused.json.error?.code).toBe('library-missing')
    expect(refused.json.error?.message).toContain('keep your token')
    // A token no backup ever knew is just as missing: the app cannot tell them apart while the library is.
    const health = await fetch(`${second.origin}/api/v1/health`).then((r) => r.json())
    expect(health).toEqual({ ok: true })

    // Past the first backup check and its retry within the hour: no backup of the empty library, and why is said.
    await clock.runUntil(() => second.core.backups.state().backupProblem !== null, { withinMs: FIRST_BACKUP_DELAY_MS + 1_000 })
    await clock.runFor(3_700_000)
    expect(backups()).toHaveLength(1)
    expect(second.core.backups.state().backupProblem).toMatch(/^the library is empty but the backup .* holds one/)
    const asked = await second.admin.call('backupNow', {})
    expect(asked.ok).toBe(false)
    const said: string[] = []
    expect(await runBackupCommand(['--data', dataDir], { out: () => undefined, err: (l) => said.push(l) })).toBe(1)
    expect(said[0]).toMatch(/^backup: refused: the library is empty but the backup/)
    expect(backups()).toHaveLength(1)
    await second.stop()

    const out: string[] = []
    const err: string[] = []
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }
    expect(await runRestoreCommand(['--data', dataDir, '--latest'], io, { now: () => START + 3 * DAY })).toBe(0)
    expect(out).toEqual([join(dataDir, STORE_FILE)])

    const third = await startTestApp({ dataDir, clock: new FakeClock(START + 3 * DAY), lanes: false })
    expect(third.core.madeEmpty()).toBeNull()
    expect(await me(third.origin, token)).toMatchObject({ status: 200, json: { name: 'aiko' } })
  })

  it('restore --latest passes over newer backups that are empty or damaged, and says which', async ({ dataDir }) => {
    const dir = join(dataDir, BACKUP_DIR)
    const full = openStore(join(dataDir, 'full.sqlite'), { now: 1 })
    full.sqlite.prepare("INSERT INTO readers (name, token_hash, created_at) VALUES ('aiko', 'h', 1)").run()
    const good = await backupDatabase(full.sqlite, dir, START)
    await full.close()
    const empty = openStore(join(dataDir, 'empty.sqlite'), { now: 1 })
    const newer = await backupDatabase(empty.sqlite, dir, START + DAY)
    await empty.close()
    const err: string[] = []
    const out: string[] = []
    expect(await runRestoreCommand(['--data', dataDir, '--latest'], { out: (l) => out.push(l), err: (l) => err.push(l) })).toBe(0)
    expect(err).toContain(`restore: skipped ${newer.file}: empty (no Reader, no Series)`)
    expect(err).toContain(`restore: ${good.file} is now the database ${join(dataDir, STORE_FILE)}`)
  })
})

/**
 * Damage at the start of the file (docs/adr/0115-a-start-that-cannot-write.md): a truncated file, a damaged header
 * and a damaged page 1 each start the app — opened read-only, or stood in for when SQLite cannot open it at all —
 * with the cause in the log, the Readers' routes and `/health` answering 503 with it, no backup made of it, and the
 * restore putting the newest good backup in place while the app runs.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { BACKUP_DIR, backupDatabase, listBackups } from './store/backups'
import { openStore, STORE_FILE } from './store/database'
import { describe, expect, it } from './testing/app-fixtures'
import { damageStart, type StartDamage } from './testing/damaged-library'
import { FakeClock } from './testing/clock'
import type { RunningApp } from './app'
import { mountSmallTmpfs, type SmallTmpfs } from './testing/faults'
import pino from 'pino'
import { hashToken } from './use-cases/reader-tokens'

const TOKEN = 'damaged-start-token-0123456789abcdef'

/** A library of one Reader and some settings, backed up, then damaged at its start. */
async function damagedAtStart(dataDir: string, how: StartDamage): Promise<string> {
  const store = openStore(join(dataDir, STORE_FILE), { now: 1 })
  store.sqlite.prepare('INSERT INTO readers (name, token_hash, created_at) VALUES (?, ?, 1)').run('aiko', hashToken(TOKEN))
  const insert = store.sqlite.prepare('INSERT INTO settings (key, value) VALUES (?, ?)')
  for (let i = 0; i < 60; i++) insert.run(`filler-${i}`, JSON.stringify('x'.repeat(400)))
  const backup = await backupDatabase(store.sqlite, join(dataDir, BACKUP_DIR), Date.UTC(2026, 2, 1))
  await store.close()
  damageStart(join(dataDir, STORE_FILE), how)
  return backup.file
}

describe.each<StartDamage>(['truncated', 'header', 'page-1'])('a database damaged at its start (%s)', (how) => {
  it('starts with the cause said, Readers answered 503 with it, and the restore brings the library back', async ({
    dataDir,
    startTestApp,
  }) => {
    const backup = await damagedAtStart(dataDir, how)
    const lines: string[] = []
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) })
    const app = await startTestApp({ dataDir, log, clock: new FakeClock(Date.UTC(2026, 2, 2)), lanes: false })
    const fault = app.core.store.health.fault()
    expect(fault?.kind).toBe('damaged')
    expect(fault?.message).toContain(`the newest is ${backup}`)
    expect(lines.some((l) => /"level":50/.test(l) && l.includes(STORE_FILE))).toBe(true)

    const me = await fetch(`${app.origin}/api/v1/me`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(me.status).toBe(503)
    const refused = (await me.json()) as { error: { code: string; message: string } }
    expect(refused.error.code).toBe('storage-unavailable')
    expect(refused.error.message).toMatch(/damaged|not a database|malformed/)
    expect(refused.error.message).not.toContain('try again later')
    const health = await fetch(`${app.origin}/api/v1/health`)
    expect(health.status).toBe(503)
    expect(await health.json()).toMatchObject({ ok: false, store: 'damaged' })
    // No backup is made of it.
    expect((await app.admin.call('backupNow', {})).ok).toBe(false)
    expect(listBackups(join(dataDir, BACKUP_DIR))).toHaveLength(1)

    const listed = await app.core.restorer.list()
    expect(listed.map((b) => [b.file, b.verdict.ok])).toEqual([[backup, true]])
    await app.core.restorer.restore(backup)
    expect(app.core.store.health.fault()).toBeNull()
    const after = await fetch(`${app.origin}/api/v1/me`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(after.status).toBe(200)
    expect(await after.json()).toMatchObject({ name: 'aiko' })
    expect((await fetch(`${app.origin}/api/v1/health`).then((r) => r.json())) as unknown).toEqual({ ok: true })
  })
})

// Mounted while the tests are collected, so a machine that cannot mount skips them with the reason.
const tmpfs = mountSmallTmpfs(4 * 1024 * 1024)
const mounted = 'dir' in tmpfs ? (tmpfs as SmallTmpfs) : null
afterAll(() => mounted?.unmount())

/** A library of one Reader in `dir` on the tmpfs, closed. */
function libraryIn(dir: string): void {
  mkdirSync(dir, { recursive: true })
  const store = openStore(join(dir, STORE_FILE), { now: 1 })
  store.sqlite.prepare('INSERT INTO readers (name, token_hash, created_at) VALUES (?, ?, 1)').run('aiko', hashToken(TOKEN))
  store.sqlite.close()
}

const me = (origin: string) => fetch(`${origin}/api/v1/me`, { headers: { authorization: `Bearer ${TOKEN}` } })
/** A write through the admin contract: its error code, or 'ok'. */
const write = async (app: RunningApp, name: string) => {
  const result = (await app.admin.call('addReader', { name })) as { ok: boolean; error?: { code: string } }
  return result.ok ? 'ok' : result.error?.code
}

describe.skipIf(!mounted)(`an unwritable data directory at start${'skip' in tmpfs ? ` (skipped: ${tmpfs.skip})` : ''}`, () => {
  it('a read-only file system (EROFS on the lock holder): starts read-only, reads answer, writes and /health say read-only', async ({
    startTestApp,
  }) => {
    const dir = join(mounted!.dir, `ro-${Date.now()}`)
    libraryIn(dir)
    execFileSync('mount', ['-o', 'remount,ro', mounted!.dir], { stdio: 'pipe' })
    try {
      const app = await startTestApp({ dataDir: dir, lanes: false })
      expect(app.core.store.health.fault()?.kind).toBe('read-only')
      expect(await me(app.origin).then((r) => r.status)).toBe(200)
      expect(await write(app, 'later')).toBe('storage-unavailable')
      const health = await fetch(`${app.origin}/api/v1/health`)
      expect(health.status).toBe(503)
      expect(await health.json()).toMatchObject({ ok: false, store: 'read-only' })
      await app.stop()
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mounted!.dir], { stdio: 'pipe' })
    }
  })

  it('a disk full to the last byte: starts, reads answer, writes are refused until space is freed', async ({ startTestApp }) => {
    const dir = join(mounted!.dir, `full-${Date.now()}`)
    libraryIn(dir)
    mounted!.fill()
    try {
      const app = await startTestApp({ dataDir: dir, lanes: false })
      expect(await me(app.origin).then((r) => r.status)).toBe(200)
      expect(await write(app, 'later')).toBe('storage-unavailable')
      mounted!.free()
      app.core.store.health.check()
      expect(await write(app, 'after')).toBe('ok')
      await app.stop()
    } finally {
      mounted!.free()
    }
  })
})

/**
 * Another local user reads nothing of the app's (docs/security.md): the data directory 0700, the database,
 * its WAL and shm, the lock, a migration's backup and sites.json 0600 — under the usual umask 022, with real
 * files, through the real start of the core.
 */
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import BetterSqlite3 from 'better-sqlite3'
import { pino } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { migrations } from '../../../migrations'
import { startCore } from '../core'
import { systemClock } from '../clock'
import { BUILT_IN_SITES } from '../sites/builtin'
import { addSiteEntry } from '../sites/sites-writer'
import { tempDir } from '../testing/store'
import { STORE_FILE } from './database'
import { LOCK_FILE } from './data-lock'
import { migrate } from './migrate'

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

let umask: number
beforeAll(() => {
  // The umask most systems start users with: files 0644 and directories 0755 unless the app says otherwise.
  umask = process.umask(0o022)
})
afterAll(() => process.umask(umask))

const dirs: Array<{ remove(): void }> = []
afterEach(() => dirs.splice(0).forEach((d) => d.remove()))
function fresh(): string {
  const d = tempDir()
  dirs.push(d)
  return d.dir
}

/** A logger whose lines the test reads. */
function recordingLog() {
  const lines: Array<{ msg: string; level: number }> = []
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as { msg: string; level: number })
        done()
      },
    }),
  )
  return { log, lines }
}

let readers = 0
async function startAndStop(dataDir: string) {
  const { log, lines } = recordingLog()
  const core = await startCore({ dataDir, clock: systemClock, log, sites: BUILT_IN_SITES })
  // A write, so the WAL and shm exist and hold something.
  const name = `reader-${++readers}`
  await core.store.db.insertInto('readers').values({ name, token_hash: name, created_at: 1 }).execute()
  const modes = {
    dir: modeOf(dataDir),
    db: modeOf(join(dataDir, STORE_FILE)),
    wal: modeOf(join(dataDir, `${STORE_FILE}-wal`)),
    shm: modeOf(join(dataDir, `${STORE_FILE}-shm`)),
    lock: modeOf(join(dataDir, LOCK_FILE)),
  }
  await core.stop()
  return { modes, lines }
}

describe('the files of a data directory', () => {
  it('a new data directory is 0700; the database, its WAL and shm and the lock are 0600', async () => {
    const dataDir = join(fresh(), 'nested', 'data')
    const { modes, lines } = await startAndStop(dataDir)
    expect(modes).toEqual({ dir: '700', db: '600', wal: '600', shm: '600', lock: '600' })
    expect(modeOf(join(dataDir, '..'))).toBe('700')
    expect(lines.filter((l) => /private/.test(l.msg))).toEqual([])
  })

  it('a directory and database made open by an older version are tightened, and that is said once', async () => {
    const dataDir = fresh()
    chmodSync(dataDir, 0o755)
    const old = new BetterSqlite3(join(dataDir, STORE_FILE))
    old.pragma('journal_mode = WAL')
    old.exec('CREATE TABLE t (x)')
    chmodSync(join(dataDir, STORE_FILE), 0o644)
    chmodSync(join(dataDir, `${STORE_FILE}-wal`), 0o644)
    old.close()
    writeFileSync(join(dataDir, LOCK_FILE), '', { mode: 0o644 })

    const first = await startAndStop(dataDir)
    expect(first.modes).toEqual({ dir: '700', db: '600', wal: '600', shm: '600', lock: '600' })
    expect(first.lines.filter((l) => /private/.test(l.msg)).map((l) => l.msg)).toEqual([
      'data directory: other users could read it; it is now private (0700)',
    ])
    const second = await startAndStop(dataDir)
    expect(second.lines.filter((l) => /private/.test(l.msg))).toEqual([])
  })

  it('the copy made before a migration is 0600', () => {
    const dir = fresh()
    const file = join(dir, STORE_FILE)
    writeFileSync(file, '', { mode: 0o600 })
    const sqlite = new BetterSqlite3(file)
    migrate(sqlite, file, 1, migrations.slice(0, 1))
    const report = migrate(sqlite, file, 2)
    sqlite.close()
    expect(report.backup).toBe(`${file}.bak-1`)
    expect(modeOf(report.backup!)).toBe('600')
  })

  it('sites.json written by "Add a Site" is 0600, and an owner’s 0644 file becomes 0600 when written again', async () => {
    const dir = fresh()
    const entry = { key: 'harbor', name: 'Harbor Scans', hosts: ['harbor.example'], family: 'madara' as const }
    expect(await addSiteEntry(dir, entry, BUILT_IN_SITES)).toMatchObject({ ok: true })
    expect(modeOf(join(dir, 'sites.json'))).toBe('600')

    const other = fresh()
    mkdirSync(other, { recursive: true })
    writeFileSync(join(other, 'sites.json'), '{ "sites": [] }\n', { mode: 0o644 })
    expect(await addSiteEntry(other, entry, BUILT_IN_SITES)).toMatchObject({ ok: true })
    expect(modeOf(join(other, 'sites.json'))).toBe('600')
  })
})

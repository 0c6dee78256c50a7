/**
 * A restored backup is vetted, not trusted whole (docs/adr/0116-a-restored-backup-is-vetted.md): a backup someone
 * wrote a trigger into (re-setting a Reader's token hash on every rotate), a view, a table and an index of their
 * own, and URLs off the Sites' pins. Restored in the window and with `npm run restore`: the objects are dropped,
 * the URLs cleared, what changed is said — and after Rotate the token shown to the owner works, the attacker's
 * does not. A backup whose own table was changed is refused, and nothing is changed.
 */
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { runRestoreCommand } from './cli/restore'
import { fixtureSites } from './demo/fixture-sites'
import { hashToken } from './use-cases/reader-tokens'
import { STORE_FILE } from './store/database'
import { describe, expect, it } from './testing/app-fixtures'
import { FakeClock } from './testing/clock'
import type { RunningApp } from './app'

const HOST = 'pinned.test:8080'
const ATTACKER = 'attacker-token-0123456789abcdefghij'

/** A library with the Reader aiko and one Series on the pin, backed up; the backup then tampered with. */
async function tamperedBackup(app: RunningApp): Promise<{ backup: string; readerId: number }> {
  const added = (await app.admin.call('addReader', { name: 'aiko' })) as { ok: true; value: { reader: { id: number } } }
  const site = fixtureSites(HOST)[0]!.key
  app.core.store.sqlite
    .prepare("INSERT INTO series (site, series_id, title, series_url, created_at) VALUES (?, 'kept', 'Kept', ?, 1)")
    .run(site, `http://${HOST}/manga/kept/`)
  const made = (await app.admin.call('backupNow', {})) as { ok: true; value: { lastBackup: { file: string } } }
  const backup = made.value.lastBackup.file
  const db = new BetterSqlite3(backup)
  db.exec(`CREATE TRIGGER keep_the_door_open AFTER UPDATE OF token_hash ON readers
    BEGIN UPDATE readers SET token_hash = '${hashToken(ATTACKER)}' WHERE id = NEW.id; END`)
  db.exec('CREATE VIEW spy AS SELECT token_hash FROM readers')
  db.exec('CREATE TABLE stash (x TEXT)')
  db.exec('CREATE INDEX series_by_url ON series (series_url)')
  db.prepare(
    "INSERT INTO series (site, series_id, title, series_url, latest_chapter_url, created_at) VALUES (?, 'evil', 'Evil', 'http://169.254.169.254/latest/', 'https://evil.example/x', 1)",
  ).run(site)
  db.prepare(
    "INSERT INTO chapters (site, series_id, number, label, url, released_at, first_seen_at, arrived) VALUES (?, 'kept', 1, '1', 'javascript:alert(1)', 0, 1, 0)",
  ).run(site)
  db.close()
  return { backup, readerId: added.value.reader.id }
}

const me = (app: RunningApp, token: string) =>
  fetch(`${app.origin}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status)

function schemaNames(file: string): string[] {
  const db = new BetterSqlite3(file, { readonly: true })
  try {
    return db.prepare('SELECT name FROM sqlite_master').pluck().all() as string[]
  } finally {
    db.close()
  }
}

describe('a restored backup is vetted', () => {
  it('in the window: extra schema objects dropped, off-pin URLs cleared, said; after Rotate only the new token works', async ({
    dataDir,
    startTestApp,
  }) => {
    const app = await startTestApp({ dataDir, clock: new FakeClock(), sites: fixtureSites(HOST), lanes: false })
    const { backup, readerId } = await tamperedBackup(app)
    const restored = (await app.admin.call('restoreBackup', { file: backup })) as { ok: true; value: { changed: string[] } }
    expect(restored).toMatchObject({ ok: true })
    const changed = restored.value.changed.join('\n')
    expect(changed).toContain('dropped the trigger keep_the_door_open, which the migrations did not make')
    expect(changed).toContain('dropped the view spy')
    expect(changed).toContain('dropped the table stash')
    expect(changed).toContain('dropped the index series_by_url')
    expect(changed).toContain('cleared 1 series.series_url')
    expect(changed).toContain('cleared 1 series.latest_chapter_url')
    expect(changed).toContain('cleared 1 chapters.url')
    expect(schemaNames(join(dataDir, STORE_FILE))).not.toEqual(expect.arrayContaining(['keep_the_door_open']))
    const urls = app.core.store.sqlite.prepare('SELECT series_id, series_url, latest_chapter_url FROM series ORDER BY series_id').all()
    expect(urls).toEqual([
      { series_id: 'evil', series_url: '', latest_chapter_url: '' },
      { series_id: 'kept', series_url: `http://${HOST}/manga/kept/`, latest_chapter_url: '' },
    ])

    const rotated = (await app.admin.call('rotateReaderToken', { readerId })) as { ok: true; value: { token: string } }
    expect(await me(app, rotated.value.token)).toBe(200)
    expect(await me(app, ATTACKER)).toBe(401)
  })

  it('with npm run restore: the same vetting, said on the terminal', async ({ dataDir, startTestApp }) => {
    const app = await startTestApp({ dataDir, clock: new FakeClock(), sites: fixtureSites(HOST), lanes: false })
    const { backup } = await tamperedBackup(app)
    await app.stop()
    const err: string[] = []
    // The CLI reads the Sites from sites.json over the built-in ones: the fixture host is on no pin there, so the
    // kept Series' URL is cleared too.
    const code = await runRestoreCommand(['--data', dataDir, '--from', backup], { out: () => undefined, err: (l) => err.push(l) })
    expect(code).toBe(0)
    expect(err).toContain('restore: vetting the copy dropped the trigger keep_the_door_open, which the migrations did not make')
    expect(err.some((l) => l.startsWith('restore: vetting the copy cleared 2 series.series_url'))).toBe(true)
    expect(schemaNames(join(dataDir, STORE_FILE))).not.toContain('keep_the_door_open')
  })

  it('refuses a backup whose own table was changed, and changes nothing', async ({ dataDir, startTestApp }) => {
    const app = await startTestApp({ dataDir, clock: new FakeClock(), sites: fixtureSites(HOST), lanes: false })
    await app.admin.call('addReader', { name: 'aiko' })
    const made = (await app.admin.call('backupNow', {})) as { ok: true; value: { lastBackup: { file: string } } }
    const db = new BetterSqlite3(made.value.lastBackup.file)
    db.exec("ALTER TABLE readers ADD COLUMN note TEXT DEFAULT 'x'")
    db.close()
    await app.admin.call('addReader', { name: 'later' })
    const refused = (await app.admin.call('restoreBackup', { file: made.value.lastBackup.file })) as {
      ok: false
      error: { code: string; message: string }
    }
    expect(refused.ok).toBe(false)
    expect(refused.error.message).toContain('has the table readers changed from what the migrations made; nothing was changed')
    const names = app.core.store.sqlite.prepare('SELECT name FROM readers ORDER BY name').pluck().all()
    expect(names).toEqual(['aiko', 'later'])
  })
})

describe('an untouched backup', () => {
  it('is restored with nothing changed', async ({ dataDir, startTestApp }) => {
    const app = await startTestApp({ dataDir, clock: new FakeClock(), sites: fixtureSites(HOST), lanes: false })
    await app.admin.call('addReader', { name: 'aiko' })
    const made = (await app.admin.call('backupNow', {})) as { ok: true; value: { lastBackup: { file: string } } }
    const restored = await app.admin.call('restoreBackup', { file: made.value.lastBackup.file })
    expect(restored).toMatchObject({ ok: true, value: { changed: [] } })
  })
})

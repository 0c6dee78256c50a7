import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { migrations } from '../../../migrations'
import { tempDir } from '../testing/store'
import { openStore, STORE_FILE } from './database'
import { migrate, schemaVersion, versionOf } from './migrate'

const dirs: Array<{ remove(): void }> = []
afterEach(() => dirs.splice(0).forEach((d) => d.remove()))
const fresh = () => {
  const d = tempDir()
  dirs.push(d)
  return join(d.dir, STORE_FILE)
}

/** The columns of every table, as SQLite reports them. */
function schemaOf(sqlite: BetterSqlite3.Database) {
  const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>
  return Object.fromEntries(
    tables.map(({ name }) => [
      name,
      (
        sqlite.prepare(`PRAGMA table_info(${name})`).all() as Array<{
          name: string
          type: string
          notnull: number
          dflt_value: unknown
          pk: number
        }>
      ).map(
        (c) =>
          `${c.name} ${c.type}${c.notnull ? ' NOT NULL' : ''}${c.dflt_value !== null ? ` DEFAULT ${c.dflt_value}` : ''}${c.pk ? ` PK${c.pk}` : ''}`,
      ),
    ]),
  )
}

describe('migrations', () => {
  it('bundles every file of migrations/ in order', async () => {
    const { readdirSync } = await import('node:fs')
    const files = readdirSync(join(__dirname, '../../../migrations')).filter((f) => /^\d{4}_.*\.ts$/.test(f))
    expect(migrations.map((m) => `${m.name}.ts`)).toEqual(files.sort())
    expect(migrations.map(versionOf)).toEqual(migrations.map((_, i) => i + 1))
  })

  it('take an empty file to the latest version with the schema of docs/design.md#data', async () => {
    const file = fresh()
    const store = openStore(file, { now: 42 })
    expect(store.migration).toEqual({ from: 0, to: migrations.length, backup: null })
    const schema = schemaOf(store.sqlite)
    expect(schema.series).toEqual([
      'site TEXT NOT NULL PK1',
      'series_id TEXT NOT NULL PK2',
      "title TEXT NOT NULL DEFAULT ''",
      "series_url TEXT NOT NULL DEFAULT ''",
      'latest_chapter REAL',
      "latest_chapter_label TEXT NOT NULL DEFAULT ''",
      "latest_chapter_url TEXT NOT NULL DEFAULT ''",
      "latest_source TEXT NOT NULL DEFAULT ''",
      'latest_changed_at INTEGER NOT NULL DEFAULT 0',
      'latest_checked_at INTEGER NOT NULL DEFAULT 0',
      'latest_sighted_at INTEGER NOT NULL DEFAULT 0',
      'force_poll_at INTEGER NOT NULL DEFAULT 0',
      'finished_at INTEGER NOT NULL DEFAULT 0',
      'created_at INTEGER NOT NULL',
      "last_outcome TEXT NOT NULL DEFAULT ''",
      "last_error TEXT NOT NULL DEFAULT ''",
      'last_outcome_at INTEGER NOT NULL DEFAULT 0',
      'reader_count INTEGER NOT NULL DEFAULT 0',
      'next_check_at INTEGER NOT NULL DEFAULT 0',
      "rhythm TEXT NOT NULL DEFAULT ''",
      "releases TEXT NOT NULL DEFAULT ''",
      'rhythm_misses INTEGER NOT NULL DEFAULT 0',
      'checked_chapter REAL',
      'gone_checks INTEGER NOT NULL DEFAULT 0',
      'gone_since INTEGER NOT NULL DEFAULT 0',
      'gone_status INTEGER NOT NULL DEFAULT 0',
    ])
    expect(schema.site_moves).toEqual([
      'site TEXT NOT NULL PK1',
      "to_origin TEXT NOT NULL DEFAULT ''",
      "from_url TEXT NOT NULL DEFAULT ''",
      'seen_at INTEGER NOT NULL DEFAULT 0',
      "dismissed TEXT NOT NULL DEFAULT ''",
    ])
    expect(schema.series_found).toEqual([
      'site TEXT NOT NULL PK1',
      'series_id TEXT NOT NULL PK2',
      "to_url TEXT NOT NULL DEFAULT ''",
      "to_title TEXT NOT NULL DEFAULT ''",
      'found_at INTEGER NOT NULL DEFAULT 0',
      'searched_at INTEGER NOT NULL DEFAULT 0',
      "dismissed TEXT NOT NULL DEFAULT ''",
    ])
    expect(schema.series_aliases).toEqual(['site TEXT NOT NULL PK1', 'alias_id TEXT NOT NULL PK2', 'series_id TEXT NOT NULL'])
    expect(schema.readers).toEqual(['id INTEGER PK1', 'name TEXT NOT NULL', 'token_hash TEXT NOT NULL', 'created_at INTEGER NOT NULL'])
    expect(schema.bookmarks).toEqual([
      'reader_id INTEGER NOT NULL PK1',
      'site TEXT NOT NULL PK2',
      'series_id TEXT NOT NULL PK3',
      "status TEXT NOT NULL DEFAULT 'reading'",
      'progress REAL',
      'progress_at INTEGER NOT NULL DEFAULT 0',
      'created_at INTEGER NOT NULL',
      'updated_at INTEGER NOT NULL',
    ])
    expect(schema.sightings).toEqual([
      'id INTEGER PK1',
      'reader_id INTEGER NOT NULL',
      'site TEXT NOT NULL',
      'series_id TEXT NOT NULL',
      'chapter REAL NOT NULL',
      'sighted_at INTEGER NOT NULL',
      "verdict TEXT NOT NULL DEFAULT ''",
      'judged_at INTEGER NOT NULL DEFAULT 0',
    ])
    expect(schema.poll_lanes).toEqual([
      'site TEXT PK1',
      'paused_until INTEGER NOT NULL DEFAULT 0',
      'refuse_until INTEGER NOT NULL DEFAULT 0',
      'refuse_ms INTEGER NOT NULL DEFAULT 0',
    ])
    expect(schema.poll_passes?.map((c) => c.split(' ')[0])).toEqual([
      'id',
      'site',
      'started_at',
      'ended_at',
      'skip',
      'due',
      'gap',
      'clamped',
      'checked',
      'refused',
      'unreachable',
      'no_chapter',
      'unfetchable',
      'errors',
    ])
    expect(schema.series_counts).toEqual(['site TEXT PK1', 'series INTEGER NOT NULL DEFAULT 0', 'eligible INTEGER NOT NULL DEFAULT 0'])
    expect(schema.bookmark_removals).toEqual([
      'reader_id INTEGER NOT NULL PK1',
      'site TEXT NOT NULL PK2',
      'series_id TEXT NOT NULL PK3',
      'removed_at INTEGER NOT NULL',
    ])
    expect(store.sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(store.sqlite.pragma('synchronous', { simple: true })).toBe(2) // FULL
    expect(Number(store.sqlite.pragma('busy_timeout', { simple: true }))).toBeGreaterThan(0)
    await store.close()
  })

  it('re-running on an up-to-date file is a no-op and makes no backup', async () => {
    const file = fresh()
    await openStore(file, { now: 1 }).close()
    const again = openStore(file, { now: 2 })
    expect(again.migration).toEqual({ from: migrations.length, to: migrations.length, backup: null })
    const applied = again.sqlite.prepare('SELECT version, applied_at FROM schema_migrations').all()
    expect(applied).toEqual(migrations.map((_, i) => ({ version: i + 1, applied_at: 1 })))
    await again.close()
    expect(existsSync(`${file}.bak-${migrations.length}`)).toBe(false)
  })

  it('copies an existing database aside before migrating it, and keeps its rows', () => {
    const file = fresh()
    const sqlite = new BetterSqlite3(file)
    sqlite.pragma('journal_mode = WAL')
    migrate(sqlite, file, 1, migrations.slice(0, 1))
    sqlite.prepare("INSERT INTO readers (name, token_hash, created_at) VALUES ('alice', 'h', 1)").run()
    const report = migrate(sqlite, file, 2)
    expect(report).toEqual({ from: 1, to: migrations.length, backup: `${file}.bak-1` })
    expect(sqlite.prepare('SELECT name FROM readers').all()).toEqual([{ name: 'alice' }])
    sqlite.close()
    const copy = new BetterSqlite3(`${file}.bak-1`, { readonly: true })
    expect(schemaVersion(copy)).toBe(1)
    expect(copy.prepare('SELECT name FROM readers').all()).toEqual([{ name: 'alice' }])
    copy.close()
  })

  it('0007 counts the Readers of every Series and the eligible Series of every Site already there, and trims long histories', () => {
    const file = fresh()
    const sqlite = new BetterSqlite3(file)
    sqlite.pragma('foreign_keys = ON')
    migrate(sqlite, file, 1, migrations.slice(0, 6))
    sqlite.exec(`
      INSERT INTO readers (id, name, token_hash, created_at) VALUES (1, 'a', 'h1', 1), (2, 'b', 'h2', 1);
      INSERT INTO series (site, series_id, series_url, finished_at, created_at) VALUES
        ('x', 'two', 'u', 0, 1), ('x', 'one', 'u', 0, 1), ('x', 'orphan', 'u', 0, 1), ('x', 'finished', 'u', 5, 1),
        ('x', 'no-url', '', 0, 1), ('y', 'one', 'u', 0, 1);
      INSERT INTO bookmarks (reader_id, site, series_id, created_at, updated_at) VALUES
        (1, 'x', 'two', 1, 1), (2, 'x', 'two', 1, 1), (1, 'x', 'one', 1, 1), (1, 'x', 'finished', 1, 1),
        (1, 'x', 'no-url', 1, 1), (2, 'y', 'one', 1, 1);`)
    const history = sqlite.prepare(
      "INSERT INTO latest_chapter_history (site, series_id, chapter, source, at) VALUES ('x', 'one', ?, 'check', ?)",
    )
    for (let i = 1; i <= 130; i++) history.run(i, i)
    migrate(sqlite, file, 2)
    expect(sqlite.prepare('SELECT site, series_id, reader_count FROM series ORDER BY site, series_id').all()).toEqual([
      { site: 'x', series_id: 'finished', reader_count: 1 },
      { site: 'x', series_id: 'no-url', reader_count: 1 },
      { site: 'x', series_id: 'one', reader_count: 1 },
      { site: 'x', series_id: 'orphan', reader_count: 0 },
      { site: 'x', series_id: 'two', reader_count: 2 },
      { site: 'y', series_id: 'one', reader_count: 1 },
    ])
    expect(sqlite.prepare('SELECT * FROM series_counts ORDER BY site').all()).toEqual([
      { site: 'x', series: 5, eligible: 2 },
      { site: 'y', series: 1, eligible: 1 },
    ])
    const kept = sqlite.prepare("SELECT MIN(chapter) AS oldest, COUNT(*) AS n FROM latest_chapter_history WHERE series_id = 'one'").get()
    expect(kept).toEqual({ oldest: 31, n: 100 })
    sqlite.close()
  })

  it("0015 takes the CHECK off a channel's kind and keeps every channel and waiting message, ids and all", () => {
    const file = fresh()
    const sqlite = new BetterSqlite3(file)
    sqlite.pragma('foreign_keys = ON')
    migrate(sqlite, file, 1, migrations.slice(0, 14))
    sqlite.exec(`
      INSERT INTO readers (id, name, token_hash, created_at) VALUES (1, 'a', 'h1', 1);
      INSERT INTO notify_channels (id, reader_id, kind, target, secret, failures, created_at) VALUES
        (4, 1, 'ntfy', 'https://ntfy.example/t', '{"token":"x"}', 2, 7), (9, NULL, 'webhook', 'https://hook.example/', '{}', 0, 8);
      INSERT INTO notify_outbox (id, channel_id, message, created_at, attempts, delivery_id) VALUES
        (3, 4, '{"m":1}', 10, 1, 'mb-aaa'), (5, 9, '{"m":2}', 11, 0, 'mb-bbb');`)
    expect(() => sqlite.exec("INSERT INTO notify_channels (reader_id, kind, target, created_at) VALUES (1, 'matrix', 'u', 1)")).toThrow(
      /CHECK/,
    )
    const before = {
      channels: sqlite.prepare('SELECT * FROM notify_channels ORDER BY id').all(),
      outbox: sqlite.prepare('SELECT * FROM notify_outbox ORDER BY id').all(),
    }
    migrate(sqlite, file, 2, migrations.slice(0, 15))
    expect(sqlite.prepare('SELECT * FROM notify_channels ORDER BY id').all()).toEqual(before.channels)
    expect(sqlite.prepare('SELECT * FROM notify_outbox ORDER BY id').all()).toEqual(before.outbox)
    sqlite.exec("INSERT INTO notify_channels (reader_id, kind, target, created_at) VALUES (1, 'matrix', 'u', 1)")
    // The outbox still belongs to its channels: removing one takes its messages with it.
    sqlite.exec('DELETE FROM notify_channels WHERE id = 4')
    expect(sqlite.prepare('SELECT id FROM notify_outbox').all()).toEqual([{ id: 5 }])
    expect(sqlite.pragma('foreign_key_check')).toEqual([])
    sqlite.close()
  })

  it('a failing migration is rolled back whole and recorded nowhere', () => {
    const file = fresh()
    const sqlite = new BetterSqlite3(file)
    const broken = [...migrations, { name: '0999_broken', up: 'CREATE TABLE half (x INTEGER); SELECT nope FROM nowhere;' }]
    expect(() => migrate(sqlite, file, 1, broken)).toThrow(
      expect.objectContaining({
        code: 'invalid',
        message: expect.stringMatching(/^store: migration 0999_broken failed and was rolled back: /),
      }),
    )
    expect(schemaVersion(sqlite)).toBe(migrations.length)
    expect(sqlite.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined()
    sqlite.close()
  })

  it('refuses a database newer than the app', () => {
    const file = fresh()
    const sqlite = new BetterSqlite3(file)
    migrate(sqlite, file, 1)
    sqlite.prepare("INSERT INTO schema_migrations VALUES (99, '0099_future', 1)").run()
    expect(() => migrate(sqlite, file, 2)).toThrow(
      expect.objectContaining({
        code: 'invalid',
        message: `store: database schema version 99 is newer than this app knows (${migrations.length}); refusing to open it`,
      }),
    )
    sqlite.close()
  })

  it('are applied in version order, whatever order they are listed in', () => {
    const sqlite = new BetterSqlite3(':memory:')
    const list = [
      { name: '0003_third', up: 'ALTER TABLE t ADD COLUMN c INTEGER' },
      { name: '0001_first', up: 'CREATE TABLE t (a INTEGER)' },
      { name: '0002_second', up: 'ALTER TABLE t ADD COLUMN b INTEGER' },
    ]
    expect(migrate(sqlite, null, 1, list)).toEqual({ from: 0, to: 3, backup: null })
    expect(sqlite.prepare('SELECT version, name FROM schema_migrations ORDER BY rowid').all()).toEqual([
      { version: 1, name: '0001_first' },
      { version: 2, name: '0002_second' },
      { version: 3, name: '0003_third' },
    ])
    sqlite.close()
  })

  it.each(['x0001_initial', '0001_initial.ts', '001_initial', '0001-initial', '0001_'])('a migration named "%s" is refused', (name) => {
    expect(() => versionOf({ name, up: '' })).toThrow(
      expect.objectContaining({ code: 'invalid', message: `store: migration name "${name}" is not NNNN_name` }),
    )
  })

  it('never overwrites an earlier copy: the next one gets a number of its own', () => {
    const file = fresh()
    const sqlite = new BetterSqlite3(file)
    migrate(sqlite, file, 1, migrations.slice(0, 1))
    writeFileSync(`${file}.bak-1`, 'an earlier copy')
    writeFileSync(`${file}.bak-1.1`, 'another earlier copy')
    expect(migrate(sqlite, file, 2).backup).toBe(`${file}.bak-1.2`)
    sqlite.close()
    expect(readFileSync(`${file}.bak-1`, 'utf8')).toBe('an earlier copy')
    expect(readFileSync(`${file}.bak-1.1`, 'utf8')).toBe('another earlier copy')
    const copy = new BetterSqlite3(`${file}.bak-1.2`, { readonly: true })
    expect(schemaVersion(copy)).toBe(1)
    copy.close()
  })
})

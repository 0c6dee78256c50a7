import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { migrations } from '../../../migrations'
import { tempDir } from '../testing/store'
import { STORE_FILE } from './database'
import { migrate } from './migrate'

// reader_site_counts (migration 0011; docs/adr/0081-one-reader-bounded.md): each Reader's bookmarks
// per Site, kept by triggers whoever writes the bookmarks — always what a count of the bookmarks says.
const dirs: Array<{ remove(): void }> = []
afterEach(() => dirs.splice(0).forEach((d) => d.remove()))

function open(upTo = migrations.length): BetterSqlite3.Database {
  const d = tempDir()
  dirs.push(d)
  const file = join(d.dir, STORE_FILE)
  const sqlite = new BetterSqlite3(file)
  sqlite.pragma('foreign_keys = ON')
  migrate(sqlite, file, 1, migrations.slice(0, upTo))
  sqlite.exec(`
    INSERT INTO readers (id, name, token_hash, created_at) VALUES (1, 'a', 'h1', 1), (2, 'b', 'h2', 1), (3, 'c', 'h3', 1);
    INSERT INTO series (site, series_id, series_url, created_at) VALUES
      ('x', 's1', 'u', 1), ('x', 's2', 'u', 1), ('x', 's3', 'u', 1), ('y', 's1', 'u', 1);
    INSERT INTO bookmarks (reader_id, site, series_id, created_at, updated_at) VALUES
      (1, 'x', 's1', 1, 1), (1, 'x', 's2', 1, 1), (1, 'x', 's3', 1, 1), (2, 'x', 's1', 1, 1), (2, 'y', 's1', 1, 1),
      (3, 'y', 's1', 1, 1);`)
  return sqlite
}

const counts = (sqlite: BetterSqlite3.Database) =>
  sqlite.prepare('SELECT site, reader_id, bookmarks FROM reader_site_counts ORDER BY site, reader_id').all()
const recount = (sqlite: BetterSqlite3.Database) =>
  sqlite.prepare('SELECT site, reader_id, COUNT(*) AS bookmarks FROM bookmarks GROUP BY site, reader_id ORDER BY site, reader_id').all()

describe('reader_site_counts', () => {
  it('counts the bookmarks already there when the migration runs, and those added after', () => {
    const sqlite = open(migrations.length - 1)
    migrate(sqlite, null, 2)
    expect(counts(sqlite)).toEqual([
      { site: 'x', reader_id: 1, bookmarks: 3 },
      { site: 'x', reader_id: 2, bookmarks: 1 },
      { site: 'y', reader_id: 2, bookmarks: 1 },
      { site: 'y', reader_id: 3, bookmarks: 1 },
    ])
    sqlite.exec(
      `INSERT INTO bookmarks (reader_id, site, series_id, created_at, updated_at) VALUES (3, 'x', 's2', 2, 2), (2, 'x', 's2', 2, 2)`,
    )
    expect(counts(sqlite)).toEqual(recount(sqlite))
    expect(counts(sqlite)).toContainEqual({ site: 'x', reader_id: 2, bookmarks: 2 })
    sqlite.close()
  })

  it('a removed bookmark counts one fewer, and a Reader with none left on a Site has no row', () => {
    const sqlite = open()
    sqlite.exec(`DELETE FROM bookmarks WHERE reader_id = 1 AND series_id = 's1'; DELETE FROM bookmarks WHERE reader_id = 3`)
    expect(counts(sqlite)).toEqual([
      { site: 'x', reader_id: 1, bookmarks: 2 },
      { site: 'x', reader_id: 2, bookmarks: 1 },
      { site: 'y', reader_id: 2, bookmarks: 1 },
    ])
    sqlite.close()
  })

  it('a removed Reader or Series takes its bookmarks off the counts (the cascades fire the triggers)', () => {
    const sqlite = open()
    sqlite.exec(`DELETE FROM readers WHERE id = 2; DELETE FROM series WHERE site = 'x' AND series_id = 's3'`)
    expect(counts(sqlite)).toEqual([
      { site: 'x', reader_id: 1, bookmarks: 2 },
      { site: 'y', reader_id: 3, bookmarks: 1 },
    ])
    expect(counts(sqlite)).toEqual(recount(sqlite))
    sqlite.close()
  })

  it('a bookmark moved to another Site or Reader is counted where it went', () => {
    const sqlite = open()
    sqlite.exec(`UPDATE bookmarks SET site = 'y', series_id = 's1', reader_id = 1 WHERE reader_id = 1 AND series_id = 's3'`)
    sqlite.exec(`UPDATE bookmarks SET reader_id = 3 WHERE reader_id = 2 AND site = 'x'`)
    expect(counts(sqlite)).toEqual(recount(sqlite))
    expect(counts(sqlite)).toEqual([
      { site: 'x', reader_id: 1, bookmarks: 2 },
      { site: 'x', reader_id: 3, bookmarks: 1 },
      { site: 'y', reader_id: 1, bookmarks: 1 },
      { site: 'y', reader_id: 2, bookmarks: 1 },
      { site: 'y', reader_id: 3, bookmarks: 1 },
    ])
    sqlite.close()
  })
})

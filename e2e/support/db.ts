/** Direct reads and writes of the shell's SQLite file, as tests outside the code base would make them. */
import BetterSqlite3 from 'better-sqlite3'

export function withDb<T>(file: string, work: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(file)
  db.pragma('busy_timeout = 5000')
  try {
    return work(db)
  } finally {
    db.close()
  }
}

/** Inserts `count` bookmarked Series on a Site (one Reader holding every other one). */
export function seedManySeries(file: string, site: string, count: number): void {
  withDb(file, (db) => {
    db.prepare("INSERT OR IGNORE INTO readers (name, token_hash, created_at) VALUES ('Bulk', 'bulk-hash', 1)").run()
    const reader = (db.prepare("SELECT id FROM readers WHERE name = 'Bulk'").get() as { id: number }).id
    const series = db.prepare(
      'INSERT INTO series (site, series_id, title, series_url, latest_chapter, latest_checked_at, created_at) VALUES (?, ?, ?, ?, ?, ?, 1)',
    )
    const bookmark = db.prepare('INSERT INTO bookmarks (reader_id, site, series_id, created_at, updated_at) VALUES (?, ?, ?, 1, 1)')
    const now = Date.now()
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const id = `bulk-${String(i).padStart(5, '0')}`
        series.run(
          site,
          id,
          `Bulk Series ${String(i).padStart(5, '0')}`,
          `https://mangadex.org/title/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          i % 300,
          now - 60_000,
        )
        if (i % 2 === 0) bookmark.run(reader, site, id)
      }
    })()
  })
}

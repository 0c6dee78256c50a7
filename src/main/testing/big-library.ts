/**
 * A data directory holding one Reader with `count` bookmarks (each on its own Series), written with bare
 * prepared INSERTs through the app's own migrations: the library of the big-read test and `export-50k` bench.
 */
import { join } from 'node:path'
import { openStore, STORE_FILE } from '../store/database'

export async function seedBigLibrary(dataDir: string, count: number, now: number): Promise<void> {
  const store = openStore(join(dataDir, STORE_FILE), { now })
  try {
    const s = store.sqlite
    s.prepare("INSERT INTO readers (name, token_hash, created_at) VALUES ('big', 'not-a-token-hash', ?)").run(now)
    const series = s.prepare(
      "INSERT INTO series (site, series_id, title, series_url, latest_chapter, created_at) VALUES ('bench-a', ?, ?, ?, 40, ?)",
    )
    const bookmark = s.prepare(
      "INSERT INTO bookmarks (reader_id, site, series_id, status, progress, progress_at, created_at, updated_at) VALUES (1, 'bench-a', ?, 'reading', 30, ?, ?, ?)",
    )
    s.transaction(() => {
      for (let i = 0; i < count; i++) {
        series.run(`s${i}`, `A Series of the big library, number ${i}`, `https://bench-a.example/manga/s${i}/`, now)
        bookmark.run(`s${i}`, now, now, now)
      }
    })()
  } finally {
    await store.close()
  }
}

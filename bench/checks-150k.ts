/**
 * checks-150k: `GET /api/v1/checks` of a Reader with 150,000 bookmarks (docs/adr/0218-the-readers-next-check.md,
 * docs/adr/0234-the-checks-answer-in-pages.md), in the bench's process against the sync endpoint on a loopback port
 * and a real SQLite file, while `/api/v1/health` is asked every 10 ms. Value: the slowest `/health` or loop delay
 * while the whole list is read page by page (target < 100 ms); the note says the pages' count and total time.
 */
import { startTestSyncServer } from '../src/main/testing/sync-server'
import { loopProbe } from './loop-probe'
import type { BenchResult } from './run'

const BOOKMARKS = Number(process.env.CHECKS_BOOKMARKS ?? 150_000)

export async function checks150k(): Promise<BenchResult> {
  const s = await startTestSyncServer()
  try {
    const db = s.store.sqlite
    const addSeries = db.prepare(
      "INSERT INTO series (site, series_id, title, series_url, latest_chapter, latest_checked_at, next_check_at, created_at) VALUES ('fixture-madara', ?, ?, ?, 10, ?, ?, 1)",
    )
    const addBookmark = db.prepare(
      "INSERT INTO bookmarks (reader_id, site, series_id, status, progress, progress_at, created_at, updated_at) VALUES (?, 'fixture-madara', ?, 'reading', 9, 1, 1, 1)",
    )
    const now = s.clock.now()
    db.transaction(() => {
      for (let i = 0; i < BOOKMARKS; i++) {
        const id = `s${String(i).padStart(6, '0')}`
        addSeries.run(id, `Series ${i}`, `${s.fixture.origin}/madara/manga/${id}/`, now - (i % 3_600) * 1_000, now + (i % 7_200) * 1_000)
        addBookmark.run(s.alice.id, id)
      }
    })()
    // As a library long in the store: its pages in the database file, not waiting in the WAL for a checkpoint.
    db.pragma('wal_checkpoint(TRUNCATE)')
    const port = Number(new URL(s.origin).port)
    const probe = loopProbe(port)
    const started = performance.now()
    let pages = 0
    let checks = 0
    let slowestPage = 0
    let after: string | undefined
    do {
      const t = performance.now()
      const r = await s.call(s.alice.token, 'GET', `/api/v1/checks${after ? `?after=${encodeURIComponent(after)}` : ''}`)
      slowestPage = Math.max(slowestPage, performance.now() - t)
      if (r.status !== 200) throw new Error(`checks: ${r.status} ${JSON.stringify(r.json)}`)
      pages++
      checks += r.json.checks.length
      after = r.json.next
    } while (after)
    const totalMs = performance.now() - started
    const blocked = await probe.stop()
    if (checks !== BOOKMARKS) throw new Error(`checks: ${checks} of ${BOOKMARKS}`)
    return {
      name: 'checks-150k',
      value: Math.round(blocked.worst),
      unit: 'ms',
      baseline: 100,
      ratio: blocked.worst / 100,
      target: '< 100',
      pass: blocked.worst < 100,
      note: `${checks} checks in ${pages} pages, ${Math.round(totalMs)} ms in all, slowest page ${Math.round(slowestPage)} ms; /health ≤ ${Math.round(blocked.health)} ms, loop delay ≤ ${Math.round(blocked.loop)} ms`,
    }
  } finally {
    await s.close()
  }
}

if (process.argv[1]?.endsWith('checks-150k.ts')) void checks150k().then((r) => console.log(JSON.stringify(r)))

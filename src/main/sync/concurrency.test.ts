/**
 * 50 clients × 100 Progress writes at once against the real server: every acknowledged write is there
 * afterwards — each bookmark holds the acknowledged write with the latest progressAt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addBookmark } from '../store/bookmarks'
import { addSeries } from '../store/series'
import { createReader } from '../use-cases/reader-tokens'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer
const CLIENTS = 50
const WRITES = 100
const readers: Array<{ id: number; token: string }> = []

beforeAll(async () => {
  s = await startTestSyncServer()
  for (let i = 0; i < 10; i++)
    await addSeries(s.store.db, { site: 'fixture-madara', seriesId: `s${i}`, seriesUrl: `${s.fixture.origin}/madara/manga/s${i}/`, now: 1 })
  // 25 Readers, two clients each (a phone and a laptop), every Reader holding all ten Series.
  for (let r = 0; r < CLIENTS / 2; r++) {
    const { reader, token } = await createReader(s.store.db, `reader ${r}`, 1)
    readers.push({ id: reader.id, token })
    for (let i = 0; i < 10; i++) await addBookmark(s.store.db, { site: 'fixture-madara', seriesId: `s${i}`, readerId: reader.id, now: 1 })
  }
})
afterAll(() => s.close())

describe('concurrent Progress writes', () => {
  it('keeps every acknowledged write: each bookmark ends at its latest acknowledged progressAt', async () => {
    // The latest acknowledged write per (reader, series).
    const expected = new Map<string, { progress: number; progressAt: number }>()
    let acknowledged = 0
    const client = async (c: number) => {
      const reader = readers[c % readers.length]!
      for (let w = 0; w < WRITES; w++) {
        const series = `s${(c * 7 + w) % 10}`
        // Interleaved times across the two clients of a Reader, some arriving late.
        const progressAt = 10_000 + w * 100 + (c < readers.length ? 0 : 50) - (w % 3 === 0 ? 250 : 0)
        const progress = progressAt / 100
        const response = await fetch(`${s.origin}/api/v1/bookmarks/fixture-madara/${series}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${reader.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ progress, progressAt }),
        })
        expect(response.status).toBe(200)
        await response.arrayBuffer()
        acknowledged++
        const key = `${reader.id}/${series}`
        const best = expected.get(key)
        if (!best || progressAt > best.progressAt) expected.set(key, { progress, progressAt })
      }
    }
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)))
    expect(acknowledged).toBe(CLIENTS * WRITES)
    const rows = await s.store.db.selectFrom('bookmarks').select(['reader_id', 'series_id', 'progress', 'progress_at']).execute()
    const stored = new Map(rows.map((r) => [`${r.reader_id}/${r.series_id}`, { progress: r.progress, progressAt: r.progress_at }]))
    for (const [key, value] of expected) expect(stored.get(key), key).toEqual(value)
  })
})

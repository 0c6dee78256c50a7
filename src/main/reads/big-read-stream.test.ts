/**
 * Big reads streamed (docs/adr/0176-big-reads-streamed.md): the worker's chunks, put together, are byte for byte
 * the text the whole answer made with `JSON.stringify` (or toCsv) — for a library with odd titles, several
 * Readers, stored chapters, a paused Lane, a Series nobody bookmarked — and the stream follows its reader: a
 * socket that stops reading holds the worker only until `stallMs`, one that closes frees it at once.
 */
import type { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLog } from '../log'
import { createRegistry } from '../sites/registry'
import { addBookmark } from '../store/bookmarks'
import { addSeries } from '../store/series'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { exportLibrary, exportReader, exportReaderCsv } from '../use-cases/library-export'
import { bigReadBytes, CHUNK_CHARS } from './big-read-jobs'
import { startBigReads, type BigReads } from './big-reads'
import { presentAll } from './present'

const ODD = [
  'Tower "of" God, Part 2',
  '=cmd|calc',
  'L\u202eevil\u202c',
  'back\\slash\nnew line\r\n',
  'séries ☃ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u2028 \u2029',
  '\u0000 nul',
  '',
  'Ｚ full width',
  "'quoted",
]
const SERIES = 600
let store: TestStore
let reads: BigReads
const readers: number[] = []
const text = async (answer: Promise<Readable>) => Buffer.concat(await (await answer).toArray()).toString('utf8')

beforeAll(async () => {
  store = openTestStore()
  const { db } = store
  for (const name of ['Zoë', 'al"ice', 'bob']) readers.push(await seedReader(db, name))
  await seedReader(db, 'nobody') // a Reader with no bookmark
  for (let i = 0; i < SERIES; i++) {
    const site = ['site-b', 'site-a', 'Site-c'][i % 3]!
    const seriesId = `s${(i * 7919) % SERIES}`
    const title = `${ODD[i % ODD.length]} ${i % 5 === 0 ? 'same' : i}`
    await addSeries(db, { site, seriesId, title, seriesUrl: `https://${site}.test/${seriesId}?a=1,b="2"`, now: 10 + i })
    const latest = i % 4 === 0 ? null : (i % 50) + (i % 3 === 0 ? 0.5 : 0)
    await db
      .updateTable('series')
      .set({
        latest_chapter: latest,
        latest_chapter_label: `Ch. ${latest} «${title}»`,
        latest_changed_at: 100 + i,
        finished_at: i % 9 === 0 ? 5 : 0,
      })
      .where('site', '=', site)
      .where('series_id', '=', seriesId)
      .execute()
    if (i % 2 === 0 && latest !== null) {
      const chapters = Array.from({ length: 8 }, (_, k) => ({
        site,
        series_id: seriesId,
        number: latest - k,
        label: `Chapter ${latest - k} "x"`,
        url: `https://${site}.test/${seriesId}/${k}`,
        first_seen_at: 50 + k,
        vanished_at: k === 3 ? 60 : 0,
      }))
      await db.insertInto('chapters').values(chapters).execute()
    }
    for (const [r, readerId] of readers.entries()) {
      if ((i + r) % (r + 1) !== 0 || i === SERIES - 1) continue
      await addBookmark(db, { site, seriesId, readerId, now: 20 + i })
      const progress = (i + r) % 3 === 0 ? null : (i % 40) + r
      await db
        .updateTable('bookmarks')
        .set({
          progress,
          progress_at: progress === null ? 0 : 30 + i,
          status: (['reading', 'waiting', 'planned', 'dropped'] as const)[(i + r) % 4]!,
        })
        .where('reader_id', '=', readerId)
        .where('site', '=', site)
        .where('series_id', '=', seriesId)
        .execute()
    }
  }
  await db.insertInto('poll_lanes').values({ site: 'paused-only', paused_until: 10_000 }).execute()
  reads = startBigReads({ file: store.file, db, registry: createRegistry([]), log: silentLog, stallMs: 200, chunksAhead: 1 })
}, 60_000)
afterAll(async () => {
  await reads?.close()
  await store?.dispose()
})

const deps = () => ({ db: store.db, registry: createRegistry([]), now: 5_000 })

describe('a big read streamed from the worker', () => {
  it("a full sync is the whole answer's JSON text, byte for byte, in many chunks", async () => {
    for (const readerId of readers) {
      const whole = JSON.stringify({ bookmarks: await presentAll(store.db, readerId), now: 5_000 })
      expect(whole.length).toBeGreaterThan(CHUNK_CHARS)
      expect(await text(reads.fullSync(readerId, 5_000))).toBe(whole)
    }
    const bookmarks = await presentAll(store.db, readers[0]!)
    expect(await text(reads.fullSync(readers[0]!, 6, true))).toBe(JSON.stringify({ bookmarks, now: 6, deleted: [], full: true }))
    expect(await text(reads.fullSync(999, 7))).toBe(JSON.stringify({ bookmarks: [], now: 7 }))
  })

  it("the library's export and each Reader's, JSON and CSV, are the documents made whole, byte for byte", async () => {
    expect(await text(reads.exportLibrary(5_000))).toBe(JSON.stringify(await exportLibrary(deps())))
    for (const readerId of [...readers, 999]) {
      expect(await text(reads.exportReader(readerId, 5_000, 'json'))).toBe(JSON.stringify(await exportReader(deps(), readerId)))
      expect(await text(reads.exportReader(readerId, 5_000, 'csv'))).toBe(await exportReaderCsv(deps(), readerId))
    }
  })

  it('made on the calling thread (no worker), the text is the same', async () => {
    const job = { kind: 'export' as const, now: 5_000, sites: [] }
    expect((await bigReadBytes(store.db, job)).toString('utf8')).toBe(JSON.stringify(await exportLibrary(deps())))
  })

  it('a stream closed early stops its read, and one nobody reads is given up after stallMs; the next read is whole', async () => {
    const closed = await reads.exportLibrary(5_000)
    closed.destroy()
    const stalled = await reads.exportLibrary(5_000)
    const failed = new Promise<Error>((resolve) => stalled.once('error', resolve))
    // Not read: the worker sends its one chunk ahead, then waits for room that never comes.
    expect((await failed).message).toMatch(/no chunk taken for 200 ms/)
    expect(await text(reads.fullSync(readers[1]!, 5_000))).toBe(
      JSON.stringify({ bookmarks: await presentAll(store.db, readers[1]!), now: 5_000 }),
    )
  })
})

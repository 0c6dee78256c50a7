/**
 * Big reads off the event loop (docs/adr/0093-big-reads-off-the-event-loop.md): a full sync of a Reader with
 * 50,000 bookmarks and the whole library's export through the admin listener, on the real app (loopback
 * ports, a real SQLite file). The main thread's longest stall is measured with `monitorEventLoopDelay` while
 * they run: before, each held it for seconds (the issue measured 5 s); now the reads run in a worker thread.
 * The bound is loose (a shared, busy machine); the bench `export-50k` measures `/health` against 100 ms.
 */
import { rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExportDocument } from '../../shared/export-format'
import { startApp, type RunningApp } from '../app'
import { silentLog } from '../log'
import { BUILT_IN_SITES } from '../sites/builtin'
import { seedBigLibrary } from '../testing/big-library'
import { adminSessionCookie } from '../testing/admin-session'
import { createReader } from '../use-cases/reader-tokens'
import { createRegistry } from '../sites/registry'
import { addBookmark } from '../store/bookmarks'
import { addSeries } from '../store/series'
import { openTestStore, seedReader, tempDir } from '../testing/store'
import { openStore } from '../store/database'
import { restoreFile } from '../store/restore'
import { startBigReads } from './big-reads'
import { presentAll } from './present'
import { exportReader, exportReaderCsv } from '../use-cases/library-export'

const BOOKMARKS = 50_000
/** A streamed answer's whole text. */
const text = async (answer: Promise<Readable>) => Buffer.concat(await (await answer).toArray()).toString('utf8')
const TOKEN = 'test-admin-token-0123456789'
let app: RunningApp
let dir: { dir: string; remove(): void }
let readerToken = ''
let cookie = ''

beforeAll(async () => {
  dir = tempDir('mb-big-reads-')
  await seedBigLibrary(dir.dir, BOOKMARKS, Date.now() - 60_000)
  app = await startApp({
    shell: 'headless',
    dataDir: dir.dir,
    log: silentLog,
    port: 0,
    sites: BUILT_IN_SITES,
    lanes: false,
    adminHttp: { token: TOKEN, port: 0 },
  })
  readerToken = (await createReader(app.core.store.db, 'phone', Date.now())).token
  await app.core.store.db
    .updateTable('bookmarks')
    .set({
      reader_id: (await app.core.store.db.selectFrom('readers').select('id').where('name', '=', 'phone').executeTakeFirstOrThrow()).id,
    })
    .execute()
  cookie = await adminSessionCookie(app.adminPort!, TOKEN)
}, 120_000)
afterAll(async () => {
  await app?.stop()
  dir?.remove()
})

/** The longest the main thread stalled while `work` ran, in ms; the answer's bytes are read, not parsed, meanwhile. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ stallMs: number; result: T }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  const result = await work()
  histogram.disable()
  return { stallMs: histogram.max / 1e6, result }
}

function adminExport(): Promise<Buffer> {
  const host = `127.0.0.1:${app.adminPort}`
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: app.adminPort,
        method: 'POST',
        path: '/admin/rpc/exportLibrary',
        headers: { host, origin: `http://${host}`, 'content-type': 'application/json', cookie },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve(Buffer.concat(chunks)))
      },
    )
    req.on('error', reject)
    req.end('{}')
  })
}

describe('a Reader with 50,000 bookmarks', () => {
  it('a full sync answers every bookmark without stalling the main thread', { timeout: 120_000 }, async () => {
    const { stallMs, result } = await longestStall(async () => {
      const response = await fetch(`${app.origin}/api/v1/bookmarks`, { headers: { authorization: `Bearer ${readerToken}` } })
      return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) }
    })
    expect(result.status).toBe(200)
    expect(result.type).toMatch(/^application\/json/)
    const body = JSON.parse(result.bytes.toString('utf8')) as { bookmarks: Array<{ seriesId: string; progress: number }>; now: number }
    expect(body.bookmarks).toHaveLength(BOOKMARKS)
    expect(body.bookmarks[0]).toMatchObject({ site: 'bench-a', progress: 30, unreadCount: 10 })
    expect(Object.keys(body).sort()).toEqual(['bookmarks', 'now'])
    expect(stallMs).toBeLessThan(1_000)
  })
  it('the admin export of the library answers the whole document without stalling the main thread', { timeout: 120_000 }, async () => {
    const { stallMs, result } = await longestStall(adminExport)
    const doc = (JSON.parse(result.toString('utf8')) as { value: ExportDocument }).value
    expect(doc.readers.find((r) => r.name === 'phone')?.bookmarks).toHaveLength(BOOKMARKS)
    expect(doc.series).toHaveLength(BOOKMARKS)
    expect(doc.sites).toEqual([{ key: 'bench-a', name: 'bench-a', hosts: [] }])
    expect(stallMs).toBeLessThan(1_000)
  })
})

describe("a Reader's own export through the running app", () => {
  it('JSON and CSV come chunked from the worker, the same as made whole on the main thread', { timeout: 120_000 }, async () => {
    const get = (query: string) => fetch(`${app.origin}/api/v1/export${query}`, { headers: { authorization: `Bearer ${readerToken}` } })
    const db = app.core.store.db
    const reader = (await db.selectFrom('readers').select('id').where('name', '=', 'phone').executeTakeFirstOrThrow()).id
    const csv = await get('?format=csv')
    expect(csv.headers.get('transfer-encoding')).toBe('chunked')
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(await csv.text()).toBe(await exportReaderCsv({ db }, reader))
    const json = await get('')
    expect(json.headers.get('transfer-encoding')).toBe('chunked')
    const text = await json.text()
    const { exportedAt } = JSON.parse(text) as ExportDocument
    expect(text).toBe(JSON.stringify(await exportReader({ db, registry: app.core.registry, now: exportedAt }, reader)))
  })
})

describe('the big-read worker', () => {
  it('answers from its own read-only connection what the main thread would, and a write after its answer comes with the next read', async () => {
    const store = openTestStore()
    const reads = startBigReads({ file: store.file, db: store.db, registry: createRegistry([]), log: silentLog })
    try {
      const readerId = await seedReader(store.db, 'small')
      await addSeries(store.db, { site: 'x', seriesId: 'a', seriesUrl: '', now: 1 })
      await addBookmark(store.db, { site: 'x', seriesId: 'a', readerId, now: 1 })
      const first = JSON.parse(await text(reads.fullSync(readerId, 5, true)))
      expect(first).toEqual({ bookmarks: await presentAll(store.db, readerId), now: 5, deleted: [], full: true })
      await addSeries(store.db, { site: 'x', seriesId: 'b', seriesUrl: '', now: 2 })
      await addBookmark(store.db, { site: 'x', seriesId: 'b', readerId, now: 2 })
      const second = JSON.parse(await text(reads.fullSync(readerId, 6)))
      expect(second.bookmarks.map((b: { seriesId: string }) => b.seriesId)).toEqual(['a', 'b'])
    } finally {
      await reads.close()
      await store.dispose()
    }
  })
  it('after a restore renames another file over the store, it reads the restored file, not the one kept aside', async () => {
    const live = openTestStore()
    const backup = openTestStore()
    const reads = startBigReads({ file: live.file, db: live.db, registry: createRegistry([]), log: silentLog })
    let reopened: Awaited<ReturnType<typeof openStore>> | undefined
    try {
      for (const [store, seriesId] of [
        [live, 'before-restore'],
        [backup, 'from-backup'],
      ] as const) {
        const readerId = await seedReader(store.db, 'same')
        await addSeries(store.db, { site: 'x', seriesId, seriesUrl: '', now: 1 })
        await addBookmark(store.db, { site: 'x', seriesId, readerId, now: 1 })
      }
      const ids = async () => JSON.parse(await text(reads.fullSync(1, 5))).bookmarks.map((b: { seriesId: string }) => b.seriesId)
      expect(await ids()).toEqual(['before-restore'])
      await backup.close()
      await live.close()
      restoreFile(backup.file, live.file, 7)
      reopened = openStore(live.file, { now: 8 })
      expect(await ids()).toEqual(['from-backup'])
    } finally {
      await reads.close()
      await reopened?.close()
      for (const store of [live, backup]) rmSync(store.dir, { recursive: true, force: true })
    }
  })
  it('where its worker cannot open the file, the read runs on the calling thread, said in the log', async () => {
    const store = openTestStore()
    const errors: string[] = []
    const log = { ...silentLog, error: (_obj: unknown, msg: string) => void errors.push(msg) } as unknown as typeof silentLog
    const reads = startBigReads({ file: `${store.file}.missing`, db: store.db, registry: createRegistry([]), log })
    try {
      const readerId = await seedReader(store.db, 'small')
      expect(JSON.parse(await text(reads.fullSync(readerId, 5)))).toEqual({ bookmarks: [], now: 5 })
      expect(errors.some((m) => m.includes('big-read worker'))).toBe(true)
    } finally {
      await reads.close()
      await store.dispose()
    }
  })
})

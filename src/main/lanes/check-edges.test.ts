/**
 * One check at its edges: what it costs the store in the steady state (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md:
 * a check writes twice), and a stop that arrives with an answer in hand — the answer is not used, nothing is
 * kept on the Series, nothing is logged as a fault. A real SQLite file and a fake clock.
 */
import { Writable } from 'node:stream'
import type { KyselyPlugin } from 'kysely'
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FetchResult } from '../fetch/fetcher'
import { silentLog, type Log } from '../log'
import { inlineReader, type PageReader } from '../sites/page-reader'
import type { Db } from '../store/database'
import { requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { checkSeries, type CheckContext } from './check'

const SERIES_URL = 'https://a.example/manga/s'
const key = { site: 'a', seriesId: 's' }
const target = { site: 'a', series_id: 's', series_url: SERIES_URL }
const chapterPage = (n: number): FetchResult => ({
  kind: 'page',
  page: { url: SERIES_URL, status: 200, contentType: 'text/plain', body: String(n) },
})

let store: TestStore
let clock: FakeClock
let http: FakeFetcher

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  http = new FakeFetcher('http', clock)
  const alice = await seedReader(store.db, 'alice')
  await seedSeries(store.db, { id: 's', title: 'Title from a', readers: [alice], latest: 7, checkedAt: clock.now() - 3_600_000 })
})
afterEach(() => store.dispose())

const check = (ctx: Partial<CheckContext> = {}, signal?: AbortSignal) =>
  checkSeries({ db: store.db, clock, log: silentLog, ...ctx }, testSite('a'), http, target, signal)

/** The store, recording the table of every write. */
function recordingWrites(): { db: Db; writes: string[] } {
  const writes: string[] = []
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      const node = args.node as {
        kind: string
        table?: { table: { identifier: { name: string } } }
        into?: { table: { identifier: { name: string } } }
      }
      if (node.kind === 'UpdateQueryNode' || node.kind === 'InsertQueryNode' || node.kind === 'DeleteQueryNode')
        writes.push((node.table ?? node.into)?.table.identifier.name ?? '?')
      return args.node
    },
    transformResult: async (args) => args.result,
  }
  return { db: store.db.withPlugin(plugin), writes }
}

/** A log that keeps every line at warn or above. */
function keptLog(): { log: Log; lines: string[] } {
  const lines: string[] = []
  const log = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) })) as Log
  return { log, lines }
}

describe('what a check costs the store', () => {
  it('a check that finds the same chapter writes the Series twice: the stamp, then the record', async () => {
    http.respond = () => chapterPage(7)
    // The first check stores the chapter list (docs/adr/0072, one statement); a list unchanged since is read, not written.
    await check()
    expect(await store.db.selectFrom('chapters').select('number').execute()).toEqual([{ number: 7 }])
    await clock.advance(3_600_000)
    const { db, writes } = recordingWrites()
    expect(await check({ db })).toMatchObject({ outcome: 'chapter', latest: { newChapter: false } })
    expect(writes).toEqual(['series', 'series'])
    expect(await requireSeries(store.db, key)).toMatchObject({ latest_chapter: 7, last_outcome: 'chapter', last_error: '' })
  })

  it('a check that finds no chapter writes the stamp, then its outcome', async () => {
    http.respond = () => ({ kind: 'page', page: { url: SERIES_URL, status: 200, contentType: 'text/plain', body: '' } })
    const { db, writes } = recordingWrites()
    expect(await check({ db })).toMatchObject({ outcome: 'no-chapter' })
    expect(writes).toEqual(['series', 'series'])
  })
  it("a fixed Site's check stamps the Series first: it plans nothing, so it reads no previous stamp", async () => {
    http.respond = () => chapterPage(7)
    const kinds: string[] = []
    const db = store.db.withPlugin({
      transformQuery: (args) => (kinds.push(args.node.kind), args.node),
      transformResult: async (args) => args.result,
    })
    expect(await check({ db })).toMatchObject({ outcome: 'chapter' })
    // (The connection's sync setting, a raw PRAGMA, is set around the stamp: docs/adr/0205-….)
    expect(kinds.filter((kind) => kind !== 'RawNode')[0]).toBe('UpdateQueryNode')
  })
})

describe("which of a check's commits wait for the disk (docs/adr/0205-which-writes-wait-for-the-disk.md)", () => {
  /** The store, recording the connection's `synchronous` level (1 NORMAL, 2 FULL) at each write. */
  function recordingLevels(): { db: Db; levels: Array<[string, number]> } {
    const levels: Array<[string, number]> = []
    const db = store.db.withPlugin({
      transformQuery(args) {
        const node = args.node as {
          kind: string
          table?: { table: { identifier: { name: string } } }
          into?: { table: { identifier: { name: string } } }
        }
        if (node.kind === 'UpdateQueryNode' || node.kind === 'InsertQueryNode')
          levels.push([(node.table ?? node.into)!.table.identifier.name, store.sqlite.pragma('synchronous', { simple: true }) as number])
        return args.node
      },
      transformResult: async (args) => args.result,
    })
    return { db, levels }
  }

  it('the stamp and the record are committed unsynced; the connection is back to FULL after each', async () => {
    expect(store.sqlite.pragma('synchronous', { simple: true })).toBe(2)
    http.respond = () => chapterPage(8)
    const { db, levels } = recordingLevels()
    expect(await check({ db })).toMatchObject({ outcome: 'chapter', latest: { newChapter: true } })
    expect(levels.length).toBeGreaterThanOrEqual(3)
    expect(levels.every(([, level]) => level === 1)).toBe(true)
    expect(store.sqlite.pragma('synchronous', { simple: true })).toBe(2)
    expect(await requireSeries(store.db, key)).toMatchObject({ latest_chapter: 8 })
  })

  it("a failed check's outcome too, in one commit", async () => {
    http.respond = () => ({ kind: 'page', page: { url: SERIES_URL, status: 200, contentType: 'text/plain', body: '' } })
    const { db, levels } = recordingLevels()
    expect(await check({ db })).toMatchObject({ outcome: 'no-chapter' })
    expect(levels).toEqual([
      ['series', 1],
      ['series', 1],
    ])
    expect(store.sqlite.pragma('synchronous', { simple: true })).toBe(2)
    expect(await requireSeries(store.db, key)).toMatchObject({ last_outcome: 'no-chapter' })
  })
})

describe('a stop that arrives with an answer in hand', () => {
  it('a refusal answered as the app stops is no refusal: aborted, nothing kept, nothing logged', async () => {
    const stop = new AbortController()
    http.respond = () => {
      stop.abort()
      return { kind: 'refused', reason: 'HTTP 429', retryAfterMs: 60_000 }
    }
    const { log, lines } = keptLog()
    expect(await check({ log }, stop.signal)).toEqual({ outcome: 'aborted', reason: 'stopped', stampedAt: clock.now(), fetched: true })
    expect(await requireSeries(store.db, key)).toMatchObject({ last_outcome: '', last_error: '', latest_chapter: 7 })
    expect(lines).toEqual([])
  })

  it('a page read as the app stops: aborted, stopped, nothing kept, nothing logged', async () => {
    const stop = new AbortController()
    http.respond = () => chapterPage(8)
    const reader: PageReader = {
      ...inlineReader,
      read: async (site, page, url) => {
        stop.abort()
        return site.adapter.read(page, url)
      },
    }
    const { log, lines } = keptLog()
    expect(await check({ log, reader }, stop.signal)).toEqual({
      outcome: 'aborted',
      reason: 'stopped',
      stampedAt: clock.now(),
      fetched: true,
    })
    expect(await requireSeries(store.db, key)).toMatchObject({ last_outcome: '', latest_chapter: 7 })
    expect(lines).toEqual([])
  })
})

/**
 * The window's imports (`ImportJobs`) against a real SQLite file: a job's phases and progress, what it
 * refuses while it is written, which jobs the window forgets when it holds too many, and how a failure reads.
 * A write is held mid-way by holding one of its queries (the store's only connection waits with it), so what
 * a job shows while it is written is seen without a race.
 */
import type { KyselyPlugin, QueryId } from 'kysely'
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ImportJobView } from '../../shared/admin-api'
import { fixtureSites } from '../demo/fixture-sites'
import type { Log } from '../log'
import { BUILT_IN_SITES } from '../sites/builtin'
import { createRegistry } from '../sites/registry'
import type { Db } from '../store/database'
import { FakeClock } from '../testing/clock'
import { failingWhen } from '../testing/fakes'
import { MANGADEX_EN, tachibk } from '../testing/library-files'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { ImportJobs, loadMappings, type LibraryDeps } from './library-import'

const HOST = '127.0.0.1:45679'
const registry = createRegistry([...BUILT_IN_SITES, ...fixtureSites(HOST)])
const clock = new FakeClock()
const list = (...ids: string[]) => Buffer.from(ids.map((id) => `http://${HOST}/madara/manga/${id}/`).join('\n'))

/**
 * The same database, but the first query `matches` picks after `hold` is called waits, its result in hand,
 * until `release`: the store's connection waits with it, and so does every other query.
 */
function holdable(db: Db) {
  let picks: ((node: string) => boolean) | undefined
  const held = new WeakSet<QueryId>()
  let reached: () => void = () => {}
  let release: () => void = () => {}
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (picks?.(JSON.stringify(args.node))) {
        picks = undefined
        held.add(args.queryId)
      }
      return args.node
    },
    transformResult: async (args) => {
      if (held.has(args.queryId)) {
        reached()
        await new Promise<void>((resolve) => (release = resolve))
      }
      return args.result
    },
  }
  return {
    db: db.withPlugin(plugin),
    /** Resolves once a query `matches` picks is held. */
    hold(matches: (node: string) => boolean): Promise<void> {
      picks = matches
      return new Promise<void>((resolve) => (reached = resolve))
    },
    release: () => release(),
  }
}

/** The write's first query: the Readers its bookmarks go to, read by name in its transaction. */
const writeStarts = (node: string) => node.includes('"readers"') && node.includes('"operator":"in"')

let store: TestStore
let aiko: number
beforeEach(async () => {
  store = openTestStore()
  aiko = await seedReader(store.db, 'Aiko')
})
afterEach(() => store.dispose())

async function until(jobs: ImportJobs, id: string, phase: ImportJobView['phase']): Promise<ImportJobView> {
  return vi.waitFor(
    () => {
      const job = jobs.get(id)
      if (job.phase !== phase) throw new Error(`still ${job.phase}: ${job.error}`)
      return job
    },
    { timeout: 10_000, interval: 5 },
  )
}

/** Starts a list import for Aiko and waits for its preview; a second passes between imports. */
async function previewed(jobs: ImportJobs, fileName: string, bytes = list('tower', 'bakery', 'lantern')): Promise<string> {
  const { id } = await jobs.start({ readerId: aiko, fileName, bytes })
  await until(jobs, id, 'previewed')
  await clock.advance(1_000)
  return id
}

const gone = (jobs: ImportJobs, id: string) => expect(() => jobs.get(id)).toThrow(/no such import/)
const rows = async () => ({
  series: await store.db.selectFrom('series').selectAll().execute(),
  bookmarks: await store.db.selectFrom('bookmarks').selectAll().execute(),
})

describe('an import being written', () => {
  it('shows the rows it will write, cannot be mapped, confirmed again or cancelled, and a new import never drops it', async () => {
    const gate = holdable(store.db)
    const jobs = new ImportJobs({ db: gate.db, registry, clock })
    const [a, b, c, d] = [
      await previewed(jobs, 'a.txt'),
      await previewed(jobs, 'b.txt'),
      await previewed(jobs, 'c.txt'),
      await previewed(jobs, 'd.txt'),
    ]

    const held = gate.hold(writeStarts)
    expect(jobs.confirm(a)).toMatchObject({ phase: 'writing', done: 0 })
    await held
    // Three Series and three bookmarks to write, none written yet.
    expect(jobs.get(a)).toMatchObject({ phase: 'writing', done: 0, total: 6, result: null })
    await expect(jobs.map(a, { sourceId: '1', site: 'fixture-madara' })).rejects.toMatchObject({
      code: 'conflict',
      message: 'this import is not waiting for a preview decision',
    })
    expect(() => jobs.confirm(a)).toThrow(
      expect.objectContaining({ code: 'conflict', message: 'this import is writing, not waiting to be confirmed' }),
    )
    expect(() => jobs.cancel(a)).toThrow(
      expect.objectContaining({ code: 'conflict', message: 'this import is being written; it cannot be cancelled now' }),
    )

    // A fifth import: the oldest idle one goes, not the older one being written.
    const e = await jobs.start({ fileName: 'e.txt', bytes: list('other') })
    expect(e).toMatchObject({ phase: 'reading', done: 0, total: 0, preview: null, result: null, error: null })
    gone(jobs, b)
    for (const id of [a, c, d, e.id]) expect(jobs.get(id).id).toBe(id)

    gate.release()
    await jobs.settled()
    expect(jobs.get(a)).toMatchObject({
      phase: 'done',
      done: 6,
      total: 6,
      result: { seriesAdded: 3, bookmarksAdded: 3, bookmarksPresent: 0 },
    })
    expect((await rows()).bookmarks).toHaveLength(3)
    // Done, it can be let go.
    jobs.cancel(a)
    gone(jobs, a)
  })

  it('four imports being written and a fifth started: the window holds all five', async () => {
    const gate = holdable(store.db)
    const jobs = new ImportJobs({ db: gate.db, registry, clock })
    const ids = [
      await previewed(jobs, 'a.txt'),
      await previewed(jobs, 'b.txt'),
      await previewed(jobs, 'c.txt'),
      await previewed(jobs, 'd.txt'),
    ]
    const held = gate.hold(writeStarts)
    for (const id of ids) jobs.confirm(id)
    await held
    const e = await jobs.start({ fileName: 'e.txt', bytes: list('other') })
    for (const id of [...ids, e.id]) expect(jobs.get(id).id).toBe(id)
    gate.release()
    await jobs.settled()
    expect(ids.map((id) => jobs.get(id).result?.bookmarksAdded)).toEqual([3, 0, 0, 0])
    expect(ids.map((id) => jobs.get(id).result?.bookmarksPresent)).toEqual([0, 3, 3, 3])
  })
})

describe('how many imports the window holds', () => {
  it('four; a fifth drops the one looked at least lately, whatever the wall clock says', async () => {
    const jobs = new ImportJobs({ db: store.db, registry, clock })
    const [a, b, c, d] = [
      await previewed(jobs, 'a.txt'),
      await previewed(jobs, 'b.txt'),
      await previewed(jobs, 'c.txt'),
      await previewed(jobs, 'd.txt'),
    ]
    for (const id of [a, b, c, d]) expect(jobs.get(id).phase).toBe('previewed')
    // The wall clock is set back an hour; then c, b and d are looked at again, a is not.
    clock.stepWall(-3_600_000)
    for (const id of [c, b, d]) {
      jobs.get(id)
      await clock.advance(1_000)
    }
    const e = await previewed(jobs, 'e.txt')
    gone(jobs, a)
    const f = await previewed(jobs, 'f.txt')
    gone(jobs, c)
    for (const id of [b, d, e, f]) expect(jobs.get(id).id).toBe(id)
  })
})

describe('an import in the window', () => {
  it('shows its progress while reading a backup: when previewed, every manga of it read', async () => {
    const jobs = new ImportJobs({ db: store.db, registry, clock })
    const manga = ['1', '2', '3'].map((n) => ({ source: MANGADEX_EN, url: `/manga/00000000-0000-4000-8000-00000000000${n}` }))
    const { id } = await jobs.start({ readerId: aiko, fileName: 'library.tachibk', bytes: tachibk({ manga }) })
    expect(await until(jobs, id, 'previewed')).toMatchObject({ done: 3, total: 3 })
  })

  it('a source the file does not name is remembered by its id', async () => {
    const jobs = new ImportJobs({ db: store.db, registry, clock })
    const id = await previewed(jobs, 'a.txt')
    const mapped = await jobs.map(id, { sourceId: '777', site: 'fixture-madara' })
    expect(mapped.phase).toBe('previewed')
    expect([...(await loadMappings(store.db)).values()]).toEqual([
      { sourceId: '777', sourceName: 'source 777', site: 'fixture-madara', origin: `http://${HOST}` },
    ])
  })

  it('for a Reader who is not there: not-found, and no import starts', async () => {
    const jobs = new ImportJobs({ db: store.db, registry, clock })
    await expect(jobs.start({ readerId: 999, fileName: 'a.txt', bytes: list('tower') })).rejects.toMatchObject({
      code: 'not-found',
      message: 'no Reader 999',
    })
  })

  it('a failed import cannot be mapped; a cancelled one is gone; an id the window never had is not found', async () => {
    const jobs = new ImportJobs({ db: store.db, registry, clock })
    const { id } = await jobs.start({ readerId: aiko, fileName: 'a.tachibk', bytes: Buffer.from('not gzip') })
    await until(jobs, id, 'failed')
    await expect(jobs.map(id, { sourceId: '1', site: 'fixture-madara' })).rejects.toMatchObject({ code: 'conflict' })
    const other = await previewed(jobs, 'b.txt')
    jobs.cancel(other)
    gone(jobs, other)
    expect(() => jobs.get('nope')).toThrow(
      expect.objectContaining({ code: 'not-found', message: 'no such import (it ended, or the app restarted); start it again' }),
    )
    expect(() => jobs.cancel('nope')).toThrow(expect.objectContaining({ code: 'not-found' }))
    expect(await rows()).toEqual({ series: [], bookmarks: [] })
  })

  it('a failure of our own says so in words, writes nothing and is logged; a refusal the owner can act on is not logged as one', async () => {
    const lines: string[] = []
    const log = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) })) as Log
    const errors = () =>
      lines
        .map((l) => JSON.parse(l) as { level: number; msg: string; file?: string; err?: { message: string } })
        .filter((r) => r.level >= 50)
    const failing = failingWhen(store.db, (node) => node.includes('"InsertQueryNode"'))
    const deps: LibraryDeps = { db: failing, registry, clock, log }
    const jobs = new ImportJobs(deps)
    const id = await previewed(jobs, 'a.txt')
    jobs.confirm(id)
    await jobs.settled()
    expect(jobs.get(id)).toMatchObject({ phase: 'failed', error: 'the import failed on our side; nothing was written', result: null })
    expect(await rows()).toEqual({ series: [], bookmarks: [] })
    expect(errors()).toEqual([
      expect.objectContaining({ msg: 'import: failed', file: 'a.txt', err: expect.objectContaining({ message: 'injected failure' }) }),
    ])

    // With no log at all, the failure still ends the import in words.
    const unlogged = new ImportJobs({ db: failing, registry, clock })
    const other = await previewed(unlogged, 'c.txt')
    unlogged.confirm(other)
    await unlogged.settled()
    expect(unlogged.get(other)).toMatchObject({ phase: 'failed', error: 'the import failed on our side; nothing was written' })

    lines.length = 0
    const refused = await jobs.start({ readerId: aiko, fileName: 'b.tachibk', bytes: Buffer.from('not gzip') })
    expect((await until(jobs, refused.id, 'failed')).error).toMatch(/^backup: b\.tachibk is not gzip/)
    expect(errors()).toEqual([])
  })
})

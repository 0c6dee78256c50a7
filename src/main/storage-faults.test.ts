/**
 * The running app on real storage faults (docs/reliability.md): the sync endpoint and the admin contract over
 * a real HTTP server, on a data directory in a small tmpfs filled to its last byte, and on a read-only database
 * file. Every write that cannot be stored is answered 503 `storage-unavailable` — never `internal`, never a
 * closed connection —, the Overview says `cannot write to <file>: …`, and writes resume by themselves.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { startApp, type RunningApp } from './app'
import { startFixtureSite, type FixtureSite } from './demo/fixture-site'
import { fixtureSites } from './demo/fixture-sites'
import { pino } from 'pino'
import { silentLog, type Log } from './log'
import { STORE_FILE } from './store/database'
import { STORAGE_CHECK_MS } from './storage-watch'
import { FakeClock } from './testing/clock'
import { dataDirIn, makeReadOnly, mountSmallTmpfs, type SmallTmpfs } from './testing/faults'
import { tempDir } from './testing/store'

const tmpfs = mountSmallTmpfs(6 * 1024 * 1024)
const mounted = 'dir' in tmpfs ? (tmpfs as SmallTmpfs) : null
const skip = 'skip' in tmpfs ? tmpfs.skip : ''
afterAll(() => mounted?.unmount())

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  mounted?.free()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Running {
  app: RunningApp
  clock: FakeClock
  fixture: FixtureSite
  token: string
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>
  admin(method: string, input?: unknown): Promise<any>
}

async function start(dataDir: string, seed?: (r: Running) => Promise<void>, lanes = false, log: Log = silentLog): Promise<Running> {
  const clock = new FakeClock()
  const fixture = await startFixtureSite({ now: () => clock.now() })
  cleanups.push(() => fixture.close())
  const app = await startApp({
    shell: 'headless',
    dataDir,
    log,
    clock,
    port: 0,
    sites: fixtureSites(fixture.host),
    lanes,
    sync: { rateLimit: { max: 1_000_000, windowMs: 60_000 } },
  })
  cleanups.push(() => app.stop())
  const running: Running = {
    app,
    clock,
    fixture,
    token: '',
    async call(method, path, body) {
      const response = await fetch(`${app.origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${running.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await response.text()
      return { status: response.status, json: text ? JSON.parse(text) : null }
    },
    async admin(method, input) {
      return app.admin.call(method, input)
    },
  }
  await seed?.(running)
  return running
}

/** A Reader with three bookmarked Series. */
async function seedLibrary(r: Running): Promise<void> {
  const issued = await r.admin('addReader', { name: 'aiko' })
  r.token = issued.value.token
  for (const slug of ['one', 'two', 'three']) {
    const added = await r.admin('addBookmark', { readerId: issued.value.reader.id, url: `${r.fixture.origin}/madara/manga/${slug}/` })
    expect(added.ok).toBe(true)
  }
}

/** A data directory with the library of `seedLibrary`, its database file then made read-only. */
async function readOnlyLibrary(prefix: string): Promise<{ dir: string; file: string; token: string; undo(): void } | { skip: string }> {
  const temp = tempDir(prefix)
  cleanups.push(() => temp.remove())
  const r = await start(temp.dir, seedLibrary)
  await r.app.stop()
  const file = join(temp.dir, STORE_FILE)
  const readOnly = makeReadOnly(file)
  if ('skip' in readOnly) return readOnly
  let undone = false
  cleanups.push(() => undone || readOnly.undo())
  return {
    dir: temp.dir,
    file,
    token: r.token,
    undo() {
      readOnly.undo()
      undone = true
    },
  }
}

const WRITES = (r: Running, n: number) => [
  ...Array.from({ length: n }, (_, i) =>
    r.call('PATCH', `/api/v1/bookmarks/fixture-madara/${['one', 'two', 'three'][i % 3]}`, { progress: 100 + i, progressAt: 1_000 + i }),
  ),
  r.call('POST', '/api/v1/sightings', { site: 'fixture-madara', seriesId: 'one', chapter: 500 }),
  r.call('POST', '/api/v1/bookmarks', { url: `${r.fixture.origin}/madara/manga/four/` }),
  r.call('DELETE', '/api/v1/bookmarks/fixture-madara/three'),
]

describe.skipIf(!mounted)(`a full disk under the running app${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('answers every write 503 storage-unavailable, says so on the Overview, and takes writes again once there is space', async () => {
    const r = await start(dataDirIn(mounted!.dir, `app-${Date.now()}`), seedLibrary)
    const file = join(r.app.dataDir, STORE_FILE)
    mounted!.fill()

    const answers = await Promise.all(WRITES(r, 50))
    const unexpected = answers.filter((a) => a.status !== 503 || a.json?.error?.code !== 'storage-unavailable')
    expect(unexpected, JSON.stringify(unexpected[0])).toEqual([])
    expect(answers[0]!.json.error.message).toMatch(/disk is full; nothing was kept/)
    // Reads still answer, and show nothing of the refused writes.
    const read = await r.call('GET', '/api/v1/bookmarks')
    expect(read.status).toBe(200)
    expect(read.json.bookmarks.map((b: { progress: number | null }) => b.progress)).toEqual([null, null, null])

    const overview = await r.admin('overview')
    expect(overview.value.storage.problem).toMatchObject({ kind: 'full', message: `cannot write to ${file}: disk full` })
    const pause = await r.admin('pauseLane', { site: 'fixture-madara', duration: '1h' })
    expect(pause).toMatchObject({ ok: false, error: { code: 'storage-unavailable' } })

    mounted!.free()
    const after = await r.call('PATCH', '/api/v1/bookmarks/fixture-madara/one', { progress: 7, progressAt: 5_000 })
    expect(after.status).toBe(200)
    expect(after.json.bookmark.progress).toBe(7)
    expect((await r.admin('overview')).value.storage.problem).toBeNull()
  })
})

describe('a read-only database file under the app', () => {
  it('starts and serves reads, answers writes 503 (read-only), and takes writes once the file is writable again', async (ctx) => {
    const library = await readOnlyLibrary('mb-app-readonly-')
    if ('skip' in library) return ctx.skip(library.skip)
    const { dir, file, token } = library

    const r = await start(dir)
    r.token = token
    expect((await r.call('GET', '/api/v1/bookmarks')).json.bookmarks).toHaveLength(3)
    const answers = await Promise.all(WRITES(r, 10))
    expect(answers.map((a) => `${a.status} ${a.json?.error?.code}`)).toEqual(answers.map(() => '503 storage-unavailable'))
    expect((await r.admin('overview')).value.storage.problem).toMatchObject({
      kind: 'read-only',
      message: `cannot write to ${file}: read-only`,
    })

    library.undo()
    // Noticed by the periodic look, with no write needed to find out.
    await r.clock.runQuiet(STORAGE_CHECK_MS)
    const after = await r.call('PATCH', '/api/v1/bookmarks/fixture-madara/two', { progress: 3, progressAt: 5_000 })
    expect(after.status).toBe(200)
    expect((await r.admin('overview')).value.storage.problem).toBeNull()
  })
})

describe('a read-only database file at start, with the Lanes on', () => {
  it('starts (no Lane row is needed to start), serves reads, answers writes 503 read-only, and the Lanes take writes once it is writable', async (ctx) => {
    const library = await readOnlyLibrary('mb-app-readonly-lanes-')
    if ('skip' in library) return ctx.skip(library.skip)
    const { dir, token } = library

    // A Site the file has no Lane row for yet: its row cannot be written, and the start goes on all the same.
    const lines: Array<{ level: number; msg: string; err?: unknown }> = []
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const r = await start(dir, undefined, true, log)
    r.token = token
    expect(r.app.core.lanesRunning).toBe(true)
    expect((await r.call('GET', '/api/v1/bookmarks')).json.bookmarks).toHaveLength(3)
    const answer = await r.call('PATCH', '/api/v1/bookmarks/fixture-madara/one', { progress: 4, progressAt: 5_000 })
    expect(answer).toMatchObject({
      status: 503,
      json: { error: { code: 'storage-unavailable', message: expect.stringMatching(/read-only/) } },
    })
    const overview = await r.admin('overview')
    expect(overview.value.storage.problem).toMatchObject({ kind: 'read-only' })
    expect(overview.value.storage.problem.message).not.toMatch(/I\/O error/)
    expect(overview.value.storage.problem.action).toBe(
      `make ${library.file} writable (chmod u+w, chattr -i, or mount the disk read-write); writes resume by themselves`,
    )
    // Ten more refusals: the storage's one error line for the episode, no line a request, no stack.
    await Promise.all(WRITES(r, 10))
    const errors = lines.filter((l) => l.level >= 50)
    expect(errors.map((l) => l.msg)).toEqual([
      expect.stringMatching(/^store: cannot write to .+: read-only; no write is acknowledged until then: make /),
    ])
    expect(errors[0]!.err).toBeUndefined()

    library.undo()
    await r.clock.runQuiet(STORAGE_CHECK_MS)
    const after = await r.call('PATCH', '/api/v1/bookmarks/fixture-madara/one', { progress: 4, progressAt: 5_000 })
    expect(after.status).toBe(200)
  })
})

describe('the database file deleted under the app', () => {
  it('no write is acknowledged from then on, and the Overview says so', async () => {
    const temp = tempDir('mb-app-deleted-')
    cleanups.push(() => temp.remove())
    const r = await start(temp.dir, seedLibrary)
    const file = join(temp.dir, STORE_FILE)
    rmSync(file)
    await r.clock.runQuiet(STORAGE_CHECK_MS)
    const overview = await r.admin('overview')
    expect(overview.value.storage.problem).toMatchObject({ kind: 'deleted', message: expect.stringContaining(`cannot write to ${file}`) })
    const answers = await Promise.all(WRITES(r, 5))
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 503))
  })
})

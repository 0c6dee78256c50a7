/**
 * import-5000: the time to import a Mihon backup of 5,000 manga (4,000 of a mapped source, 1,000 MangaDex,
 * 60 chapters each, 40 read with their history) through the admin contract of a running app — read,
 * preview, confirm, write — and the requests sent meanwhile, counted by the fixture site's hit log (the Sites
 * the mapped manga are on). Baseline, same run and file: gunzip, protobufjs decoding the whole Backup at
 * once, and bare prepared INSERTs of the same rows in one transaction. Targets: 0 requests; ratio <= 3.
 */
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import type { ImportJobView } from '../src/shared/admin-api'
import { startApp, type RunningApp } from '../src/main/app'
import { startFixtureSite } from '../src/main/demo/fixture-site'
import { fixtureSites } from '../src/main/demo/fixture-sites'
import { BackupType } from '../src/main/library/mihon/schema'
import { silentLog } from '../src/main/log'
import { BUILT_IN_SITES } from '../src/main/sites/builtin'
import { MANGADEX_EN, tachibk, type TestManga } from '../src/main/testing/library-files'
import { tempDir } from '../src/main/testing/store'
import type { BenchResult } from './run'

const MANGA = 5_000
const SOURCE = '7005862379394557410'
const RUNS = 3

function backup(): Buffer {
  const manga: TestManga[] = Array.from({ length: MANGA }, (_, i) => {
    const chapters = Array.from({ length: 60 }, (_, c) => c + 1)
    const url = i < 4_000 ? `/madara/manga/bench-${i}/` : `/manga/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    return {
      source: i < 4_000 ? SOURCE : MANGADEX_EN,
      url,
      title: `Bench Series ${i}`,
      read: chapters.slice(0, 40),
      unread: chapters.slice(40),
      readAt: Object.fromEntries(chapters.slice(0, 40).map((c) => [c, 1_700_000_000_000 + c * 60_000])),
    }
  })
  return tachibk({ manga, sources: [{ name: 'Bench Scans', sourceId: SOURCE }] })
}

async function call<T>(app: RunningApp, method: string, input: unknown): Promise<T> {
  const result = await app.admin.call(method, input)
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`)
  return result.value as T
}

async function until(app: RunningApp, id: string, phase: ImportJobView['phase']): Promise<ImportJobView> {
  for (;;) {
    const job = await call<ImportJobView>(app, 'importJob', { jobId: id })
    if (job.phase === phase) return job
    if (job.phase === 'failed') throw new Error(`import failed: ${job.error}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

/** One import through a fresh app: milliseconds, and requests the fixture site saw meanwhile. */
async function importOnce(file: Buffer): Promise<{ ms: number; requests: number; added: number }> {
  const dir = tempDir('mb-bench-import-')
  const fixture = await startFixtureSite()
  const app = await startApp({
    shell: 'headless',
    dataDir: dir.dir,
    log: silentLog,
    port: 0,
    sites: [...BUILT_IN_SITES, ...fixtureSites(fixture.host)],
    lanes: false,
  })
  try {
    const reader = await call<{ reader: { id: number } }>(app, 'addReader', { name: 'Bench' })
    const started = performance.now()
    const hitsBefore = fixture.hits.length
    const job = await call<ImportJobView>(app, 'startImport', {
      readerId: reader.reader.id,
      file: { fileName: 'bench.tachibk', base64: file.toString('base64') },
    })
    await until(app, job.id, 'previewed')
    await call(app, 'mapImportSource', { jobId: job.id, sourceId: SOURCE, site: 'fixture-madara' })
    await call(app, 'confirmImport', { jobId: job.id })
    const done = await until(app, job.id, 'done')
    return { ms: performance.now() - started, requests: fixture.hits.length - hitsBefore, added: done.result!.bookmarksAdded }
  } finally {
    await app.stop()
    await fixture.close()
    dir.remove()
  }
}

/** The bare work: gunzip, one protobufjs decode of everything, prepared INSERTs in one transaction. */
async function bare(file: Buffer): Promise<number> {
  const dir = tempDir('mb-bench-bare-')
  const db = new BetterSqlite3(join(dir.dir, 'bare.sqlite'))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.exec(`CREATE TABLE series (site TEXT, series_id TEXT, title TEXT, series_url TEXT, PRIMARY KEY (site, series_id));
    CREATE TABLE bookmarks (reader_id INTEGER, site TEXT, series_id TEXT, progress REAL, progress_at INTEGER, PRIMARY KEY (reader_id, site, series_id))`)
  try {
    const started = performance.now()
    const decoded = BackupType.decode(await promisify(gunzip)(file)) as unknown as {
      backupManga: Array<{ url: string; title: string; chapters: Array<{ read: boolean; chapterNumber: number }> }>
    }
    const series = db.prepare('INSERT INTO series VALUES (?, ?, ?, ?)')
    const bookmark = db.prepare('INSERT INTO bookmarks VALUES (1, ?, ?, ?, 0)')
    db.transaction(() => {
      for (const m of decoded.backupManga) {
        let read = -1
        for (const c of m.chapters) if (c.read && c.chapterNumber > read) read = c.chapterNumber
        series.run('s', m.url, m.title, `https://x.example${m.url}`)
        bookmark.run('s', m.url, read)
      }
    })()
    return performance.now() - started
  } finally {
    db.close()
    dir.remove()
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

let measured: Promise<{ ms: number; baseline: number; requests: number; added: number; bytes: number }> | undefined
function measure() {
  return (measured ??= (async () => {
    const file = backup()
    const runs: Array<{ ms: number; requests: number; added: number }> = []
    const baselines: number[] = []
    for (let i = 0; i < RUNS; i++) {
      runs.push(await importOnce(file))
      baselines.push(await bare(file))
    }
    return {
      ms: median(runs.map((r) => r.ms)),
      baseline: median(baselines),
      requests: Math.max(...runs.map((r) => r.requests)),
      added: runs[0]!.added,
      bytes: file.length,
    }
  })())
}

export async function import5000(): Promise<BenchResult> {
  const m = await measure()
  const ratio = m.ms / m.baseline
  return {
    name: 'import-5000',
    value: m.ms,
    unit: 'ms',
    baseline: m.baseline,
    ratio,
    target: 'ratio <= 3',
    pass: ratio <= 3 && m.added === MANGA,
    note: `${m.added} bookmarks added from a ${(m.bytes / 1024 / 1024).toFixed(1)} MiB backup`,
  }
}

export async function import5000Requests(): Promise<BenchResult> {
  const m = await measure()
  return {
    name: 'import-5000-requests',
    value: m.requests,
    unit: 'requests',
    baseline: 0,
    ratio: m.requests === 0 ? 1 : Infinity,
    target: 'value = 0',
    pass: m.requests === 0,
  }
}

/**
 * Big reads streamed (docs/adr/0176-big-reads-streamed.md), through a running app while `/api/v1/health` is asked
 * every 10 ms, against a bare node:http + better-sqlite3 server streaming the same rows in the same run:
 *   export-300k     the owner's export (admin `exportLibrary`) of 300,000 Series, 3 Readers holding 100,000
 *                   bookmarks each
 *   full-sync-150k  `GET /api/v1/bookmarks` of a Reader with 150,000 bookmarks, CHAPTERS stored chapters each
 * The app runs as `npm run headless` runs it (its build, a process of its own: no tsx, no seeding), the bare server
 * in a process of its own, the client in a third (docs/adr/0208-big-read-memory-is-the-apps-process.md).
 * Value: the app process's peak RSS while answering (its VmHWM, reset before the answer, and VmRSS sampled every
 * 10 ms; target ≤ 300 MB); ratio: the app's time over the bare server's (target ≤ 1.5). The slowest `/health`
 * meanwhile (asked every 10 ms, target < 100 ms) and the bare server's peak are in the note.
 */
import { execFile, execFileSync, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { once } from 'node:events'
import { join } from 'node:path'
import { openStore, STORE_FILE } from '../src/main/store/database'
import { adminSessionCookie } from '../src/main/testing/admin-session'
import { tempDir } from '../src/main/testing/store'
import { createReader } from '../src/main/use-cases/reader-tokens'
import { loopProbe } from './loop-probe'
import { atRest, built, cpuMs, freePort, ROOT, rssMb, startHeadless, untilAnswers } from './processes'
import type { BenchResult } from './run'

const TOKEN = 'bench-admin-token-0123456789'
const run = promisify(execFile)
const CHAPTERS = 50
const NOW = Date.UTC(2026, 0, 1)

/** `series` Series on one Site, each bookmarked by `readers.length` Readers (by share), `chapters` stored each. */
export async function seed(dataDir: string, series: number, readers: number, chapters: number): Promise<string[]> {
  const store = openStore(join(dataDir, STORE_FILE), { now: NOW })
  try {
    const tokens: string[] = []
    // One more Reader, with no bookmark: its export starts the big-read worker before the measure.
    for (let r = 0; r <= readers; r++) tokens.push((await createReader(store.db, `reader ${r}`, NOW)).token)
    const s = store.sqlite
    s.pragma('synchronous = OFF')
    const addSeries = s.prepare(
      "INSERT INTO series (site, series_id, title, series_url, latest_chapter, created_at) VALUES ('bench-a', ?, ?, ?, ?, ?)",
    )
    const addBookmark = s.prepare(
      "INSERT INTO bookmarks (reader_id, site, series_id, status, progress, progress_at, created_at, updated_at) VALUES (?, 'bench-a', ?, 'reading', ?, ?, ?, ?)",
    )
    const addChapter = s.prepare(
      "INSERT INTO chapters (site, series_id, number, label, url, first_seen_at) VALUES ('bench-a', ?, ?, ?, ?, ?)",
    )
    s.transaction(() => {
      for (let i = 0; i < series; i++) {
        const id = `s${i}`
        const latest = 40 + (i % 60)
        // Titles out of key order, so the title order is a sort of its own.
        addSeries.run(id, `Series ${(i * 7919) % series} «${i % 97}»`, `https://bench-a.example/manga/${id}/`, latest, NOW)
        addBookmark.run(1 + (i % readers), id, latest - (i % 7), NOW, NOW, NOW)
        for (let n = latest; n > latest - chapters; n--)
          addChapter.run(id, n, `Chapter ${n}`, `https://bench-a.example/manga/${id}/${n}/`, NOW)
      }
    })()
    return tokens
  } finally {
    await store.close()
  }
}

function seededApart(dir: string, shape: { series: number; readers: number; chapters: number }): string[] {
  const args = [dir, shape.series, shape.readers, shape.chapters].map(String)
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/big-reads-streamed.ts', 'seed', ...args], { encoding: 'utf8' })
  return JSON.parse(out.trim().split('\n').pop()!) as string[]
}

if (process.argv[2] === 'seed' && process.argv[1]?.endsWith('big-reads-streamed.ts')) {
  const [dir, series, readers, chapters] = process.argv.slice(3)
  void seed(dir!, Number(series), Number(readers), Number(chapters)).then((tokens) => console.log(JSON.stringify(tokens)))
}

/**
 * A request's time and size, asked from a process of its own (its socket buffers are not the app's RSS), the body
 * counted and dropped as it comes.
 */
async function timedGet(port: number, path: string, headers: Record<string, string>, method = 'GET', body?: string) {
  const script = `const http = require('node:http'); const [port, path, method, headers, body] = JSON.parse(process.argv[1]);
    const started = performance.now();
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let bytes = 0; res.on('data', (c) => (bytes += c.length));
      res.on('end', () => { if (res.statusCode !== 200) { console.error(path + ': ' + res.statusCode); process.exit(1) }
        console.log(JSON.stringify({ ms: performance.now() - started, bytes })) });
    });
    req.on('error', (e) => { console.error(String(e)); process.exit(1) }); req.end(body);`
  const { stdout } = await run(process.execPath, ['-e', script, JSON.stringify([port, path, method, headers, body])], { maxBuffer: 1e6 })
  return JSON.parse(stdout) as { ms: number; bytes: number }
}

/**
 * The bare server, in a process of its own (`node -e`, no tsx): node:http streaming each row of a statement (or,
 * for the export, of the Series and then each Reader's bookmarks) as JSON, waiting for the socket as it fills.
 * Resolves with the request's time and size and the server process's peak RSS.
 */
async function bare(file: string, kind: 'full-sync' | 'export'): Promise<{ ms: number; bytes: number; peakMb: number; cpuMs: number }> {
  const script = `const http = require('node:http'); const Database = require('better-sqlite3');
    const [file, kind, sql] = JSON.parse(process.argv[1]); const db = new Database(file, { readonly: true });
    function* rows() {
      if (kind === 'full-sync') return yield* db.prepare(sql).iterate();
      yield* db.prepare('SELECT * FROM series ORDER BY site, series_id').iterate();
      for (const r of db.prepare('SELECT id FROM readers ORDER BY name').all())
        yield* db.prepare('SELECT * FROM bookmarks WHERE reader_id = ? ORDER BY site, series_id').iterate(r.id);
    }
    const server = http.createServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let parts = [];
      for (const row of rows()) {
        parts.push(JSON.stringify(row));
        if (parts.length < 200) continue;
        const room = res.write(parts.join(',')); parts = [];
        if (!room) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end(parts.join(','));
    });
    server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));`
  const server = spawn(process.execPath, ['-e', script, JSON.stringify([file, kind, FULL_SYNC_SQL])], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const [line] = (await once(server.stdout!, 'data')) as [Buffer]
    const { port } = JSON.parse(line.toString()) as { port: number }
    const memory = peakMemory(server.pid!)
    const cpu = cpuMs(server.pid!)
    const answer = await timedGet(port, '/', {})
    return { ...answer, peakMb: memory.stop(), cpuMs: cpuMs(server.pid!) - cpu }
  } finally {
    server.kill('SIGTERM')
  }
}

/**
 * The peak resident memory of a process from now: its high-water mark (VmHWM) reset here (`clear_refs` 5), and
 * VmRSS sampled every 10 ms besides (where the reset is refused, the samples alone). `stop` answers it in MB.
 */
function peakMemory(pid: number): { stop(): number } {
  const status = () => readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (text: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0)
  let reset = true
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {
    reset = false
  }
  let peak = kb(status(), 'VmRSS')
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, kb(status(), 'VmRSS'))
    } catch {
      // The process ended.
    }
  }, 10)
  return {
    stop() {
      clearInterval(sampler)
      const last = status()
      return Math.max(peak, kb(last, 'VmRSS'), reset ? kb(last, 'VmHWM') : 0) / 1024
    },
  }
}

export const FULL_SYNC_SQL = `SELECT b.*, s.title, s.series_url, s.latest_chapter, s.latest_chapter_label, s.latest_chapter_url,
  s.latest_changed_at, s.latest_checked_at, s.finished_at,
  (SELECT json_array(MIN(c.number), c.label, c.url, COUNT(*)) FROM chapters c WHERE c.site = b.site AND c.series_id = b.series_id AND c.vanished_at = 0 AND c.number > COALESCE(b.progress, -1)) AS next,
  (SELECT c.number FROM chapters c WHERE c.site = b.site AND c.series_id = b.series_id AND c.vanished_at = 0 AND c.number <= b.progress ORDER BY c.number DESC LIMIT 1) AS lowest,
  (SELECT c.number FROM chapters c WHERE c.site = b.site AND c.series_id = b.series_id AND c.vanished_at = 0 ORDER BY c.number DESC LIMIT 1) AS highest
  FROM bookmarks b JOIN series s ON s.site = b.site AND s.series_id = b.series_id WHERE b.reader_id = 1 ORDER BY s.title, b.site, b.series_id`

/** The app as `npm run headless` runs it (its build) on the seeded data, asked `ask` while `/health` is probed. */
async function throughTheApp(
  dataDir: string,
  token: string,
  idle: string,
  ask: (app: { port: number; adminPort: number; cookie: string; token: string }) => Promise<{ ms: number; bytes: number }>,
) {
  const [port, adminPort] = [await freePort(), await freePort()]
  const app = startHeadless(dataDir, port, ['--admin-port', String(adminPort)], { MB_ADMIN_TOKEN: TOKEN })
  try {
    await untilAnswers(`http://127.0.0.1:${port}/api/v1/health`, performance.now(), app)
    const cookie = await adminSessionCookie(adminPort, TOKEN)
    // The worker is started at the first big read and kept: started here, its start is not the answer's memory.
    await timedGet(port, '/api/v1/export?format=csv', { authorization: `Bearer ${idle}` })
    // The start's own work (on this library, seconds of it) is over: the answer is measured alone.
    await atRest(app.pid)
    const beforeMb = rssMb(app.pid)
    const memory = peakMemory(app.pid)
    const probe = loopProbe(port)
    const cpu = cpuMs(app.pid)
    const answer = await ask({ port, adminPort, cookie, token })
    const answerCpuMs = cpuMs(app.pid) - cpu
    // The slowest `/health` (the loop's delay measured here is the bench's own, not the app's).
    const { health } = await probe.stop()
    return { ...answer, health, peakMb: memory.stop(), beforeMb, cpuMs: answerCpuMs }
  } finally {
    await app.stop()
  }
}

async function measure(
  name: string,
  shape: { series: number; readers: number; chapters: number },
  ask: Parameters<typeof throughTheApp>[3],
  kind: 'full-sync' | 'export',
): Promise<BenchResult> {
  const dir = tempDir(`mb-bench-${name}-`)
  try {
    process.stderr.write(`bench: seeding ${name}…\n`)
    // Seeded in a process of its own: its rows and caches are not this process's RSS.
    const tokens = seededApart(dir.dir, shape)
    built()
    // The app first, so the RSS before it is a fresh process's, not what the bare server left behind.
    const app = await throughTheApp(dir.dir, tokens[0]!, tokens.at(-1)!, ask)
    const baseline = await bare(join(dir.dir, STORE_FILE), kind)
    const ratio = app.ms / baseline.ms
    return {
      name,
      value: app.peakMb,
      unit: 'MB',
      baseline: baseline.ms,
      ratio,
      target: 'value <= 300 MB, ratio <= 1.5, /health < 100 ms',
      pass: app.peakMb <= 300 && ratio <= 1.5 && app.health < 100,
      note: `peak RSS ${Math.round(app.peakMb)} MB (${Math.round(app.beforeMb)} MB before); ${Math.round(app.ms)} ms (CPU ${Math.round(app.cpuMs)} ms, /health's too), ${(app.bytes / 1e6).toFixed(1)} MB; bare ${Math.round(baseline.ms)} ms (CPU ${Math.round(baseline.cpuMs)} ms), ${(baseline.bytes / 1e6).toFixed(1)} MB, peak RSS ${Math.round(baseline.peakMb)} MB; slowest /health ${Math.round(app.health)} ms`,
    }
  } finally {
    dir.remove()
  }
}

export function export300k(): Promise<BenchResult> {
  return measure(
    'export-300k',
    { series: 300_000, readers: 3, chapters: 0 },
    ({ adminPort, cookie }) => {
      const host = `127.0.0.1:${adminPort}`
      const headers = { host, origin: `http://${host}`, 'content-type': 'application/json', cookie }
      return timedGet(adminPort, '/admin/rpc/exportLibrary', headers, 'POST', '{}')
    },
    'export',
  )
}

export function fullSync150k(): Promise<BenchResult> {
  return measure(
    'full-sync-150k',
    { series: 150_000, readers: 1, chapters: CHAPTERS },
    ({ port, token }) => timedGet(port, '/api/v1/bookmarks', { authorization: `Bearer ${token}` }),
    'full-sync',
  )
}

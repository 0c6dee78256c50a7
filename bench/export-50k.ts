/**
 * export-50k: the whole library's export — one Reader with 50,000 bookmarks — through the admin listener of a
 * running app, while `/api/v1/health` is asked every 10 ms on the sync port (docs/adr/0093-big-reads-off-the-event-loop.md).
 * The value is the slowest `/health` answer meanwhile (target <= 100 ms); the export's time and the process's
 * peak RSS are in the note. Baseline, same run and library: the same export read and written on the main
 * thread (what the app did before), whose time a `/health` would have waited.
 */
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { startApp } from '../src/main/app'
import { silentLog } from '../src/main/log'
import { BUILT_IN_SITES } from '../src/main/sites/builtin'
import { createRegistry } from '../src/main/sites/registry'
import { openStore, STORE_FILE } from '../src/main/store/database'
import { adminSessionCookie } from '../src/main/testing/admin-session'
import { seedBigLibrary } from '../src/main/testing/big-library'
import { tempDir } from '../src/main/testing/store'
import { exportLibrary } from '../src/main/use-cases/library-export'
import { loopProbe } from './loop-probe'
import type { BenchResult } from './run'

const BOOKMARKS = 50_000
const TOKEN = 'bench-admin-token-0123456789'

function post(port: number, cookie: string, method: string): Promise<number> {
  const host = `127.0.0.1:${port}`
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/admin/rpc/${method}`,
        headers: { host, origin: `http://${host}`, 'content-type': 'application/json', cookie },
      },
      (res) => {
        let bytes = 0
        res.on('data', (c: Buffer) => (bytes += c.length))
        res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${method}: ${res.statusCode}`))))
      },
    )
    req.on('error', reject)
    req.end('{}')
  })
}

async function throughTheApp(dataDir: string): Promise<{ health: number; idle: number; ms: number; peakRssMb: number; bytes: number }> {
  const app = await startApp({
    shell: 'headless',
    dataDir,
    log: silentLog,
    port: 0,
    sites: BUILT_IN_SITES,
    lanes: false,
    adminHttp: { token: TOKEN, port: 0 },
  })
  try {
    const cookie = await adminSessionCookie(app.adminPort!, TOKEN)
    let peak = process.memoryUsage().rss
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
    const probe = loopProbe(app.port)
    const started = performance.now()
    const bytes = await post(app.adminPort!, cookie, 'exportLibrary')
    const ms = performance.now() - started
    const health = (await probe.stop()).worst
    clearInterval(sampler)
    // The machine's own noise: the same probe for 3 s with nothing to do (a busy machine delays every thread).
    const idleProbe = loopProbe(app.port)
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    return { health, idle: (await idleProbe.stop()).worst, ms, peakRssMb: peak / 1e6, bytes }
  } finally {
    await app.stop()
  }
}

/** The same export on the calling thread, read and stringified: how long a /health would have waited. */
async function inline(dataDir: string): Promise<number> {
  const store = openStore(join(dataDir, STORE_FILE), { now: Date.now() })
  try {
    const started = performance.now()
    JSON.stringify({ value: await exportLibrary({ db: store.db, registry: createRegistry(BUILT_IN_SITES), now: Date.now() }) })
    return performance.now() - started
  } finally {
    await store.close()
  }
}

export async function export50k(): Promise<BenchResult> {
  const dir = tempDir('mb-bench-export-')
  try {
    await seedBigLibrary(dir.dir, BOOKMARKS, Date.now() - 60_000)
    const rssBefore = process.memoryUsage().rss / 1e6
    const app = await throughTheApp(dir.dir)
    const baseline = await inline(dir.dir)
    return {
      name: 'export-50k',
      value: app.health,
      unit: 'ms',
      baseline,
      ratio: app.health / baseline,
      target: '<= 100',
      pass: app.health <= 100,
      note: `slowest /health while exporting ${BOOKMARKS.toLocaleString('en')} bookmarks; export ${Math.round(app.ms)} ms, ${(app.bytes / 1e6).toFixed(1)} MB; peak RSS ${Math.round(app.peakRssMb)} MB (${Math.round(rssBefore)} MB before); the same export on the main thread: ${Math.round(baseline)} ms; slowest /health of an idle app meanwhile: ${Math.round(app.idle)} ms`,
    }
  } finally {
    dir.remove()
  }
}

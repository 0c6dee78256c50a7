/**
 * The page reader in the built app (docs/adr/0040): the headless shell as a real process (out/main/headless.js
 * and its out/main/read-worker.js) checks a Series whose page would hold a thread for over a minute. The
 * check ends at the read deadline as an error with the reason, and the sync endpoint answers all along.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore, STORE_FILE } from '../store/database'
import { seedReader, seedSeries, tempDir } from '../testing/store'
import { READ_DEADLINE_MS } from './page-reader'
import { nestedRows } from './tools/hostile-pages'

const ROOT = join(import.meta.dirname, '../../..')
let site: Server
let host = ''
let child: ChildProcess | undefined
const data = tempDir('mb-reader-')

beforeAll(async () => {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' })
  expect(built.status).toBe(0)
  const page = nestedRows(50_000)
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page))
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  host = `127.0.0.1:${(site.address() as AddressInfo).port}`
}, 120_000)
afterAll(async () => {
  child?.kill('SIGKILL')
  await new Promise((resolve) => site.close(resolve))
  data.remove()
})

describe('the built app reading a page that would hold a thread for a minute', () => {
  it('ends the check at the deadline with the reason, while /api/v1/health answers throughout', async () => {
    writeFileSync(
      join(data.dir, 'sites.json'),
      JSON.stringify({ sites: [{ key: 'nested', name: 'Nested Scans', hosts: [host], family: 'mangathemesia' }] }),
    )
    const store = openStore(join(data.dir, STORE_FILE), { now: Date.now() })
    const reader = await seedReader(store.db, 'aiko')
    await seedSeries(store.db, { site: 'nested', id: 'deep', url: `http://${host}/manga/deep/`, readers: [reader] })
    await store.close()

    child = spawn(process.execPath, [join(ROOT, 'out/main/headless.js'), '--data', data.dir, '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MB_LOG_LEVEL: 'warn' },
    })
    let out = ''
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()))
    for (let i = 0; i < 200 && !/serving (http:\S+) /.test(out); i++) await new Promise((r) => setTimeout(r, 50))
    const origin = /serving (http:\S+) /.exec(out)?.[1]
    expect(origin, out).toBeDefined()

    const outcome = () => {
      const db = new BetterSqlite3(join(data.dir, STORE_FILE), { readonly: true })
      try {
        return db.prepare('SELECT last_outcome, last_error FROM series WHERE series_id = ?').get('deep') as {
          last_outcome: string
          last_error: string
        }
      } finally {
        db.close()
      }
    }
    let slowest = 0
    const started = Date.now()
    while (outcome().last_outcome === '' && Date.now() - started < 3 * READ_DEADLINE_MS) {
      const asked = performance.now()
      const health = await fetch(`${origin}/api/v1/health`)
      expect(health.status).toBe(200)
      slowest = Math.max(slowest, performance.now() - asked)
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(outcome()).toEqual({
      last_outcome: 'error',
      last_error: `adapter: reading the page took longer than ${READ_DEADLINE_MS} ms and was stopped`,
    })
    // The Lane's page took the worker thread, never the loop that answers Readers.
    expect(slowest).toBeLessThan(1_000)
  }, 60_000)
})

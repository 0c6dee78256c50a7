/**
 * sync-throughput: Progress PATCHes per second at 32 connections against the real endpoint, and against a
 * bare node:http server doing the same SQLite update, in the same run. Target: ratio >= 0.6.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closedLoop } from './load'
import type { BenchResult } from './run'

const CONNECTIONS = 32
const DURATION_MS = 5_000

async function measure(kind: 'real' | 'bare'): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), `mb-bench-${kind}-`))
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers.ts', kind, dir, String(CONNECTIONS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const { port, tokens } = await new Promise<{ port: number; tokens: string[] }>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString()
        const line = out.split('\n').find((l) => l.startsWith('{'))
        if (line) resolve(JSON.parse(line))
      })
      child.once('exit', (code) => reject(new Error(`${kind} server exited ${code}`)))
    })
    const result = await closedLoop({
      port,
      connections: CONNECTIONS,
      durationMs: DURATION_MS,
      next: (c, n) => ({
        method: 'PATCH',
        path: '/api/v1/bookmarks/bench/series',
        headers: { authorization: `Bearer ${tokens[c]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ progress: (n % 1000) + 1, progressAt: 1_000_000 + n }),
      }),
    })
    if (result.failed) throw new Error(`${kind}: ${result.failed} requests failed`)
    return result.perSecond
  } finally {
    child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function syncThroughput(): Promise<BenchResult> {
  const bare = await measure('bare')
  const real = await measure('real')
  const ratio = real / bare
  return { name: 'sync-throughput', value: real, unit: 'PATCH/s', baseline: bare, ratio, target: 'ratio >= 0.6', pass: ratio >= 0.6 }
}

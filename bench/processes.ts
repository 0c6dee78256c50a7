/**
 * The processes the scale benches measure: the headless shell as `npm run headless` runs it (its build,
 * `out/main/headless.js`), the library's page server, and a bare `node -e` HTTP server as the baseline, with
 * their CPU time and resident memory read from /proc.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '..')
const TICKS_PER_SECOND = 100

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Builds the app unless its build is current: the shells run from it. */
export function built(): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' })
  if (result.status !== 0) throw new Error('bench: the build failed')
}

/** A port free now on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** CPU time (user + system, all threads) of a process so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // Fields 14 and 15 of stat (utime, stime), counted from after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}

/** Resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024
}

export interface Child {
  readonly process: ChildProcess
  readonly pid: number
  output(): string
  stop(): Promise<void>
}

function child(command: string, args: string[], env: Record<string, string> = {}): Child {
  const proc = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  let out = ''
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()))
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()))
  return {
    process: proc,
    pid: proc.pid!,
    output: () => out,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return
      const exited = once(proc, 'exit')
      proc.kill('SIGTERM')
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** The library's page server (bench/site-server.ts) in a child process; resolves with its origin. */
export async function startSiteServer(): Promise<Child & { origin: string }> {
  const c = child(process.execPath, ['--import', 'tsx', 'bench/site-server.ts'])
  for (let i = 0; i < 400 && !c.output().includes('origin'); i++) await sleep(25)
  const line = c
    .output()
    .split('\n')
    .find((l) => l.startsWith('{'))
  if (!line) throw new Error(`bench: the page server did not start: ${c.output()}`)
  return { ...c, origin: (JSON.parse(line) as { origin: string }).origin }
}

/** The headless shell from its build, as `npm run headless` runs it. */
export function startHeadless(dataDir: string, port: number, args: string[] = [], env: Record<string, string> = {}): Child {
  return child(process.execPath, [join(ROOT, 'out/main/headless.js'), '--data', dataDir, '--port', String(port), ...args], {
    MB_LOG_LEVEL: 'warn',
    CHROMIUM_PATH: '/nonexistent',
    ...env,
  })
}

/** The baseline: a bare node:http server answering `{ok:true}`, started with `node -e`. */
export function startBare(port: number): Child {
  return child(process.execPath, [
    '-e',
    `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"ok":true}') }).listen(${port}, '127.0.0.1')`,
  ])
}

/** Milliseconds from `started` until `GET url` first answers 200 (polled every 5 ms). */
export async function untilAnswers(url: string, started: number, proc: Child, limitMs = 60_000): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(url)
      if (response.status === 200) return performance.now() - started
    } catch {
      // Not listening yet.
    }
    if (proc.process.exitCode !== null) throw new Error(`bench: the process exited: ${proc.output()}`)
    if (performance.now() - started > limitMs) throw new Error(`bench: ${url} did not answer within ${limitMs} ms`)
    await sleep(5)
  }
}

/**
 * Waits until a process is at rest: under `busyMs` of CPU in each of two windows of 500 ms in a row (a start's
 * own work — an integrity check, statistics — is not what a bench that follows measures). Gives up after limitMs.
 */
export async function atRest(pid: number, busyMs = 25, limitMs = 60_000): Promise<void> {
  const started = performance.now()
  let calm = 0
  let last = cpuMs(pid)
  while (calm < 2 && performance.now() - started < limitMs) {
    await sleep(500)
    const now = cpuMs(pid)
    calm = now - last < busyMs ? calm + 1 : 0
    last = now
  }
}

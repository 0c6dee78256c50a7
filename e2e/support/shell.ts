/**
 * Starts the real headless shell as a child process (`tsx src/main/headless/cli.ts`), reads what it
 * prints, and stops it. The e2e tests drive it exactly as a person would.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface RunningShell {
  origin: string
  port: number
  dataDir: string
  /** The SQLite file the shell uses. */
  dataFile: string
  adminUrl?: string
  /** The one-time admin sign-in link the shell printed (`…/admin/?code=…`): it works once (docs/adr/0087). */
  signInUrl?: string
  /** `http://127.0.0.1:ADMIN_PORT`: the owner's window listens on a port of its own. */
  adminOrigin?: string
  adminPort?: number
  demoOrigin?: string
  tokens: Record<string, string>
  output: () => string
  stop(): Promise<void>
}

export function tempData(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'mb-e2e-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export async function startShell(options: {
  dataDir: string
  args?: string[]
  port?: number
  /** The admin listener's port (a free one unless given; a restart that reloads the window needs the same). */
  adminPort?: number
  env?: Record<string, string>
}): Promise<RunningShell> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/main/headless/cli.ts',
      '--data',
      options.dataDir,
      '--port',
      String(options.port ?? 0),
      // A free admin port unless given: tests never take the default one (4712) from each other.
      '--admin-port',
      String(options.adminPort ?? 0),
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MB_LOG_LEVEL: 'warn', ...options.env } },
  )
  let out = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 30_000)
    const check = () => {
      if (
        /serving http:\/\/[^\s]+ \(port \d+\)/.test(out) &&
        (!(options.args ?? []).includes('--admin-token') || /admin: http/.test(out) || true)
      ) {
        // Wait for the lines that follow the first one.
        setTimeout(() => {
          clearTimeout(timer)
          resolve(true)
        }, 300)
        child.stdout!.off('data', check)
      }
    }
    child.stdout!.on('data', check)
    child.once('exit', () => resolve(false))
  })
  if (!ready) {
    child.kill('SIGKILL')
    throw new Error(`the headless shell did not start:\n${out}`)
  }
  const serving = /data (\S+) · serving (http:\/\/[^\s]+) \(port (\d+)\)/.exec(out)!
  const admin = /(http:\/\/127\.0\.0\.1:(\d+))\/admin\/\?token=\S+/.exec(out)
  const tokens: Record<string, string> = {}
  for (const m of out.matchAll(/demo Reader (\S+), token (\S+)/g)) tokens[m[1]!] = m[2]!
  return {
    origin: serving[2]!,
    port: Number(serving[3]),
    dataDir: options.dataDir,
    dataFile: serving[1]!,
    adminUrl: admin?.[0],
    signInUrl: /sign in: (http:\/\/127\.0\.0\.1:\d+\/admin\/\?code=\S+)/.exec(out)?.[1],
    adminOrigin: admin?.[1],
    adminPort: admin ? Number(admin[2]) : undefined,
    demoOrigin: /demo Sites on (http:\/\/\S+)/.exec(out)?.[1],
    tokens,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await once(child, 'exit')
      clearTimeout(timer)
    },
  }
}

/**
 * Stopping the headless shell, as a real process with real signals (docs/adr/0031): the built entry
 * (out/main/headless.js, what `npm run headless` runs) against Sites on a fixture site in this process, so
 * every request the app sends is seen here — and none may arrive after the signal.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { resolveChromium } from '../fetch/browser/playwright-launcher'
import { runReaderCommand } from '../cli/reader'
import { openStore, STORE_FILE } from '../store/database'
import { browserMainProcess, processesMentioning } from '../testing/processes'
import { seedReader, seedSeries, tempDir } from '../testing/store'

const FOUND_CHROMIUM = resolveChromium(undefined)
if (!FOUND_CHROMIUM) throw new Error('These tests need Chromium: apt-get install -y chromium (CI installs it), or set CHROMIUM_PATH')
const CHROMIUM: string = FOUND_CHROMIUM
const ROOT = join(import.meta.dirname, '../../..')
/** "Within a few seconds". */
const FEW_SECONDS = 5_000
// Each test starts a process (and often a browser): more than the default per-test time.
vi.setConfig({ testTimeout: 60_000 })

beforeAll(() => {
  // The process under test is the built entry: build it when the sources are newer.
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' })
  expect(built.status).toBe(0)
}, 120_000)

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Running {
  child: ChildProcess
  dir: string
  output(): string
  /** Resolves with how it ended and when. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>
}

/** A data directory with sites.json pinned to the fixture, and Series seeded (due now) before the start. */
async function prepare(fixture: FixtureSite, site: Record<string, unknown>, paths: string[]): Promise<string> {
  const data = tempDir('mb-stop-')
  cleanups.push(() => data.remove())
  writeFileSync(
    join(data.dir, 'sites.json'),
    JSON.stringify({ sites: [{ name: 'Fixture Site', hosts: [fixture.host], family: 'madara', ...site }] }),
  )
  const store = openStore(join(data.dir, STORE_FILE), { now: Date.now() })
  const reader = await seedReader(store.db, 'aiko')
  for (const path of paths) {
    const id = /\/manga\/([^/?]+)/.exec(path)![1]!
    await seedSeries(store.db, { site: site.key as string, id, url: `${fixture.origin}${path}`, readers: [reader] })
  }
  await store.close()
  return data.dir
}

function start(dir: string, args: string[] = [], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [join(ROOT, 'out/main/headless.js'), '--data', dir, '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MB_LOG_LEVEL: 'info', ...env },
  })
  let out = ''
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()))
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  )
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await ended
    }
  })
  return { child, dir, output: () => out, ended }
}

/** A Chromium that takes 30 s to start: it says when it is launching, sleeps, then runs the real one. */
function slowChromium(dir: string): { path: string; launching: string; sleeper: string } {
  const path = join(dir, 'slow-chromium')
  const launching = join(dir, 'launching')
  const sleeper = join(dir, 'sleeper.pid')
  writeFileSync(
    path,
    `#!/bin/sh\ncase " $* " in *" --version "*) exec ${CHROMIUM} --version;; esac\n` +
      `sleep 30 & echo $! > ${sleeper}\necho launching > ${launching}\nwait\nexec ${CHROMIUM} "$@"\n`,
  )
  chmodSync(path, 0o755)
  return { path, launching, sleeper }
}

async function until(condition: () => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not met in ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const alive = (pid: number) => {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0]
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

async function fixtureSite(): Promise<FixtureSite> {
  const fixture = await startFixtureSite()
  cleanups.push(() => fixture.close())
  return fixture
}

const BROWSER_SITE = { key: 'cloudy', fetcher: 'browser', fallback: 'none', pace: { wakeDueCount: 1, maxPassMs: 600_000 } }

describe('SIGTERM to the headless shell', () => {
  it('while the browser is launching: exits 0 within seconds, the starting browser ended, nothing sent after', async () => {
    const fixture = await fixtureSite()
    const dir = await prepare(fixture, { ...BROWSER_SITE, idPattern: '^/madara/manga/([^/]+)' }, ['/madara/manga/first/'])
    const chromium = slowChromium(dir)
    const app = start(dir, ['--chromium', chromium.path])
    await until(() => existsSync(chromium.launching), 30_000, 'the browser launching')
    // Hits counted, not stamped: a hit in the very millisecond of the signal came before it.
    const seen = fixture.hits.length
    const signalled = Date.now()
    app.child.kill('SIGTERM')
    const end = await app.ended
    expect(end.code, app.output()).toBe(0)
    expect(end.at - signalled).toBeLessThan(FEW_SECONDS)
    await until(() => !alive(Number(readFileSync(chromium.sleeper, 'utf8'))), 2_000, 'the starting browser ended')
    expect(processesMentioning(chromium.path)).toEqual([])
    expect(processesMentioning(join(dir, 'browser-profile'))).toEqual([])
    expect(fixture.hits.slice(seen)).toEqual([])
  })

  it('with --demo, while the demo’s browser Site is launching: exits 0 within seconds and leaves no browser', async () => {
    const data = tempDir('mb-stop-')
    cleanups.push(() => data.remove())
    const chromium = slowChromium(data.dir)
    const app = start(data.dir, ['--demo', '--chromium', chromium.path])
    await until(() => existsSync(chromium.launching), 30_000, 'the browser launching')
    const signalled = Date.now()
    app.child.kill('SIGTERM')
    const end = await app.ended
    expect(end.code, app.output()).toBe(0)
    expect(end.at - signalled).toBeLessThan(FEW_SECONDS)
    await until(() => !alive(Number(readFileSync(chromium.sleeper, 'utf8'))), 2_000, 'the starting browser ended')
    expect(processesMentioning(chromium.path)).toEqual([])
  })

  it('during a pass (a check hanging on a slow Site): exits 0 within seconds and checks nothing after', async () => {
    const fixture = await fixtureSite()
    // A fast pace: a Lane left running would soon check the other Series again.
    const pace = { restMs: 1_000, minGapMs: 100, maxGapMs: 1_000 }
    const dir = await prepare(fixture, { key: 'slowpoke', idPattern: '^/(?:hang|madara)/manga/([^/]+)', pace }, [
      '/hang/manga/stuck/',
      '/madara/manga/after/',
    ])
    const app = start(dir)
    await until(() => fixture.hits.some((h) => h.path.startsWith('/hang/')), 20_000, 'the check in flight')
    // Hits counted, not stamped: a hit in the very millisecond of the signal came before it.
    const seen = fixture.hits.length
    const signalled = Date.now()
    app.child.kill('SIGTERM')
    const end = await app.ended
    expect(end.code, app.output()).toBe(0)
    expect(end.at - signalled).toBeLessThan(FEW_SECONDS)
    await new Promise((r) => setTimeout(r, 300))
    expect(fixture.hits.slice(seen)).toEqual([])
  })

  it('with queued Acquisitions on a hanging browser Site: exits 0 within seconds and sends nothing after', async () => {
    const fixture = await fixtureSite()
    const dir = await prepare(fixture, { ...BROWSER_SITE, idPattern: '^/hang/manga/([^/]+)' }, [])
    const token = await readerToken(dir)
    const app = start(dir, ['--chromium', CHROMIUM])
    const origin = await serving(app)
    const answers = ['one', 'two', 'three'].map((slug) =>
      fetch(`${origin}/api/v1/bookmarks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${fixture.origin}/hang/manga/${slug}/` }),
      }).catch(() => null),
    )
    await until(() => fixture.hits.some((h) => h.path.startsWith('/hang/')), 20_000, 'the first Acquisition in flight')
    // Hits counted, not stamped: a hit in the very millisecond of the signal came before it.
    const seen = fixture.hits.length
    const signalled = Date.now()
    app.child.kill('SIGTERM')
    const end = await app.ended
    expect(end.code, app.output()).toBe(0)
    expect(end.at - signalled).toBeLessThan(FEW_SECONDS)
    await Promise.all(answers)
    expect(fixture.hits.slice(seen)).toEqual([])
    expect(processesMentioning(join(dir, 'browser-profile'))).toEqual([])
  })

  it('with queued Acquisitions on a hanging HTTP Site: exits 0 within seconds and sends nothing after', async () => {
    const fixture = await fixtureSite()
    const dir = await prepare(fixture, { key: 'slowpoke', idPattern: '^/hang/manga/([^/]+)' }, [])
    const token = await readerToken(dir)
    const app = start(dir)
    const origin = await serving(app)
    const answers = ['one', 'two', 'three'].map((slug) =>
      fetch(`${origin}/api/v1/bookmarks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${fixture.origin}/hang/manga/${slug}/` }),
      }).catch(() => null),
    )
    await until(() => fixture.hits.some((h) => h.path.startsWith('/hang/')), 20_000, 'the first Acquisition in flight')
    // Hits counted, not stamped: a hit in the very millisecond of the signal came before it.
    const seen = fixture.hits.length
    const signalled = Date.now()
    app.child.kill('SIGTERM')
    const end = await app.ended
    await Promise.all(answers)
    expect(fixture.hits.slice(seen)).toEqual([])
    expect(end.at - signalled).toBeLessThan(FEW_SECONDS)
    expect(end.code, app.output()).toBe(0)
  })
})

describe('a stop that cannot finish (the browser frozen mid-check)', () => {
  /** A browser Site whose check hangs, and its browser stopped dead (SIGSTOP) in the middle of it. */
  async function frozen(env: Record<string, string> = {}) {
    const fixture = await fixtureSite()
    const dir = await prepare(fixture, { ...BROWSER_SITE, idPattern: '^/hang/manga/([^/]+)' }, ['/hang/manga/frozen/'])
    const app = start(dir, ['--chromium', CHROMIUM], env)
    await until(() => fixture.hits.some((h) => h.path.startsWith('/hang/')), 30_000, 'the browser check in flight')
    const main = browserMainProcess(join(dir, 'browser-profile'))
    expect(main).toBeDefined()
    process.kill(main!.pid, 'SIGSTOP')
    cleanups.push(() => {
      for (const p of processesMentioning(join(dir, 'browser-profile'))) process.kill(p.pid, 'SIGKILL')
    })
    return { app, dir }
  }

  it('the same signal again within a moment (Ctrl-C from a terminal, forwarded by npm too) counts once: the orderly stop goes on, exit 0', async () => {
    const { app, dir } = await frozen()
    app.child.kill('SIGINT')
    await until(() => /manga-bookmark: stopping/.test(app.output()), 5_000, 'the stop begun')
    app.child.kill('SIGINT')
    const end = await app.ended
    expect(end.code, app.output()).toBe(0)
    expect(app.output()).toMatch(/manga-bookmark: stopped/)
    await until(() => processesMentioning(join(dir, 'browser-profile')).length === 0, 2_000, 'no browser left')
  })

  it('a second signal ends it at once, and the browser with it', async () => {
    const { app, dir } = await frozen()
    app.child.kill('SIGTERM')
    await until(() => /manga-bookmark: stopping/.test(app.output()), 5_000, 'the stop begun')
    // Past the moment in which a repeat counts as the same signal.
    await new Promise((r) => setTimeout(r, 700))
    const again = Date.now()
    app.child.kill('SIGTERM')
    const end = await app.ended
    // 143 = 128 + SIGTERM: the second signal ended it, not the orderly stop (which waits on the browser).
    expect(end.code, app.output()).toBe(143)
    expect(end.at - again).toBeLessThan(1_000)
    await until(() => processesMentioning(join(dir, 'browser-profile')).length === 0, 2_000, 'no browser left')
  })

  it('the deadline ends it: what was still running is logged, exit 1, no browser left', async () => {
    const { app, dir } = await frozen({ MB_STOP_DEADLINE_MS: '1000' })
    const signalled = Date.now()
    app.child.kill('SIGTERM')
    const end = await app.ended
    expect(end.code, app.output()).toBe(1)
    expect(end.at - signalled).toBeLessThan(2_500)
    expect(app.output()).toMatch(/the stop did not finish in 1000 ms; still running: the browser/)
    await until(() => processesMentioning(join(dir, 'browser-profile')).length === 0, 2_000, 'no browser left')
  })
})

describe('npm run headless', () => {
  it('SIGTERM to the npm process stops the app itself: nothing left running or serving', async () => {
    const data = tempDir('mb-stop-')
    cleanups.push(() => data.remove())
    // Its own process group, so the signal goes to npm alone, as a supervisor would send it.
    const npm = spawn('npm', ['run', 'headless', '--', '--data', data.dir, '--port', '0'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MB_LOG_LEVEL: 'warn' },
    })
    cleanups.push(() => {
      for (const p of processesMentioning(data.dir)) process.kill(p.pid, 'SIGKILL')
    })
    let out = ''
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()))
    const ended = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)))
    await until(() => /serving (http:\/\/127\.0\.0\.1:\d+)/.test(out), 60_000, 'serving')
    const origin = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!
    // The app is npm's own child: no shell in between to swallow the signal.
    const app = processesMentioning(data.dir).find((p) => p.cmdline.includes('scripts/headless.mjs'))!
    expect(
      readFileSync(`/proc/${app.pid}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ')[1],
    ).toBe(String(npm.pid))
    npm.kill('SIGTERM')
    expect(await ended).toBe(0)
    await until(() => processesMentioning(data.dir).length === 0, FEW_SECONDS, 'nothing left running')
    await expect(fetch(`${origin}/api/v1/health`)).rejects.toThrow()
  })
})

async function readerToken(dir: string): Promise<string> {
  const lines: string[] = []
  await runReaderCommand(['add', 'Ben', '--data', dir], { out: (l) => lines.push(l), err: (l) => lines.push(l) })
  return lines.join('\n').split('\n').at(-1)!
}

async function serving(app: Running): Promise<string> {
  await until(() => /serving (http:\/\/127\.0\.0\.1:\d+)/.test(app.output()), 30_000, 'serving')
  return /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(app.output())![1]!
}

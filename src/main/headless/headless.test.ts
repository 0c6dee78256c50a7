import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/store'
import { adminTokenWarnings, DEFAULT_ADMIN_PORT, parseHeadlessArgs, parseShellArgs, scrubSecrets } from '../shell-args'

const dirs: Array<{ remove(): void }> = []
afterEach(() => dirs.splice(0).forEach((d) => d.remove()))

describe('headless command line', () => {
  it("defaults to the XDG data folder, and to the owner's port setting (4711)", () => {
    const args = parseHeadlessArgs([], { XDG_DATA_HOME: '/x/data' })
    expect(args).toMatchObject({ dataDir: '/x/data/manga-bookmark', demo: false })
    expect(args.port).toBeUndefined()
  })

  it('takes --data, --port, --admin-token, --admin-port, --chromium and --demo', () => {
    expect(
      parseHeadlessArgs(
        ['--data', '/d', '--port', '0', '--admin-token', 'a'.repeat(20), '--admin-port', '4800', '--chromium', '/c', '--demo'],
        {},
      ),
    ).toEqual({
      dataDir: '/d',
      port: 0,
      adminToken: 'a'.repeat(20),
      adminTokenFrom: 'argv',
      adminPort: 4800,
      chromium: '/c',
      demo: true,
      help: false,
    })
  })

  it('the Electron shell validates the same flags, and lets Chromium switches through', () => {
    expect(parseShellArgs(['--port', '4712', '--demo', '--enable-logging'], 'electron')).toEqual({ port: 4712, demo: true, help: false })
    expect(() => parseShellArgs(['--port', 'abc'], 'electron')).toThrow(/--port must be 0–65535, got "abc"/)
    expect(() => parseShellArgs(['--admin-token', 'a'.repeat(20)], 'electron')).not.toThrow()
    expect(parseShellArgs(['--help'], 'electron').help).toBe(true)
  })

  it.each([
    [['--port', 'x'], /--port must be/],
    [['--port', '70000'], /--port must be/],
    [['--admin-token', 'short'], /at least 16/],
    [['--admin-port', '99999'], /--admin-port must be 0–65535/],
    [['--admin-token', 'a'.repeat(20), '--admin-token-file', '/f'], /not both/],
    [['--admin-token-file', '/nonexistent/token'], /--admin-token-file \/nonexistent\/token: cannot be read/],
    [['--nope'], /Unknown option/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseHeadlessArgs(argv)).toThrow(message)
  })
})

describe('the admin token, kept off the command line', () => {
  it('is read from $MB_ADMIN_TOKEN, with no warning', () => {
    const args = parseHeadlessArgs([], { MB_ADMIN_TOKEN: 'e'.repeat(24) })
    expect(args).toMatchObject({ adminToken: 'e'.repeat(24), adminTokenFrom: 'env' })
    expect(adminTokenWarnings(args)).toEqual([])
    expect(() => parseHeadlessArgs([], { MB_ADMIN_TOKEN: 'short' })).toThrow(/MB_ADMIN_TOKEN must be at least 16/)
  })

  it('is read from --admin-token-file (its first line), with no warning for a private file; a flag wins over the variable', () => {
    const d = tempDir()
    dirs.push(d)
    const file = join(d.dir, 'token')
    writeFileSync(file, `${'f'.repeat(30)}\n`, { mode: 0o600 })
    const args = parseHeadlessArgs(['--admin-token-file', file], { MB_ADMIN_TOKEN: 'e'.repeat(24) })
    expect(args).toMatchObject({ adminToken: 'f'.repeat(30), adminTokenFrom: 'file' })
    expect(adminTokenWarnings(args)).toEqual([])
  })

  it('a token file other users can read is used, with a warning', () => {
    const d = tempDir()
    dirs.push(d)
    const file = join(d.dir, 'token')
    writeFileSync(file, 'g'.repeat(30))
    chmodSync(file, 0o644)
    expect(adminTokenWarnings(parseHeadlessArgs(['--admin-token-file', file], {}))).toEqual([
      `the admin token file ${file} can be read by other users; chmod 600 it`,
    ])
  })

  it('--admin-token on the command line still works, with a warning that other local users can see it', () => {
    const args = parseHeadlessArgs(['--admin-token', 'h'.repeat(20)], {})
    expect(args.adminToken).toBe('h'.repeat(20))
    expect(adminTokenWarnings(args)).toEqual([expect.stringMatching(/can be seen by every user of this machine.*MB_ADMIN_TOKEN/)])
  })
})

describe('secrets read from the environment', () => {
  it('are removed once read, so no child process started afterwards inherits the admin token', () => {
    const env: NodeJS.ProcessEnv = { MB_ADMIN_TOKEN: 'from-the-environment-0123', MB_LOG_LEVEL: 'warn', PATH: '/usr/bin' }
    expect(parseHeadlessArgs([], env).adminToken).toBe('from-the-environment-0123')
    scrubSecrets(env)
    expect(env).toEqual({ MB_LOG_LEVEL: 'warn', PATH: '/usr/bin' })
  })
})

describe('headless shell process', () => {
  it('creates the database, answers /api/v1/health on loopback and stops on SIGTERM; the terminal gets plain lines, no JSON', async () => {
    const d = tempDir()
    dirs.push(d)
    // No --admin-port: the default one (4712), or a free one said so when another program holds it.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/headless/cli.ts', '--data', d.dir, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MB_LOG_LEVEL: 'info' },
    })
    let out = ''
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
        if (match && out.includes('ready.')) resolve(match[1]!)
      })
      child.once('exit', (code) => reject(new Error(`exited ${code} before serving: ${out}`)))
    })
    const adminPort = Number(/admin: http:\/\/127\.0\.0\.1:(\d+)\/admin\/\?token=/.exec(out)![1])
    if (adminPort !== DEFAULT_ADMIN_PORT)
      expect(out).toContain(`port ${DEFAULT_ADMIN_PORT} for the owner's window is taken by another program`)
    else expect(out).not.toContain('is taken by another program')
    // A one-time sign-in link for the person, on the same port (docs/adr/0087).
    expect(out).toMatch(new RegExp(`sign in: http://127\\.0\\.0\\.1:${adminPort}/admin/\\?code=[A-Za-z0-9_-]{43}\n`))
    expect(out).toContain("open the sign-in link above in a browser on this computer: it is the owner's window")
    expect(out).toMatch(/Readers open http:\/\/127\.0\.0\.1:\d+\/ — on this computer only/)
    // Info lines go to the log file only: every line here is a plain one.
    expect(out.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('manga-bookmark: '))).toEqual([])
    expect(out).toContain(join(d.dir, 'manga-bookmark.sqlite'))
    const health = await fetch(`${line}/api/v1/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ ok: true })
    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    // The log file is written behind the terminal (it may lag the "ready." line now that the start no longer waits
    // for the integrity check, ADR 0210); by the exit it is flushed.
    expect(readFileSync(join(d.dir, 'logs', 'manga-bookmark.log'), 'utf8')).toContain('"level":30')
    const file = join(d.dir, 'manga-bookmark.sqlite')
    expect(existsSync(file)).toBe(true)
    const db = new BetterSqlite3(file, { readonly: true })
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
    db.close()
    expect(tables.map((t) => (t as { name: string }).name)).toEqual(
      expect.arrayContaining(['bookmarks', 'poll_lanes', 'poll_passes', 'readers', 'series', 'sightings']),
    )
  })
})

describe('the headless shell process and its admin listener', () => {
  it('prints the admin URL on a port of its own, warns once about --admin-token, and the sync port has no admin', async () => {
    const d = tempDir()
    dirs.push(d)
    const token = 'cli-admin-token-0123456789'
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main/headless/cli.ts', '--data', d.dir, '--port', '0', '--admin-token', token],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MB_LOG_LEVEL: 'warn', CHROMIUM_PATH: '/nonexistent' } },
    )
    let out = ''
    let err = ''
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString()
          if (/admin: http/.test(out)) resolve()
        })
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}${err}`)))
      })
      const sync = /serving (http:\/\/127\.0\.0\.1:(\d+))/.exec(out)!
      const admin = /admin: (http:\/\/127\.0\.0\.1:(\d+)\/admin\/\?token=(\S+))/.exec(out)!
      expect(admin[3]).toBe(token)
      expect(admin[2]).not.toBe(sync[2])
      expect(err.match(/--admin-token on the command line can be seen by every user/g)).toHaveLength(1)
      expect((await fetch(admin[1]!, { redirect: 'manual' })).status).toBe(303)
      expect((await fetch(`${sync[1]}/admin/?token=${token}`, { redirect: 'manual' })).status).toBe(404)
    } finally {
      child.kill('SIGTERM')
      await once(child, 'exit')
    }
  })
})

describe('the headless shell with a sites.json pointing at a loopback Site', () => {
  it('reads the file, acquires a bookmark added through the sync API, and its Lane writes a row per pass', async () => {
    const { startFixtureSite } = await import('../demo/fixture-site')
    const { runReaderCommand } = await import('../cli/reader')
    const { writeFileSync } = await import('node:fs')
    const fixture = await startFixtureSite()
    const d = tempDir()
    dirs.push(d)
    writeFileSync(
      join(d.dir, 'sites.json'),
      JSON.stringify({
        sites: [
          {
            key: 'loopback',
            name: 'Loopback Scans',
            hosts: [fixture.host],
            family: 'madara',
            idPattern: '^/madara/manga/([^/]+)',
            pace: { idleRequeryMs: 1000 },
          },
          { key: 'broken', hosts: 'not-a-list' },
        ],
      }),
    )
    const lines: string[] = []
    await runReaderCommand(['add', 'Aiko', '--data', d.dir], { out: (l) => lines.push(l), err: (l) => lines.push(l) })
    const token = lines.join('\n').split('\n').at(-1)!
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/headless/cli.ts', '--data', d.dir, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MB_LOG_LEVEL: 'warn', CHROMIUM_PATH: '/nonexistent' },
    })
    try {
      let out = ''
      const origin = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString()
          const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
          if (m && out.includes('admin:')) resolve(m[1]!)
        })
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
      })
      await new Promise((r) => setTimeout(r, 300))
      // The bad entry is reported with file, site and field; the valid Site runs.
      expect(out).toMatch(/sites\.json: site "broken": field "hosts"/)
      const added = await fetch(`${origin}/api/v1/bookmarks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${fixture.origin}/madara/manga/loop-de-loop/` }),
      })
      expect(added.status).toBe(202)
      // The new Series is read in the background: the Reader sees it fill in.
      let series: unknown
      for (let i = 0; i < 100 && !(series as { title?: string } | undefined)?.title; i++) {
        await new Promise((r) => setTimeout(r, 50))
        const list = await fetch(`${origin}/api/v1/bookmarks`, { headers: { authorization: `Bearer ${token}` } })
        series = ((await list.json()) as { bookmarks: Array<{ series: unknown }> }).bookmarks[0]?.series
      }
      expect(series).toMatchObject({ title: 'Loop De Loop', latestChapter: fixture.series('/madara/manga/loop-de-loop/').latest })
      // The Lane polls (nothing is due right after the acquisition) and writes one row per pass.
      const db = new BetterSqlite3(join(d.dir, 'manga-bookmark.sqlite'), { readonly: true })
      try {
        const rows = () =>
          db.prepare("SELECT skip, due, checked FROM poll_passes WHERE site = 'loopback' ORDER BY id").all() as Array<{ skip: string }>
        const started = Date.now()
        while (rows().length < 3 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 100))
        expect(rows().length).toBeGreaterThanOrEqual(3)
        expect(rows().every((r) => r.skip === '' || r.skip === 'nothing-eligible')).toBe(true)
      } finally {
        db.close()
      }
      expect(fixture.hits.map((h) => h.path)).toEqual(['/madara/manga/loop-de-loop/'])
    } finally {
      child.kill('SIGTERM')
      await once(child, 'exit')
      await fixture.close()
    }
  })
})

/**
 * The log file of a real headless shell (docs/adr/0049-logs.md): the built entry run as a process at debug level,
 * driven the way the owner and a Reader drive it — the admin URL opened, a wrong admin token, Readers' requests
 * with good and guessed tokens, a token in a query — then stopped. `<data>/logs/` has the lines, and none of the
 * secrets that went by.
 */
import { spawn, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, vi } from 'vitest'
import { openStore, STORE_FILE } from '../store/database'
import { describe, expect, it } from '../testing/fixtures'
import { createReader } from '../use-cases/reader-tokens'

const ROOT = join(import.meta.dirname, '../../..')
vi.setConfig({ testTimeout: 60_000 })

beforeAll(() => {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' })
  expect(built.status).toBe(0)
}, 120_000)

describe('the log file of the headless shell', () => {
  it('has what happened, at the level asked, and no token, cookie or admin URL token', async ({ fixtureSite: fixture, dataDir, defer }) => {
    writeFileSync(
      join(dataDir, 'sites.json'),
      JSON.stringify({
        sites: [
          {
            key: 'fx',
            name: 'Fixture',
            hosts: [fixture.host],
            family: 'madara',
            idPattern: '^/madara/manga/([^/]+)',
            pace: { minGapMs: 200 },
          },
        ],
      }),
    )
    const store = openStore(join(dataDir, STORE_FILE), { now: Date.now() })
    const readerToken = (await createReader(store.db, 'aiko', Date.now())).token
    await store.close()
    const adminToken = 'admin-token-for-the-log-test-0123456789'
    const guessed = 'guessed-token-ZZZZ9999'
    const inQuery = 'query-token-QQQQ8888'

    const child = spawn(
      process.execPath,
      [join(ROOT, 'out/main/headless.js'), '--data', dataDir, '--port', '0', '--admin-token', adminToken],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, MB_LOG_LEVEL: 'debug' },
      },
    )
    const ended = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    defer(() => child.exitCode === null && child.kill('SIGKILL'))
    let stdout = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.resume()
    const origin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not serving: ${stdout}`)), 30_000)
      child.stdout.on('data', () => {
        const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)
        if (match && stdout.includes('admin: http')) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
    })
    expect(stdout).toContain(`/admin/?token=${adminToken}`)
    // The owner's window has a listener of its own: the admin URL names it.
    const adminOrigin = /admin: (http:\/\/127\.0\.0\.1:\d+)\/admin\//.exec(stdout)![1]!

    // The owner opens the admin URL; someone tries a wrong admin token.
    const opened = await fetch(`${adminOrigin}/admin/?token=${adminToken}`, { redirect: 'manual' })
    const cookie = opened.headers.get('set-cookie')?.split(';')[0] ?? ''
    expect(cookie).toMatch(/=/)
    await fetch(`${adminOrigin}/admin/`, { headers: { cookie } })
    expect((await fetch(`${adminOrigin}/admin/?token=wrong-admin-token-0000`, { redirect: 'manual' })).status).toBe(401)
    // A Reader syncs; someone guesses tokens; a token sent in a query.
    const reader = { authorization: `Bearer ${readerToken}`, 'content-type': 'application/json' }
    const added = await fetch(`${origin}/api/v1/bookmarks`, {
      method: 'POST',
      headers: reader,
      body: JSON.stringify({ url: `${fixture.origin}/madara/manga/wolf/` }),
    })
    expect(added.status).toBe(202)
    expect((await fetch(`${origin}/api/v1/bookmarks`, { headers: { authorization: `Bearer ${guessed}` } })).status).toBe(401)
    expect((await fetch(`${origin}/api/v1/me?token=${inQuery}`)).status).toBe(401)
    // The Series is read in the background: wait for its check, a debug line.
    const logDir = join(dataDir, 'logs')
    const text = () =>
      readdirSync(logDir)
        .map((f) => readFileSync(join(logDir, f), 'utf8'))
        .join('')
    for (let i = 0; i < 200 && !text().includes('acquire: read a new Series'); i++) await new Promise((r) => setTimeout(r, 50))

    child.kill('SIGTERM')
    expect(await ended).toBe(0)
    const logged = text()
    expect(logged).toContain('"msg":"acquire: read a new Series"')
    expect(logged).toContain('"msg":"headless: stopped"')
    for (const secret of [adminToken, readerToken, guessed, inQuery, cookie.split('=')[1]!]) expect(logged).not.toContain(secret)
  })
})

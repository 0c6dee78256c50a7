/**
 * `npm run admin-link`: a new one-time sign-in link from the running app, no restart (docs/adr/0127). A real
 * headless shell on a real data directory, real HTTP on loopback; the shell's clock is a fake one the command's
 * waits move, so nothing sleeps for real.
 */
import { existsSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SPENT_ADMIN_LINK } from '../access/sign-in-words'
import { startHeadlessShell, type HeadlessShell } from '../headless/shell'
import { silentLog } from '../log'
import { FakeClock } from '../testing/clock'
import { openStore, STORE_FILE } from '../store/database'
import { tempDir } from '../testing/store'
import { ANSWER_WAIT_MS, runAdminLinkCommand, type AdminLinkTime } from './admin-link'

function get(port: number, path: string, cookie?: string): Promise<{ status: number; text: string; setCookie: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: cookie ? { cookie } : {} }, (res) => {
      let text = ''
      res.on('data', (c: Buffer) => (text += c.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, setCookie: String(res.headers['set-cookie'] ?? '') }))
    })
    req.on('error', reject)
    req.end()
  })
}

const io = () => {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}

/**
 * The command's waits: its clock is the fake one, moved by each wait; the app looks for requests in real time, every
 * LOOK_MS here, so each wait also lets a few real milliseconds pass.
 */
const LOOK_MS = 5
const fakeTime = (clock: FakeClock): AdminLinkTime => ({
  now: () => clock.now(),
  sleep: async (ms) => {
    await clock.advance(ms)
    await new Promise((resolve) => setTimeout(resolve, LOOK_MS))
  },
})

describe('npm run admin-link, with the app running', () => {
  const clock = new FakeClock()
  let shell: HeadlessShell
  let dir: { dir: string; remove(): void }
  beforeAll(async () => {
    dir = tempDir()
    shell = await startHeadlessShell({
      dataDir: dir.dir,
      port: 0,
      adminPort: 0,
      log: silentLog,
      clock,
      lanes: false,
      adminLinkLookMs: LOOK_MS,
    })
  })
  afterAll(async () => {
    await shell.stop()
    dir.remove()
  })

  it('prints a link from the running app that signs in once; the spent link says how to get a new one', async () => {
    const run = io()
    expect(await runAdminLinkCommand(['--data', dir.dir], run.io, {}, fakeTime(clock))).toBe(0)
    expect(run.err).toEqual([])
    const link = /^sign in: (http:\/\/127\.0\.0\.1:(\d+)(\/admin\/\?code=[A-Za-z0-9_-]{43}))$/.exec(run.out[0]!)
    expect(link, run.out.join('\n')).not.toBeNull()
    expect(Number(link![2])).toBe(shell.adminPort)
    const first = await get(shell.adminPort, link![3]!)
    expect(first.status).toBe(303)
    expect(first.setCookie).toContain(`mb_admin_${shell.adminPort}=`)
    const again = await get(shell.adminPort, link![3]!)
    expect(again.status).toBe(401)
    expect(again.text).toContain(SPENT_ADMIN_LINK.title)
    expect(again.text).toContain('npm run admin-link')
    expect(again.text).not.toContain('Restart the app')
  })

  it('the shell makes a new link on request too, each working once', async () => {
    const a = shell.newAdminSignInLink!()
    const b = shell.newAdminSignInLink!()
    expect(a).not.toBe(b)
    for (const link of [a, b]) expect((await get(shell.adminPort, new URL(link).pathname + new URL(link).search)).status).toBe(303)
    expect((await get(shell.adminPort, new URL(a).pathname + new URL(a).search)).status).toBe(401)
  })

  it('the database keeps only the code’s hash, never the code', async () => {
    const run = io()
    expect(await runAdminLinkCommand(['--data', dir.dir], run.io, {}, fakeTime(clock))).toBe(0)
    const code = /code=([A-Za-z0-9_-]{43})/.exec(run.out[0]!)![1]!
    const store = openStore(`${dir.dir}/${STORE_FILE}`, { now: 1 })
    try {
      const rows = await store.db.selectFrom('admin_sign_in_requests').selectAll().execute()
      expect(JSON.stringify(rows)).not.toContain(code)
      expect(rows.every((r) => r.taken_at > 0 && r.admin_port === shell.adminPort)).toBe(true)
    } finally {
      await store.close()
    }
  })
})

describe('npm run admin-link, with no app running', () => {
  let dir: { dir: string; remove(): void }
  afterEach(() => dir.remove())

  it('says no app answered, within its wait, and leaves no request behind', async () => {
    dir = tempDir()
    const store = openStore(`${dir.dir}/${STORE_FILE}`, { now: 1 })
    await store.close()
    const clock = new FakeClock()
    const run = io()
    expect(await runAdminLinkCommand(['--data', dir.dir], run.io, {}, fakeTime(clock))).toBe(1)
    expect(run.out).toEqual([])
    expect(run.err.join('\n')).toMatch(/no running app answered on .* within 5 seconds\. Start it/)
    expect(clock.now() - 1_700_000_000_000).toBeGreaterThanOrEqual(ANSWER_WAIT_MS)
    const again = openStore(`${dir.dir}/${STORE_FILE}`, { now: 1 })
    try {
      expect(await again.db.selectFrom('admin_sign_in_requests').selectAll().execute()).toEqual([])
    } finally {
      await again.close()
    }
  })

  it("a demo's database (DIR/demo) is asked when DIR has none", async () => {
    dir = tempDir()
    const store = openStore(`${dir.dir}/demo/${STORE_FILE}`, { now: 1 })
    await store.close()
    const run = io()
    expect(await runAdminLinkCommand(['--data', dir.dir], run.io, {}, fakeTime(new FakeClock()))).toBe(1)
    expect(run.err.join('\n')).toContain('no running app answered')
    expect(existsSync(`${dir.dir}/${STORE_FILE}`)).toBe(false)
  })

  it('a directory with no database is named, and nothing is made there', async () => {
    dir = tempDir()
    const run = io()
    expect(await runAdminLinkCommand(['--data', dir.dir], run.io, {}, fakeTime(new FakeClock()))).toBe(1)
    expect(run.err.join('\n')).toContain('there is no database in')
    expect(existsSync(`${dir.dir}/${STORE_FILE}`)).toBe(false)
  })
})

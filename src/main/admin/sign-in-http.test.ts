/**
 * One-time sign-in links over real HTTP on loopback (docs/adr/0087-sign-in-links-that-end.md): the admin link the
 * shell prints signs a browser in once, within its minutes; the code a Reader's QR code carries is exchanged once
 * on the sync endpoint for the Reader's token. A used or expired code answers 401 in words and changes nothing.
 */
import { PROBLEM_CSS_PATH } from '../server/pages'
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHeadlessShell, type HeadlessShell } from '../headless/shell'
import { silentLog } from '../log'
import { SIGN_IN_TRIES_PER_MINUTE, SPENT_CODE } from '../sync/sign-in-route'
import { FakeClock } from '../testing/clock'
import { tempDir } from '../testing/store'
import { sessionCookieName } from './admin-http'
import { SIGN_IN_CODE_TTL_MS } from '../access/sign-in-codes'

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

function raw(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Raw> {
  const data = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { ...(data ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
      },
    )
    req.on('error', reject)
    req.end(data)
  })
}

const shells: HeadlessShell[] = []
const dirs: Array<{ remove(): void }> = []
async function start(clock: FakeClock): Promise<HeadlessShell> {
  const dir = tempDir()
  dirs.push(dir)
  const shell = await startHeadlessShell({ dataDir: dir.dir, port: 0, log: silentLog, clock, sites: [], lanes: false })
  shells.push(shell)
  return shell
}
afterAll(async () => {
  for (const shell of shells) await shell.stop()
  for (const dir of dirs) dir.remove()
})

const signInPath = (shell: HeadlessShell) => new URL(shell.adminSignInUrl).pathname + new URL(shell.adminSignInUrl).search
const adminGet = (shell: HeadlessShell, path: string, cookie?: string) =>
  raw(shell.adminPort, 'GET', path, { host: `127.0.0.1:${shell.adminPort}`, ...(cookie ? { cookie } : {}) })
const rpc = (shell: HeadlessShell, method: string, input: unknown, cookie: string) => {
  const host = `127.0.0.1:${shell.adminPort}`
  return raw(shell.adminPort, 'POST', `/admin/rpc/${method}`, { host, origin: `http://${host}`, cookie }, input)
}
const exchange = (shell: HeadlessShell, code: unknown) => raw(shell.port, 'POST', '/api/v1/sign-in', {}, { code })

describe('the admin sign-in link', () => {
  let clock: FakeClock
  let shell: HeadlessShell
  let cookie = ''
  beforeAll(async () => {
    clock = new FakeClock()
    shell = await start(clock)
  })

  it('is a one-time code, not the token, and signs a browser in once: a session cookie, the code dropped', async () => {
    expect(shell.adminSignInUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${shell.adminPort}/admin/\\?code=[A-Za-z0-9_-]{43}$`))
    expect(shell.adminSignInUrl).not.toContain(new URL(shell.adminUrl).searchParams.get('token')!)
    const first = await adminGet(shell, signInPath(shell))
    expect(first.status).toBe(303)
    expect(first.headers.location).toBe('/admin/')
    cookie = String(first.headers['set-cookie']).split(';')[0]!
    expect(cookie.startsWith(`${sessionCookieName(shell.adminPort)}=`)).toBe(true)
    expect((await rpc(shell, 'overview', {}, cookie)).status).toBe(200)
  })

  it('a second use is refused with a page that says so, and starts no session', async () => {
    const again = await adminGet(shell, signInPath(shell))
    expect(again.status).toBe(401)
    expect(again.headers['set-cookie']).toBeUndefined()
    expect(again.text).toContain('This sign-in link was already used or has expired')
    expect(again.text).toContain('Nothing was changed')
    // A styled page: the stylesheet it links is served, under the page CSP (no inline style).
    expect(again.text).toContain(`<link rel="stylesheet" href="${PROBLEM_CSS_PATH}">`)
    const style = await adminGet(shell, PROBLEM_CSS_PATH)
    expect(style.status).toBe(200)
    expect(style.headers['content-type']).toMatch(/^text\/css/)
    expect(style.text).toContain('prefers-color-scheme:dark')
    // A browser that is signed in already is taken to the window instead; it gets no new session either.
    // Opened again and again there, it counts as no wrong guess: the throttle does not hold the owner back.
    for (let i = 0; i < 8; i++) {
      const signedIn = await adminGet(shell, signInPath(shell), cookie)
      expect(signedIn.status).toBe(303)
      expect(signedIn.headers['set-cookie']).toBeUndefined()
    }
  })

  it('the token URL still signs in (tools rely on it)', async () => {
    const byToken = await adminGet(shell, new URL(shell.adminUrl).pathname + new URL(shell.adminUrl).search)
    expect(byToken.status).toBe(303)
    expect(String(byToken.headers['set-cookie'])).toContain(sessionCookieName(shell.adminPort))
  })

  it('expires after 10 minutes unused', async () => {
    const expiring = await start(clock)
    await clock.advance(SIGN_IN_CODE_TTL_MS)
    const r = await adminGet(expiring, signInPath(expiring))
    expect(r.status).toBe(401)
    expect(r.headers['set-cookie']).toBeUndefined()
    expect(r.text).toContain('already used or has expired')
  })
})

describe("a Reader's sign-in code", () => {
  let clock: FakeClock
  let shell: HeadlessShell
  let cookie = ''
  const addReader = async (name: string) => {
    const r = await rpc(shell, 'addReader', { name }, cookie)
    expect(r.status).toBe(200)
    return JSON.parse(r.text).value as { token: string; address: { signInUrl: string } }
  }
  const codeOf = (signInUrl: string) => /#code=([A-Za-z0-9_-]{43})$/.exec(signInUrl)![1]!
  beforeAll(async () => {
    clock = new FakeClock()
    shell = await start(clock)
    cookie = String((await adminGet(shell, signInPath(shell))).headers['set-cookie']).split(';')[0]!
  })

  it('the QR link carries a one-time code, not the token; the code is exchanged once for the token', async () => {
    const issued = await addReader('Dana')
    expect(issued.address.signInUrl).not.toContain(issued.token)
    const code = codeOf(issued.address.signInUrl)
    const first = await exchange(shell, code)
    expect(first.status).toBe(200)
    expect(JSON.parse(first.text)).toEqual({ token: issued.token })
    const me = await raw(shell.port, 'GET', '/api/v1/me', { authorization: `Bearer ${issued.token}` })
    expect(me.status).toBe(200)
    const second = await exchange(shell, code)
    expect(second.status).toBe(401)
    expect(JSON.parse(second.text).error.message).toBe(SPENT_CODE)
  })

  it('an expired code, or one for a token rotated since, signs no one in', async () => {
    const issued = await addReader('Eli')
    await clock.advance(SIGN_IN_CODE_TTL_MS)
    expect((await exchange(shell, codeOf(issued.address.signInUrl))).status).toBe(401)
    const fresh = await addReader('Fay')
    const reader = JSON.parse((await rpc(shell, 'readers', {}, cookie)).text).value.find((r: { name: string }) => r.name === 'Fay')
    expect((await rpc(shell, 'rotateReaderToken', { readerId: reader.id }, cookie)).status).toBe(200)
    expect((await exchange(shell, codeOf(fresh.address.signInUrl))).status).toBe(401)
  })

  it('refuses what is not a code (422), and an address gets a few tries a minute', async () => {
    for (const bad of ['short', 42, null]) expect((await exchange(shell, bad)).status).toBe(422)
    const statuses: number[] = []
    for (let i = 0; i < SIGN_IN_TRIES_PER_MINUTE + 2; i++) statuses.push((await exchange(shell, 'A'.repeat(43))).status)
    expect(statuses).toContain(429)
  })

  it('the OpenAPI document lists the route', async () => {
    const doc = JSON.parse((await raw(shell.port, 'GET', '/api/v1/openapi.json')).text)
    expect(doc.paths['/api/v1/sign-in'].post).toBeDefined()
  })
})

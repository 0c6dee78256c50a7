/**
 * The owner's address lasts (docs/adr/0076): the admin token and the session key are kept in the data directory,
 * private; a restart keeps the same admin URL and an open window's session. Real files, real HTTP on loopback.
 */
import { readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs'
import { join } from 'node:path'
import { startHeadlessShell, type HeadlessShell } from '../headless/shell'
import { silentLog } from '../log'
import { adminSessionCookie } from '../testing/admin-session'
import { describe, expect, it } from '../testing/fixtures'
import { ADMIN_SECRET_FILE, loadAdminSecret } from './admin-secret'

describe('the admin secret file', () => {
  it('is made once, 0600, and read back the same at the next start', ({ makeDir }) => {
    const d = makeDir()
    const first = loadAdminSecret(d)
    expect(first.token.length).toBeGreaterThanOrEqual(43)
    expect(statSync(join(d, ADMIN_SECRET_FILE)).mode & 0o777).toBe(0o600)
    expect(loadAdminSecret(d)).toEqual(first)
  })

  it('a file others can read is tightened; one that is not a secret is replaced, and says so', ({ makeDir }) => {
    const d = makeDir()
    const file = join(d, ADMIN_SECRET_FILE)
    const first = loadAdminSecret(d)
    chmodSync(file, 0o644)
    expect(loadAdminSecret(d)).toEqual(first)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    writeFileSync(file, '{"token": "short"}')
    const second = loadAdminSecret(d)
    expect(second.replaced).toMatch(/admin-secret\.json was not a valid admin secret/)
    expect(second.token).not.toBe(first.token)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ token: second.token, sessionKey: second.sessionKey })
  })
})

describe('a restart of the headless shell', () => {
  const start = (dataDir: string, adminPort = 0) => startHeadlessShell({ dataDir, port: 0, log: silentLog, lanes: false, adminPort })
  const overview = (shell: HeadlessShell, cookie: string) => {
    const origin = `http://127.0.0.1:${shell.adminPort}`
    return fetch(`${origin}/admin/rpc/overview`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/json' },
      body: '{}',
    })
  }

  it('keeps the admin URL and the session: the window opened before it still works after', async ({ makeDir, defer }) => {
    const d = makeDir()
    const before = await start(d)
    const token = new URL(before.adminUrl).searchParams.get('token')!
    const cookie = await adminSessionCookie(before.adminPort, token)
    expect((await overview(before, cookie)).status).toBe(200)
    await before.stop()

    const after = await start(d, before.adminPort)
    defer(() => after.stop())
    expect(after.adminUrl).toBe(before.adminUrl)
    expect((await overview(after, cookie)).status).toBe(200)
    // A token given for a start is used for that start; the session key stays the data directory's.
    expect((await overview(after, `${cookie.split('=')[0]}=forged.forged.forged`)).status).toBe(401)
  })

  it('a default admin port that another program holds: a free one, said, instead of no start', async ({ makeDir, defer }) => {
    const d = makeDir()
    const holder = await start(makeDir())
    defer(() => holder.stop())
    const shell = await startHeadlessShell({
      dataDir: d,
      port: 0,
      log: silentLog,
      lanes: false,
      adminPort: holder.adminPort,
      adminPortOrFree: true,
    })
    defer(() => shell.stop())
    expect(shell.adminPortTaken).toBe(holder.adminPort)
    expect(shell.adminPort).not.toBe(holder.adminPort)
    await expect(start(makeDir(), holder.adminPort)).rejects.toThrow(/for the owner's window, is in use .*--admin-port N/)
  })
})

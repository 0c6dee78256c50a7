/**
 * The admin contract through the headless transport, on its own listener: every method reachable, every bad
 * input refused, and no call without a live session, from a foreign Origin (the Readers' page's included) or
 * to a foreign Host; wrong tokens throttled. Real HTTP on loopback.
 */
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ADMIN_METHODS, type AdminMethod } from '../../shared/admin-api'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { startHeadlessShell, type HeadlessShell } from '../headless/shell'
import { adminSessionCookie } from '../testing/admin-session'
import { AdminSessions, FREE_TOKEN_TRIES, MAX_TOKEN_WAIT_MS, SESSION_IDLE_MS, sessionCookieName } from './admin-http'
import { silentLog } from '../log'
import { insertPass } from '../store/passes'
import { ensureLane } from '../store/lanes'
import { recordFoundAgain } from '../store/search'
import { recordSiteMove } from '../store/site-moves'
import { BACKUP_DIR, listBackups } from '../store/backups'
import { FakeClock } from '../testing/clock'
import { tachibk } from '../testing/library-files'
import { seedSeries, tempDir } from '../testing/store'

let shell: HeadlessShell
let fixture: FixtureSite
let dir: { dir: string; remove(): void }
const clock = new FakeClock()
const TOKEN = 'test-admin-token-0123456789'
let cookie = ''

beforeAll(async () => {
  dir = tempDir()
  fixture = await startFixtureSite({ now: () => clock.now() })
  shell = await startHeadlessShell({
    dataDir: dir.dir,
    port: 0,
    log: silentLog,
    clock,
    sites: fixtureSites(fixture.host),
    lanes: false,
    adminToken: TOKEN,
  })
  cookie = await adminSessionCookie(shell.adminPort, TOKEN)
})
afterAll(async () => {
  await shell.stop()
  await fixture.close()
  dir.remove()
})

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  json: any
}

/** A raw HTTP request, so Host and Origin can be anything a hostile page could send. */
function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; port?: number } = {},
): Promise<Raw> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: options.port ?? shell.adminPort,
        method,
        path,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
      },
      (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c.toString()))
        res.on('end', () => {
          let json: unknown = null
          try {
            json = JSON.parse(text)
          } catch {
            json = text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const host = () => `127.0.0.1:${shell.adminPort}`
const rpc = (method: string, input: unknown, headers: Record<string, string> = {}) =>
  raw('POST', `/admin/rpc/${method}`, { body: input ?? {}, headers: { host: host(), origin: `http://${host()}`, cookie, ...headers } })

describe('the admin session', () => {
  it('the token URL starts a random, signed session: an HttpOnly SameSite=Strict cookie for this port and /admin, the token dropped', async () => {
    const r = await raw('GET', `/admin/?token=${TOKEN}`, { headers: { host: host() } })
    expect(r.status).toBe(303)
    expect(r.headers.location).toBe('/admin/')
    const set = String(r.headers['set-cookie'])
    // expiry.nonce.mac: nothing in it is the token or the key.
    expect(set).toMatch(new RegExp(`^${sessionCookieName(shell.adminPort)}=[a-z0-9]+\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43};`))
    expect(set).not.toContain(TOKEN)
    expect(set).toMatch(/HttpOnly/)
    expect(set).toMatch(/SameSite=Strict/)
    expect(set).toMatch(/Path=\/admin/)
    // Nothing in it is derived from the token: each sign-in is a new session.
    const again = String((await raw('GET', `/admin/?token=${TOKEN}`, { headers: { host: host() } })).headers['set-cookie'])
    expect(again.split(';')[0]).not.toBe(set.split(';')[0])
  })

  it('the page itself is served with a CSP', async () => {
    const r = await raw('GET', '/admin/', { headers: { host: host() } })
    expect(r.status).toBe(200)
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'")
  })

  it.each([
    ['no session cookie', { cookie: '' }, 401],
    ['a forged session cookie', { cookie: `${sessionCookieName(0)}=forged` }, 401],
    ['a foreign Origin', { origin: 'http://evil.example' }, 403],
    ['no Origin', { origin: '' }, 403],
    ['a foreign Host (DNS rebinding)', { host: 'evil.example', origin: 'http://evil.example' }, 403],
  ])('an RPC with %s is refused', async (_name, headers, status) => {
    const r = await rpc('overview', {}, headers)
    expect(r.status).toBe(status)
    expect(r.json).toEqual({ error: { code: expect.any(String), message: expect.any(String) } })
  })

  it('a session whose expiry was pushed out by hand, or whose mac was changed, is not a session', async () => {
    const [name, value] = cookie.split('=') as [string, string]
    const [, nonce, mac] = value.split('.')
    const later = Number.MAX_SAFE_INTEGER.toString(36)
    expect((await rpc('overview', {}, { cookie: `${name}=${later}.${nonce}.${mac}` })).status).toBe(401)
    const flipped = mac!.slice(0, -1) + (mac!.endsWith('A') ? 'B' : 'A')
    expect((await rpc('overview', {}, { cookie: `${name}=${value.split('.')[0]}.${nonce}.${flipped}` })).status).toBe(401)
    expect((await rpc('overview', {}, { cookie })).status).toBe(200)
  })

  it('the session cookie of another port is not a session here', async () => {
    const other = cookie.replace(sessionCookieName(shell.adminPort), sessionCookieName(shell.port))
    expect((await rpc('overview', {}, { cookie: other })).status).toBe(401)
  })

  it('localhost works as a Host too', async () => {
    const localhost = `localhost:${shell.adminPort}`
    expect((await rpc('overview', {}, { host: localhost, origin: `http://${localhost}` })).status).toBe(200)
  })

  it('a session ends 30 days after its last use, not before: each use answers with its cookie a later expiry', async () => {
    expect(SESSION_IDLE_MS).toBe(30 * 24 * 3_600_000)
    // The sessions alone, on a clock of their own: the shell's timers need not fire for 60 days of fake time.
    const own = new FakeClock()
    const sessions = new AdminSessions('k'.repeat(32), own)
    const first = sessions.start()
    await own.advance(SESSION_IDLE_MS - 60_000)
    const renewed = sessions.use(first)
    expect(renewed).toBeDefined()
    expect(renewed).not.toBe(first)
    // Used just now: another 30 days from here (the first cookie, not renewed, has run out).
    await own.advance(SESSION_IDLE_MS - 60_000)
    expect(sessions.use(first)).toBeUndefined()
    const again = sessions.use(renewed)
    expect(again).toBeDefined()
    await own.advance(SESSION_IDLE_MS + 1)
    expect(sessions.use(again)).toBeUndefined()
    // Through the listener: each use answers with the session's cookie and a later expiry.
    const session = await adminSessionCookie(shell.adminPort, TOKEN)
    await clock.advance(60_000)
    const r = await rpc('overview', {}, { cookie: session })
    expect(r.status).toBe(200)
    const expiry = (value: string) => parseInt(value.split('=')[1]!.split('.')[0]!, 36)
    expect(expiry(String(r.headers['set-cookie']).split(';')[0]!)).toBe(expiry(session) + 60_000)
  })

  it('the session cookie is persistent: Max-Age of the idle time at sign-in and at each renewal, so closing the browser keeps it', async () => {
    const signIn = await raw('GET', `/admin/?token=${TOKEN}`, { port: shell.adminPort })
    const set = String(signIn.headers['set-cookie'] ?? '')
    expect(set).toContain(`Max-Age=${SESSION_IDLE_MS / 1000}`)
    const renewed = await rpc('overview', {}, { cookie: set.split(';')[0]! })
    expect(String(renewed.headers['set-cookie'] ?? '')).toContain(`Max-Age=${SESSION_IDLE_MS / 1000}`)
  })
})

describe('the admin on its own listener', () => {
  const sync = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    raw(method, path, {
      port: shell.port,
      headers: { host: `127.0.0.1:${shell.port}`, ...headers },
      ...(method === 'POST' ? { body: {} } : {}),
    })

  it('listens on another port than the sync endpoint', () => {
    expect(shell.adminPort).not.toBe(shell.port)
    expect(shell.adminUrl).toBe(`http://127.0.0.1:${shell.adminPort}/admin/?token=${TOKEN}`)
  })

  it('the sync endpoint serves no admin page, asset or RPC — not even with a session and its own Origin', async () => {
    const origin = `http://127.0.0.1:${shell.port}`
    expect((await sync(`/admin/?token=${TOKEN}`)).status).toBe(404)
    expect((await sync('/admin/')).status).toBe(404)
    expect((await sync('/admin/rpc/overview', { cookie, origin }, 'POST')).status).toBe(404)
    expect((await sync('/admin/rpc/addReader', { cookie, origin }, 'POST')).status).toBe(404)
  })

  it("a request from the Readers' page's origin to the admin listener is refused", async () => {
    const r = await rpc('addReader', { name: 'Mallory' }, { origin: `http://127.0.0.1:${shell.port}` })
    expect(r.status).toBe(403)
    expect(JSON.stringify((await rpc('readers', {})).json)).not.toContain('Mallory')
  })

  it('the admin listener serves neither the Readers’ page nor the sync API', async () => {
    expect((await raw('GET', '/', { headers: { host: host() } })).status).toBe(404)
    expect((await raw('GET', '/api/v1/health', { headers: { host: host() } })).status).toBe(404)
  })
})

describe('wrong admin tokens', () => {
  const tryToken = (token: string) => raw('GET', `/admin/?token=${token}`, { headers: { host: host() } })

  it('1,000 guesses: a few are heard, then each waits longer; the right token is heard again after the wait', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 1_000; i++) statuses.push((await tryToken(`guess-${i}`)).status)
    expect(statuses.slice(0, FREE_TOKEN_TRIES)).toEqual(Array(FREE_TOKEN_TRIES).fill(401))
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE_TOKEN_TRIES)
    expect(statuses.slice(FREE_TOKEN_TRIES).every((s) => s === 429)).toBe(true)

    // While it waits, even the right token is not heard: a guess that happened to be right would not be either.
    const waiting = await tryToken(TOKEN)
    expect(waiting.status).toBe(429)
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0)

    await clock.advance(1_000)
    expect((await tryToken('one-more-wrong')).status).toBe(401)
    // Each wrong try doubles the wait, up to a minute.
    for (let i = 0; i < 10; i++) {
      await clock.advance(MAX_TOKEN_WAIT_MS)
      expect((await tryToken(`later-${i}`)).status).toBe(401)
      expect(Number((await tryToken(TOKEN)).headers['retry-after'])).toBeLessThanOrEqual(MAX_TOKEN_WAIT_MS / 1000)
    }
    await clock.advance(MAX_TOKEN_WAIT_MS)
    expect((await tryToken(TOKEN)).status).toBe(303)
    // The right token resets the count.
    expect((await tryToken('a-slip')).status).toBe(401)
    expect((await tryToken(TOKEN)).status).toBe(303)
  })
})

describe('every admin method through the headless transport', () => {
  const valid: Partial<Record<AdminMethod, () => unknown>> = {}
  let readerId = 0
  const key = { site: 'fixture-madara', seriesId: 'tower' }

  beforeAll(async () => {
    const added = await rpc('addReader', { name: 'Aiko' })
    readerId = added.json.value.reader.id
    await rpc('addBookmark', { readerId, url: `${fixture.origin}/madara/manga/tower/` })
    Object.assign(valid, {
      overview: () => ({}),
      listSeries: () => ({ filter: 'new', sort: 'changed', limit: 10 }),
      seriesDetail: () => key,
      updates: () => ({ limit: 5 }),
      lanes: () => ({}),
      readers: () => ({}),
      settings: () => ({}),
      forceSeriesPoll: () => key,
      pauseLane: () => ({ site: 'fixture-madara', duration: '6h' }),
      resumeLane: () => ({ site: 'fixture-madara' }),
      acceptSiteMove: () => ({ site: 'fixture-refusing' }),
      dismissSiteMove: () => ({ site: 'fixture-webtoons' }),
      finishSeries: () => key,
      unfinishSeries: () => key,
      setSeriesUrl: () => ({ ...key, url: `${fixture.origin}/madara/manga/tower/` }),
      addBookmark: () => ({ readerId, url: `${fixture.origin}/themesia/manga/bloom/` }),
      removeBookmark: () => ({ readerId, site: 'fixture-themesia', seriesId: 'bloom' }),
      addReader: () => ({ name: 'Ben' }),
      rotateReaderToken: () => ({ readerId }),
      addReaderDevice: () => ({ readerId, name: 'Tablet' }),
      endReaderDevice: async () => {
        const readers = (await rpc('readers', {})).json.value as Array<{ id: number; devices: Array<{ id: number }> }>
        return { readerId, deviceId: readers.find((r) => r.id === readerId)!.devices.at(-1)!.id }
      },
      removeReader: () => ({ readerId: 999_999 }),
      updateSettings: () => ({ notifications: false }),
      startImport: () => ({ readerId, file: { fileName: 'list.txt', text: `${fixture.origin}/madara/manga/listed/\n` } }),
      importJob: () => ({ jobId: jobs.mapped }),
      mapImportSource: () => ({ jobId: jobs.mapped, sourceId: '42', site: 'fixture-madara' }),
      confirmImport: () => ({ jobId: jobs.mapped }),
      cancelImport: () => ({ jobId: jobs.cancelled }),
      exportLibrary: () => ({}),
      backupNow: () => ({}),
      backups: () => ({}),
      // The backup backupNow made just before (the methods are called in the contract's order).
      restoreBackup: () => ({ file: listBackups(join(dir.dir, BACKUP_DIR))[0]!.file }),
      proposeSite: () => ({ url: `${unknown.origin}/madara/manga/somewhere/` }),
      addSite: () => ({ proposalId }),
      notifications: () => ({}),
      setNotificationChannels: () => ({ channels: [{ kind: 'ntfy', url: 'https://ntfy.example/owner-topic' }] }),
      testNotifications: () => ({}),
      searchSites: () => ({}),
      // Past the Lane's gap since the bookmark's first check: the search's turn comes at once.
      searchSite: async () => {
        await clock.advance(60_000)
        return { site: 'fixture-madara', query: 'lantern' }
      },
      foundAgain: () => ({}),
      // A gone Series found again, as the Lane records it: accepted once, then found again and dismissed.
      acceptFoundAgain: async () => {
        await recordFoundAgain(shell.core.store.db, key, 1, { url: `${fixture.origin}/madara/manga/tower/`, title: 'Tower' })
        return key
      },
      dismissFoundAgain: async () => {
        await recordFoundAgain(shell.core.store.db, key, 2, { url: `${fixture.origin}/madara/manga/tower-2/`, title: 'Tower' })
        return key
      },
    })
    // A move to accept and one to dismiss, as a check records them (a permanent redirect to another host).
    for (const [site, port] of [
      ['fixture-refusing', 9],
      ['fixture-webtoons', 10],
    ] as const) {
      await ensureLane(shell.core.store.db, site)
      await recordSiteMove(shell.core.store.db, site, { toOrigin: `http://127.0.0.1:${port}`, fromUrl: `${fixture.origin}/x`, at: 1 })
    }
    // Add a Site: a proposal for a host no Site pins yet, to confirm.
    unknown = await startFixtureSite()
    const proposed = await rpc('proposeSite', { url: `${unknown.origin}/themesia/manga/iron-bloom/` })
    proposalId = proposed.json.value.id
    // Two imports waiting at their preview: one to map and confirm, one to cancel.
    const backup = tachibk({ manga: [{ source: '42', url: '/madara/manga/mapped/' }], sources: [{ name: 'Forty-two', sourceId: '42' }] })
    for (const name of ['mapped', 'cancelled'] as const) {
      const started = await rpc('startImport', { readerId, file: { fileName: 'b.tachibk', base64: backup.toString('base64') } })
      jobs[name] = started.json.value.id
      await vi.waitFor(async () => expect((await rpc('importJob', { jobId: jobs[name] })).json.value.phase).toBe('previewed'), {
        timeout: 15_000,
      })
    }
  })
  const jobs = { mapped: '', cancelled: '' }
  let unknown: FixtureSite
  let proposalId = ''
  afterAll(() => unknown?.close())

  it('has a valid call for every method of the contract', () => {
    expect(Object.keys(valid).sort()).toEqual([...ADMIN_METHODS].sort())
  })

  it.each(ADMIN_METHODS.filter((m) => m !== 'removeReader'))('%s answers a valid call', async (method) => {
    const r = await rpc(method, await valid[method]!())
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    expect(r.json).toHaveProperty('value')
  })

  it('removeReader of an unknown Reader is a 404; of a known one, the list without them', async () => {
    expect((await rpc('removeReader', { readerId: 999_999 })).status).toBe(404)
    const added = await rpc('addReader', { name: 'Gone Soon' })
    const r = await rpc('removeReader', { readerId: added.json.value.reader.id })
    expect(r.json.value.map((x: { name: string }) => x.name)).not.toContain('Gone Soon')
  })

  it.each(ADMIN_METHODS)('%s refuses bad input with 422 and the error shape', async (method) => {
    const r = await rpc(method, { unexpected: true })
    expect(r.status).toBe(422)
    expect(r.json.error.code).toBe('invalid-request')
  })

  it('an unknown method is a 404', async () => {
    expect((await rpc('dropAllTables', {})).status).toBe(404)
  })

  it('writes answer with the freshly read row or block they changed', async () => {
    await clock.advance(60_000)
    const forced = await rpc('forceSeriesPoll', key)
    expect(forced.json.value).toMatchObject({ seriesId: 'tower', pending: true, forcePollAt: clock.now() })
    const paused = await rpc('pauseLane', { site: 'fixture-madara', duration: '1h' })
    expect(paused.json.value).toMatchObject({ site: 'fixture-madara', pausedUntil: clock.now() + 3_600_000 })
    const resumed = await rpc('resumeLane', { site: 'fixture-madara' })
    expect(resumed.json.value.pausedUntil).toBe(0)
    const finished = await rpc('finishSeries', key)
    expect(finished.json.value.finishedAt).toBe(clock.now())
  })

  it('Check now is refused for a Series no Reader holds (it would only sit pending)', async () => {
    // The bookmark on 'bloom' was added and removed above: an orphan now.
    const r = await rpc('forceSeriesPoll', { site: 'fixture-themesia', seriesId: 'bloom' })
    expect(r).toMatchObject({ status: 422, json: { error: { message: expect.stringMatching(/no Reader holds this Series/) } } })
  })

  it('setSeriesUrl is host-pinned', async () => {
    const r = await rpc('setSeriesUrl', { ...key, url: 'https://evil.example/manga/tower/' })
    expect(r).toMatchObject({ status: 422, json: { error: { code: 'off-pin' } } })
  })

  it('pause offers exactly 1h, 6h and 24h', async () => {
    expect((await rpc('pauseLane', { site: 'fixture-madara', duration: '2h' })).status).toBe(422)
    expect((await rpc('pauseLane', { site: 'fixture-madara', duration: 'forever' })).status).toBe(422)
  })

  it('the Lanes read comes from the store: an inserted pass row is what the Lane shows', async () => {
    await insertPass(shell.core.store.db, {
      site: 'fixture-themesia',
      started_at: clock.now() - 1000,
      ended_at: clock.now(),
      skip: '',
      due: 4,
      gap: 5000,
      clamped: 0,
      checked: 0,
      refused: 0,
      unreachable: 0,
      no_chapter: 0,
      unfetchable: 0,
      errors: 0,
    })
    const lanes = (await rpc('lanes', {})).json.value as Array<{
      site: string
      latestPass: { due: number; checked: number } | null
      recent: unknown[]
    }>
    const lane = lanes.find((l) => l.site === 'fixture-themesia')!
    expect(lane.latestPass).toMatchObject({ due: 4, checked: 0, success: 0 })
    expect(lane.recent).toHaveLength(1)
  })

  it('a bookmark whose id was made before the id rule (a control character) can still be seen and removed by the owner', async () => {
    const added = await rpc('addReader', { name: 'Old Rows' })
    const reader = added.json.value.reader.id as number
    await seedSeries(shell.core.store.db, { site: 'fixture-madara', id: 'a\u0000b', readers: [reader] })
    const old = { site: 'fixture-madara', seriesId: 'a\u0000b' }
    expect((await rpc('seriesDetail', old)).status).toBe(200)
    expect((await rpc('removeBookmark', { readerId: reader, ...old })).status).toBe(200)
    const left = await shell.core.store.db.selectFrom('bookmarks').selectAll().where('reader_id', '=', reader).execute()
    expect(left).toEqual([])
    // Nothing new is made from such an id: Check now on it is refused by the schema.
    expect((await rpc('forceSeriesPoll', old)).status).toBe(422)
  })

  it("a new Reader's token is shown once and works on the sync endpoint", async () => {
    const added = await rpc('addReader', { name: 'Cai' })
    const me = await fetch(`${shell.origin}/api/v1/me`, { headers: { authorization: `Bearer ${added.json.value.token}` } })
    expect(await me.json()).toMatchObject({ name: 'Cai' })
    expect(JSON.stringify((await rpc('readers', {})).json)).not.toContain(added.json.value.token)
  })
})

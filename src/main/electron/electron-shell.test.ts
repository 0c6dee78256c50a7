/**
 * The Electron shell, proven without its binary (docs/adr/0082-the-electron-stand-in.md): the real main entry and
 * preload run against the Electron stand-in, over the real core on a temporary data directory, the fixture site
 * server on loopback, and a fake clock. Each `describe` names a behaviour of e2e/electron.spec.ts, so the two can
 * be compared where Electron exists.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ADMIN_METHODS, adminChannel } from '../../shared/admin-methods'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { FakeClock } from '../testing/clock'
import { seedReader, seedSeries, tempDir } from '../testing/store'
import { ELECTRON_BEHAVIOURS as B } from './testing/behaviours'
import { appDirWithNative, bootElectronShell, until, type BootedShell } from './testing/boot'
import { InstanceLocks, StandInFrame } from './testing/electron-stand-in'
import type { StandInSession } from './testing/stand-in-session'

// Each test starts the whole app (a worker thread checks the store): room for a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 })

let root: { dir: string; remove(): void }
let appDir: string
let fixture: FixtureSite
const booted: BootedShell[] = []
let clock: FakeClock
let runs = 0

beforeAll(async () => {
  root = tempDir('mb-electron-')
  appDir = appDirWithNative(root.dir)
  clock = new FakeClock(Date.UTC(2026, 10, 3, 9))
  fixture = await startFixtureSite({ now: () => clock.now() })
})
afterEach(async () => {
  for (const shell of booted.splice(0)) {
    await Promise.race([shell.quit(), new Promise((resolve) => setTimeout(resolve, 8_000))])
    await shell.running?.stop()
  }
  vi.doUnmock('electron')
})
afterAll(async () => {
  await fixture.close()
  root.remove()
})

/** The fixture's Madara Site, over HTTP. */
const sites = () => {
  // A short rest, so that one pass checks every Series it finds due.
  const all = fixtureSites(fixture.host, { restMs: 60_000 })
  const site = (key: string) => all.find((s) => s.key === key)!
  return [
    site('fixture-madara'),
    // Browser Sites: pages the stand-in can read without running a script.
    { ...site('fixture-themesia'), key: 'browser-themesia', name: 'Browser Themesia', fetcher: 'browser' as const },
    { ...site('fixture-trouble'), key: 'browser-trouble', name: 'Browser Trouble', fetcher: 'browser' as const },
  ]
}

async function boot(options: { locks?: InstanceLocks; dataDir?: string; packaged?: boolean } = {}): Promise<BootedShell> {
  const dataDir = options.dataDir ?? join(root.dir, `data-${++runs}`)
  const resourcesDir = join(root.dir, 'resources')
  mkdirSync(resourcesDir, { recursive: true })
  const shell = await bootElectronShell({
    dataDir,
    appDir,
    resourcesDir,
    locks: options.locks ?? new InstanceLocks(),
    clock,
    sites: sites(),
    ...(options.packaged ? { packaged: true } : {}),
  })
  booted.push(shell)
  return shell
}

describe(B.ipc, () => {
  it('registers one handler per admin method; the preload reaches each, and the core answers', async () => {
    const shell = await boot()
    const { standIn, running } = shell
    expect([...standIn.ipcMain.handlers.keys()].sort()).toEqual(ADMIN_METHODS.map(adminChannel).sort())
    const { bridge } = await shell.preload()
    expect(bridge.shell).toBe('electron')
    expect(Object.keys(bridge.admin).sort()).toEqual([...ADMIN_METHODS].sort())

    // Each method reaches the core under its own name: a wrong input is refused by the core's validation of
    // exactly that method.
    for (const method of ADMIN_METHODS) {
      const answer = await bridge.admin[method]('not an input')
      expect(answer, method).toEqual(await running!.admin.call(method, 'not an input'))
      expect(answer).toMatchObject({
        ok: false,
        error: { code: 'invalid-request', message: expect.stringMatching(new RegExp(`^${method}: `)) },
      })
    }
    // Reads answer what the core holds; a write through IPC lands in the store.
    expect(await bridge.admin.settings({})).toEqual(await running!.admin.call('settings', {}))
    const added = await bridge.admin.addReader({ name: 'Aiko' })
    expect(added).toMatchObject({ ok: true, value: { reader: { name: 'Aiko' } } })
    const readers = await running!.core.store.db.selectFrom('readers').select('name').execute()
    expect(readers.map((r) => r.name)).toEqual(['Aiko'])
    // The export, read in the big-read worker as JSON text (docs/adr/0093-…), reaches the window as the document.
    const exported = await bridge.admin.exportLibrary({})
    expect(exported).toMatchObject({ ok: true, value: { format: 'manga-bookmark-library', readers: [{ name: 'Aiko', bookmarks: [] }] } })
  })
})

describe(B.frames, () => {
  it("answers `forbidden` and changes nothing for a subframe, a page off the app's file, or another window", async () => {
    const shell = await boot()
    const { standIn, running } = shell
    await shell.preload()
    const owner = shell.ownerWindow()
    const channel = adminChannel('addReader')
    const forbidden = { ok: false, error: { code: 'forbidden', message: "not the owner's window" } }

    // An iframe inside the owner's window (same contents, another frame).
    const iframe = new StandInFrame(owner.webContents.mainFrame.url)
    expect(await standIn.ipcMain.invokeFrom({ contents: owner.webContents, frame: iframe }, channel, { name: 'Frame' })).toEqual(forbidden)
    // Another window of the app (the browser fetcher's, say).
    const other = new standIn.module.BrowserWindow({ show: false })
    await other.loadFile(join(root.dir, 'other.html'))
    expect(
      await standIn.ipcMain.invokeFrom({ contents: other.webContents, frame: other.webContents.mainFrame }, channel, { name: 'Other' }),
    ).toEqual(forbidden)
    // The owner's own main frame, once it shows a page that is not the app's file.
    const appUrl = owner.webContents.mainFrame.url
    owner.webContents.mainFrame.url = 'https://evil.example/'
    expect(
      await standIn.ipcMain.invokeFrom({ contents: owner.webContents, frame: owner.webContents.mainFrame }, channel, { name: 'Web' }),
    ).toEqual(forbidden)
    owner.webContents.mainFrame.url = appUrl
    // Another window claiming the owner's frame (a frame belongs to one contents in Electron; the check holds even so).
    expect(
      await standIn.ipcMain.invokeFrom({ contents: other.webContents, frame: owner.webContents.mainFrame }, channel, { name: 'Claim' }),
    ).toEqual(forbidden)
    expect(await running!.core.store.db.selectFrom('readers').select('name').execute()).toEqual([])
    // The app's own page, from its main frame, is heard.
    expect(
      await standIn.ipcMain.invokeFrom({ contents: owner.webContents, frame: owner.webContents.mainFrame }, channel, { name: 'Owner' }),
    ).toMatchObject({
      ok: true,
    })
  })
})

describe(B.secondInstance, () => {
  it('the second process takes no lock on the data and exits 0; the first shows and focuses its window', async () => {
    const locks = new InstanceLocks()
    const first = await boot({ locks })
    const window = first.ownerWindow()
    await until(() => window.isVisible())
    window.close()
    expect(window.isVisible()).toBe(false)

    const second = await boot({ locks })
    expect(await second.standIn.app.exited).toBe(0)
    expect(second.standIn.calls).toContain('app.quit')
    expect(second.running).toBeUndefined()
    expect(second.standIn.windows).toEqual([])
    await until(() => window.isVisible() && window.isFocused(), 2_000)
    expect(first.standIn.app.exitCode).toBeUndefined()
  })
})

describe(B.tray, () => {
  it('the window hides, the app and its Lanes keep running, and the tray opens it again', async () => {
    const shell = await boot()
    const window = shell.ownerWindow()
    await until(() => window.isVisible())
    window.close()
    expect(window.isDestroyed()).toBe(false)
    expect(window.isVisible()).toBe(false)
    await new Promise((resolve) => setImmediate(resolve))
    expect(shell.standIn.app.exitCode).toBeUndefined()
    expect(shell.running!.core.lanesRunning).toBe(true)

    const tray = shell.standIn.trays[0]!
    expect(tray.toolTip).toMatch(/^Manga Bookmark — /)
    // The menu: Open, one line per Lane, the data folder, Quit.
    const labels = tray.menu!.items.filter((i) => i.type !== 'separator').map((i) => i.label)
    expect(labels[0]).toBe('Open Manga Bookmark')
    expect(
      labels
        .slice(1, -2)
        .map((l) => l!.replace(/:.*/, ''))
        .sort(),
    ).toEqual(
      sites()
        .map((s) => s.name)
        .sort(),
    )
    expect(labels.slice(-2)).toEqual(['Open data folder', 'Quit'])
    tray.clickMenu('Open data folder')
    expect(shell.standIn.opened).toEqual([shell.running!.dataDir])
    tray.clickMenu('Open Manga Bookmark')
    expect(window.isVisible()).toBe(true)
    window.hide()
    tray.emit('click')
    expect(window.isVisible()).toBe(true)

    // Even with no window left at all, the app stays in the tray (Electron would quit: the app says no).
    window.destroy()
    await new Promise((resolve) => setImmediate(resolve))
    expect(shell.standIn.app.exitCode).toBeUndefined()
    expect(shell.running!.core.lanesRunning).toBe(true)
  })

  it('the window is sandboxed and isolated, never navigates off the app, and opens web links outside', async () => {
    const shell = await boot()
    const window = shell.ownerWindow()
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false })
    expect(window.options.webPreferences?.preload).toMatch(/preload[\\/]index\.cjs$/)
    expect(window.webContents.navigate('https://evil.example/')).toBe(false)
    expect(window.webContents.navigate('file:///etc/passwd')).toBe(false)
    expect(window.webContents.windowOpenHandler?.({ url: 'https://mangadex.org/title/x' } as never)).toEqual({ action: 'deny' })
    expect(shell.standIn.opened).toEqual(['https://evil.example/', 'https://mangadex.org/title/x'])
    // Its session grants nothing a page asks for but a clipboard write.
    const ownerSession = window.webContents.session
    expect(granted(ownerSession, ['media', 'geolocation', 'notifications', 'clipboard-read'])).toEqual([])
    expect(ownerSession.checks('notifications')).toBe(false)
    expect(ownerSession.asksDevice()).toBe(false)
    expect(ownerSession.asks('clipboard-sanitized-write')).toBe(true)
  })
})

/** The permissions a session grants when a page asks for them. */
function granted(session: StandInSession, permissions: Array<Parameters<StandInSession['asks']>[0]>): string[] {
  return permissions.filter((permission) => session.asks(permission))
}

/** Pass rows written so far. */
async function passRows(shell: BootedShell): Promise<number> {
  const row = await shell
    .running!.core.store.db.selectFrom('poll_passes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Moves the fake clock a minute at a time (waiting for real I/O between) until `done()` holds. */
async function advanceUntil(done: () => Promise<boolean>, withinMs: number, stepMs = 60_000): Promise<void> {
  for (let spent = 0; spent <= withinMs; spent += stepMs) {
    if (await done()) return
    await clock.runFor(stepMs)
  }
  throw new Error(`not within ${withinMs} ms of fake time`)
}

async function bookmarked(
  shell: BootedShell,
  series: Array<{ site: string; path: string; title?: string; latest?: number; forced?: boolean }>,
) {
  const { core } = shell.running!
  const db = core.store.db
  // Seeded with the Lanes stopped, so that one pass finds them all due.
  await core.stopLanes()
  const reader = await seedReader(db, 'Aiko')
  for (const s of series) {
    const id = /\/manga\/([^/]+)\//.exec(s.path)![1]!
    await seedSeries(db, {
      site: s.site,
      id,
      url: `${fixture.origin}${s.path}`,
      title: s.title ?? id,
      latest: s.latest ?? null,
      ...(s.forced ? { forcedAt: clock.now() } : {}),
      readers: [reader],
    })
  }
  await core.startLanes()
}

describe(B.sleep, () => {
  it('suspend stops the Lanes within a second and no pass is written while asleep; resume starts them', async () => {
    const shell = await boot()
    const { running, standIn } = shell
    await bookmarked(shell, [{ site: 'fixture-madara', path: '/madara/manga/sleepy/' }])
    await advanceUntil(async () => (await passRows(shell)) > 0, 3_600_000)
    expect(running!.core.lanesRunning).toBe(true)

    standIn.powerMonitor.emit('suspend')
    await clock.runUntil(() => !running!.core.lanesRunning, { withinMs: 1_000 })
    const asleep = await passRows(shell)
    const hits = fixture.hits.length
    await clock.runFor(6 * 3_600_000)
    expect(await passRows(shell)).toBe(asleep)
    expect(fixture.hits.length).toBe(hits)

    standIn.powerMonitor.emit('resume')
    await clock.runUntil(() => running!.core.lanesRunning, { withinMs: 1_000 })
    await advanceUntil(async () => (await passRows(shell)) > asleep, 3_600_000)
  })
})

describe(B.notifications, () => {
  it("one notification per pass, the Site's text escaped; a click shows the window on the first Series", async () => {
    const shell = await boot()
    const { standIn } = shell
    const { bridge } = await shell.preload()
    const opened: unknown[] = []
    bridge.onOpenSeries((key) => opened.push(key))
    // The Site's own titles carry markup (the page escapes it as HTML; the app reads it back as text).
    fixture.series('/madara/manga/tower/').title = '<b>Tower</b> & co'
    fixture.series('/madara/manga/moon/').title = `Moon <img src='http://track.example/p.png'>`
    await bookmarked(shell, [
      { site: 'fixture-madara', path: '/madara/manga/tower/', latest: 1 },
      { site: 'fixture-madara', path: '/madara/manga/moon/', latest: 1 },
    ])
    await advanceUntil(async () => standIn.notifications.length > 0, 3_600_000)
    await clock.runFor(60_000)
    expect(standIn.notifications).toHaveLength(1)
    const [notice] = standIn.notifications
    expect(notice!.title).toBe('2 new chapters in 2 Series')
    const lines = notice!.body.split('\n')
    expect(lines.sort()).toEqual(
      [
        `&lt;b&gt;Tower&lt;/b&gt; &amp; co — Chapter ${fixture.series('/madara/manga/tower/').latest}`,
        `Moon &lt;img src=&#39;http://track.example/p.png&#39;&gt; — Chapter ${fixture.series('/madara/manga/moon/').latest}`,
      ].sort(),
    )
    const first = notice!.body.startsWith('&lt;b&gt;Tower') ? 'tower' : 'moon'

    const window = shell.ownerWindow()
    window.hide()
    notice!.click()
    expect(window.isVisible()).toBe(true)
    expect(opened).toEqual([{ site: 'fixture-madara', seriesId: first }])

    // The owner's setting turns them off.
    expect(await bridge.admin.updateSettings({ notifications: false })).toMatchObject({ ok: true })
    const next = fixture.publish('/madara/manga/tower/')
    const db = shell.running!.core.store.db
    await db.updateTable('series').set({ force_poll_at: clock.now() }).execute()
    const latest = async () =>
      (await db.selectFrom('series').select('latest_chapter').where('series_id', '=', 'tower').executeTakeFirst())?.latest_chapter
    await advanceUntil(async () => (await latest()) === next, 3_600_000)
    await clock.runFor(60_000)
    expect(standIn.notifications).toHaveLength(1)
  })
})

describe(B.fetcher, () => {
  it('keeps the host pin (through its gate, redirects off the pin refused) and grants no permission', async () => {
    const shell = await boot()
    const { standIn, running } = shell
    await bookmarked(shell, [
      // Forced (a Check now): a sleeping browser wakes for it.
      { site: 'browser-themesia', path: '/themesia/manga/lantern/', forced: true },
      { site: 'browser-trouble', path: '/redirect-off/manga/away/', forced: true },
    ])
    const done = async () => {
      const rows = await running!.core.store.db.selectFrom('series').select(['series_id', 'latest_chapter']).execute()
      return (
        rows.find((r) => r.series_id === 'lantern')?.latest_chapter != null && fixture.hits.some((h) => h.path.startsWith('/redirect-off/'))
      )
    }
    await advanceUntil(done, 30 * 60_000, 5 * 60_000)

    const fetcher = standIn.sessions.get('persist:manga-bookmark-fetcher')!
    expect(fetcher.proxy).toEqual({
      mode: 'fixed_servers',
      proxyRules: expect.stringMatching(/^socks5:\/\/127\.0\.0\.1:\d+$/),
      proxyBypassRules: '<-loopback>',
    })
    const window = standIn.windows.find((w) => w.options.webPreferences?.partition === 'persist:manga-bookmark-fetcher')!
    expect(window.options).toMatchObject({ show: false, webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false } })
    expect(window.webContents.audioMuted).toBe(true)
    expect(window.webContents.webRTCIPHandlingPolicy).toBe('disable_non_proxied_udp')
    // Every page came through the pin gate, with the app's name in the User-Agent and not Electron's.
    const pages = window.webContents.loads.filter((l) => l.url.startsWith('http'))
    expect(pages.length).toBeGreaterThan(0)
    expect(pages.every((l) => l.via === fetcher.proxy?.proxyRules)).toBe(true)
    const lantern = fixture.hits.find((h) => h.path === '/themesia/manga/lantern/')!
    expect(lantern.userAgent).toMatch(/ MangaBookmark\/\S+$/)
    expect(lantern.userAgent).not.toMatch(/Electron/)
    // The redirect to localhost was cancelled as it came: nothing but the pinned host was asked for.
    const { redirects } = window.webContents
    expect(redirects.length).toBeGreaterThan(0)
    expect(redirects.filter((r) => r.cancelled && /^http:\/\/localhost:\d+\/madara\/manga\/away\/$/.test(r.to))).toEqual(redirects)
    expect(fixture.hits.every((h) => h.host === fixture.host)).toBe(true)
    // Nothing a page asks for is granted; nothing downloads.
    expect(granted(fetcher, ['media', 'notifications', 'geolocation', 'clipboard-sanitized-write'])).toEqual([])
    expect(fetcher.checks('notifications')).toBe(false)
    expect(fetcher.downloads()).toBe(true)
    // Off the pin, the session's own request check refuses too.
    await expect(window.webContents.loadURL(`http://localhost:${fixture.origin.split(':').at(-1)}/madara/manga/x/`)).rejects.toThrow(
      /ERR_BLOCKED_BY_CLIENT/,
    )
  })
})

describe(B.quit, () => {
  it('Quit stops the Lanes, the server and the store, then the tray, then exits 0', async () => {
    const shell = await boot()
    const { standIn, running } = shell
    const dataDir = running!.dataDir
    let atExit: { lanes: boolean; lockHeld: boolean } | undefined
    const exit = standIn.app.exit.bind(standIn.app)
    standIn.app.exit = (code) => {
      atExit = { lanes: running!.core.lanesRunning, lockHeld: existsSync(join(dataDir, 'manga-bookmark.lock.holder')) }
      exit(code)
    }
    standIn.trays[0]!.clickMenu('Quit')
    expect(await standIn.app.exited).toBe(0)
    expect(atExit).toEqual({ lanes: false, lockHeld: false })
    const order = standIn.calls.filter((c) => /^(ipcMain\.removeHandler|tray\.destroy|app\.exit)/.test(c))
    expect(order.at(-2)).toBe('tray.destroy')
    expect(order.at(-1)).toBe('app.exit 0')
    expect(order.slice(0, -2)).toEqual(ADMIN_METHODS.map((m) => `ipcMain.removeHandler ${adminChannel(m)}`))
    expect(standIn.ipcMain.handlers.size).toBe(0)
    await expect(fetch(`${running!.origin}/`)).rejects.toThrow()
  })

  it('a stop that never ends is given up at the deadline: the app still exits, and says what was late', async () => {
    const shell = await boot()
    const { standIn, running } = shell
    const stop = running!.stop
    Object.assign(running!, { stop: () => new Promise<void>(() => undefined) })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      standIn.app.quit()
      await vi.advanceTimersByTimeAsync(4_900)
      expect(standIn.app.exitCode).toBeUndefined()
      await vi.advanceTimersByTimeAsync(200)
      expect(standIn.app.exitCode).toBe(0)
      expect(standIn.trays[0]!.isDestroyed()).toBe(true)
    } finally {
      vi.useRealTimers()
      Object.assign(running!, { stop })
    }
    const logs = readFileSync(join(running!.dataDir, 'logs', 'manga-bookmark.log'), 'utf8')
    expect(logs).toMatch(/"late":\["app"\].*electron: quit before everything drained/)
  })
})

describe(B.loginItem, () => {
  it('a packaged app sets the login item from the setting at start, and again when the owner changes it', async () => {
    const shell = await boot({ packaged: true })
    expect(shell.standIn.app.loginItem).toEqual({ openAtLogin: false })
    const { bridge } = await shell.preload()
    expect(await bridge.admin.updateSettings({ startAtLogin: true })).toMatchObject({ ok: true })
    await until(() => shell.standIn.app.loginItem?.openAtLogin === true, 2_000)
  })

  it('run from a checkout (not packaged), it leaves the login item alone', async () => {
    const shell = await boot()
    const { bridge } = await shell.preload()
    expect(await bridge.admin.updateSettings({ startAtLogin: true })).toMatchObject({ ok: true })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(shell.standIn.app.loginItem).toBeUndefined()
  })
})

/** The Electron shell's logic that runs without Electron: notices, link policy, power sequencing, drain, tray. */
import { describe, expect, it, vi } from 'vitest'
import type { LaneView } from '../../../shared/admin-api'
import { drain } from './drain'
import { noticeFor, rendersMarkup } from './notifications'
import { powerSequencer } from './power'
import { trayModel } from './tray'
import { isAppNavigation, linkDecision, ownerWindowAllows } from './window-policy'

const chapter = (n: number, title = `Series ${n}`) => ({
  site: 's',
  seriesId: `id${n}`,
  title,
  chapter: n,
  label: `Chapter ${n}`,
  url: `https://s.example/${n}`,
})

describe('New Chapter notices', () => {
  it('one pass, one notice; a click opens the first Series', () => {
    expect(noticeFor([chapter(12, 'Tower')], { markup: true })).toEqual({
      title: 'Tower — Ch 12',
      body: 'Chapter 12',
      open: { site: 's', seriesId: 'id12' },
    })
    const batch = noticeFor(
      [1, 2, 3].map((n) => chapter(n)),
      { markup: true },
    )
    expect(batch?.title).toBe('3 new chapters in 3 Series')
    expect(batch?.body.split('\n')).toHaveLength(3)
  })
  it('a long batch is cut with a count', () => {
    expect(
      noticeFor(
        [1, 2, 3, 4, 5, 6].map((n) => chapter(n)),
        { markup: true },
      )
        ?.body.split('\n')
        .at(-1),
    ).toBe('and 2 more')
  })
  it('a Site’s title and label reach a markup-reading notification server (Linux) as literal text', () => {
    const hostile = {
      ...chapter(3, '<a href="https://phish.example">Tower</a> & <b>co</b>'),
      label: `Chapter 3 <img src='http://track.example/p.png'>`,
    }
    const body = noticeFor([hostile, chapter(4)], { markup: rendersMarkup('linux') })!.body.split('\n')[0]
    expect(body).toBe(
      '&lt;a href=&quot;https://phish.example&quot;&gt;Tower&lt;/a&gt; &amp; &lt;b&gt;co&lt;/b&gt; — ' +
        'Chapter 3 &lt;img src=&#39;http://track.example/p.png&#39;&gt;',
    )
    expect(body).not.toMatch(/<|>|"|'|&(?!amp;|lt;|gt;|quot;|#39;)/)
    // Where the server shows text as it is (macOS, Windows), it is shown as it is.
    expect(noticeFor([hostile, chapter(4)], { markup: rendersMarkup('darwin') })!.body).toContain(
      '<a href="https://phish.example">Tower</a>',
    )
    expect(rendersMarkup('win32')).toBe(false)
  })
  it('one Series names itself in the title, its chapters counted in the body', () => {
    const two = [chapter(12, 'Tower'), { ...chapter(13, 'Tower'), seriesId: 'id12' }]
    expect(noticeFor(two, { markup: false })).toMatchObject({ title: 'Tower — Ch 13', body: '2 new chapters' })
  })
  it('nothing new, no notice', () => {
    expect(noticeFor([], { markup: true })).toBeNull()
  })
})

describe("the window's permissions", () => {
  it.each([
    'media',
    'geolocation',
    'notifications',
    'clipboard-read',
    'midi',
    'midiSysex',
    'pointerLock',
    'fullscreen',
    'openExternal',
    'hid',
    'serial',
    'usb',
    'display-capture',
    'idle-detection',
    'a-permission-added-later',
  ])('%s is denied', (permission) => {
    expect(ownerWindowAllows(permission)).toBe(false)
  })
  it('a clipboard write (copying a new Reader token) is allowed', () => {
    expect(ownerWindowAllows('clipboard-sanitized-write')).toBe(true)
  })
})

describe("the window's link policy", () => {
  it.each([
    ['https://mangadex.org/title/x', 'open-external'],
    ['http://192.168.1.5:4711/', 'open-external'],
    ['file:///etc/passwd', 'deny'],
    ['javascript:alert(1)', 'deny'],
    ['smb://server/share', 'deny'],
    ['https://user:pw@evil.example/', 'deny'],
    ['not a url', 'deny'],
  ])('%s → %s', (url, decision) => {
    expect(linkDecision(url)).toBe(decision)
  })
  it("navigation stays inside the app's own page", () => {
    const app = 'file:///opt/mb/out/renderer/index.html'
    expect(isAppNavigation('file:///opt/mb/out/renderer/index.html#/lanes', app)).toBe(true)
    expect(isAppNavigation('file:///etc/passwd', app)).toBe(false)
    expect(isAppNavigation('https://evil.example/', app)).toBe(false)
  })
})

describe('sleep and wake', () => {
  it('suspend stops the Lanes, resume starts them, in order and once each', async () => {
    const calls: string[] = []
    let releaseStop!: () => void
    const lanes = {
      // The first stop drains slowly (a pass in flight); later ones are quick.
      stop: vi.fn(() => new Promise<void>((r) => (calls.push('stop'), calls.length === 1 ? (releaseStop = r) : r()))),
      start: vi.fn(async () => void calls.push('start')),
    }
    const power = powerSequencer(lanes)
    const suspended = power.suspend()
    const resumed = power.resume()
    await new Promise((r) => setImmediate(r))
    // The resume waits for the stop to drain.
    expect(calls).toEqual(['stop'])
    releaseStop()
    await Promise.all([suspended, resumed])
    expect(calls).toEqual(['stop', 'start'])
    await power.resume()
    expect(lanes.start).toHaveBeenCalledTimes(1)
    await power.suspend()
    await power.suspend()
    expect(lanes.stop).toHaveBeenCalledTimes(2)
  })
})

describe('sleep and wake after a failure', () => {
  it('a start that fails is said, and the next resume tries again', async () => {
    const messages: string[] = []
    let fail = true
    const lanes = {
      stop: vi.fn(async () => undefined),
      start: vi.fn(async () => (fail ? Promise.reject(new Error('database is locked')) : undefined)),
    }
    const power = powerSequencer(lanes, (m) => messages.push(m))
    await power.suspend()
    await power.resume()
    expect(messages.at(-1)).toBe('power: starting the Lanes failed: database is locked')
    fail = false
    await power.resume()
    expect(lanes.start).toHaveBeenCalledTimes(2)
    await power.suspend()
    expect(lanes.stop).toHaveBeenCalledTimes(2)
  })
})

describe('quit drains', () => {
  it('waits for the tasks, and gives up on a stuck one at the deadline', async () => {
    const done = vi.fn()
    const report = await drain(
      [
        { name: 'lanes', run: async () => done() },
        { name: 'stuck', run: () => new Promise(() => undefined) },
      ],
      50,
    )
    expect(done).toHaveBeenCalled()
    expect(report.late).toEqual(['stuck'])
  })
})

describe('the tray', () => {
  const NOW = 1_800_000_000_000
  const lane = (site: string, over: Partial<LaneView> = {}): LaneView => ({
    site,
    name: `Site ${site}`,
    fetcher: 'http',
    pausedUntil: 0,
    refuseUntil: 0,
    pace: { restMs: 3_600_000, maxPassMs: 300_000, maxGapMs: 300_000, idleRequeryMs: 30_000 },
    latestPass: {
      id: 1,
      startedAt: NOW - 2_000,
      endedAt: NOW - 1_000,
      skip: '',
      due: 1,
      gap: 5_000,
      clamped: false,
      checked: 1,
      refused: 0,
      unreachable: 0,
      noChapter: 0,
      unfetchable: 0,
      errors: 0,
      success: 1,
    },
    ...over,
  })
  it("summarises Lane health in the tooltip and lists each Lane's state", () => {
    const model = trayModel([lane('a'), lane('b'), lane('c', { pausedUntil: NOW + 3_600_000 })], NOW)
    expect(model.tooltip).toBe('Manga Bookmark — 2 Lanes working · 1 paused')
    expect(model.lanes.map((l) => l.label)).toEqual([
      'Site a: working: checked 1 of 1 due',
      'Site b: working: checked 1 of 1 due',
      expect.stringMatching(/^Site c: paused until/),
    ])
    expect(model.lanes[2]?.attention).toBe(true)
  })

  it('says first, in the tooltip and the menu, that the database cannot take writes, and why', () => {
    const message = 'cannot write to /home/o/.local/share/manga-bookmark/manga-bookmark.sqlite: disk full'
    const model = trayModel([lane('a')], NOW, { problem: { kind: 'full', message, since: NOW - 60_000, action: 'free space' } })
    expect(model.tooltip).toBe(`Manga Bookmark — ${message}`)
    expect(model.lanes[0]).toEqual({ label: message, attention: true })
    expect(trayModel([lane('a')], NOW, { problem: null }).tooltip).toBe('Manga Bookmark — 1 Lane working')
  })
})

/**
 * The host pin against a hostile page, in real Chromium (docs/adr/0030): a page served by the fixture site on
 * a pinned browser Site tries every way out it has towards an unpinned loopback host — a second server that
 * records every TCP connection and every UDP datagram — and that server must hear nothing.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { systemClock } from '../../clock'
import { fixtureSites } from '../../demo/fixture-sites'
import { startFixtureSite, type FixtureSite } from '../../demo/fixture-site'
import { ATTACKS, type Attack } from '../../demo/hostile-pages'
import { silentLog } from '../../log'
import type { Site } from '../../sites/site'
import { tempDir } from '../../testing/store'
import type { BrowserFetcher } from '../fetcher'
import { createBrowserFetcher } from './browser-fetcher'
import { playwrightLauncher, resolveChromium } from './playwright-launcher'
import { passes } from './pin-gate'

const CHROMIUM = resolveChromium(undefined)
if (!CHROMIUM) throw new Error('These tests need Chromium: apt-get install -y chromium (CI installs it), or set CHROMIUM_PATH')

/** A loopback host off every pin: it records each TCP connection's first line and each UDP datagram. */
interface Recorder {
  readonly host: string
  readonly heard: string[]
  close(): Promise<void>
}

async function startRecorder(): Promise<Recorder> {
  const heard: string[] = []
  // One port number for TCP and UDP, so `to=127.0.0.1:P` covers WebRTC's STUN (UDP) and TURN (TCP) alike.
  for (;;) {
    const udp: UdpSocket = createSocket('udp4')
    await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r))
    const port = udp.address().port
    const tcp: Server = createServer((socket) => {
      heard.push('tcp: (connected)')
      socket.once('data', (chunk: Buffer) => (heard[heard.length - 1] = `tcp: ${chunk.toString('latin1').split('\r\n')[0]}`))
      socket.on('error', () => undefined)
      setTimeout(() => socket.destroy(), 200)
    })
    const bound = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false))
      tcp.listen(port, '127.0.0.1', () => resolve(true))
    })
    if (!bound) {
      udp.close()
      continue
    }
    udp.on('message', (message) => heard.push(`udp: ${message.length} bytes`))
    return {
      host: `127.0.0.1:${port}`,
      heard,
      close: async () => {
        udp.close()
        tcp.close()
      },
    }
  }
}

let fixture: FixtureSite
let recorder: Recorder
let data: { dir: string; remove(): void }
let browser: BrowserFetcher
let hostile: Site

// One browser for the file (a launch costs more than a check); each test starts with empty records.
beforeAll(async () => {
  fixture = await startFixtureSite()
  recorder = await startRecorder()
  data = tempDir()
  browser = createBrowserFetcher({
    launcher: playwrightLauncher({ executablePath: CHROMIUM, userDataDir: join(data.dir, 'browser-profile') }),
    clock: systemClock,
    log: silentLog,
    challengeTimeoutMs: 2_500,
  })
  const trouble = fixtureSites(fixture.host).find((s) => s.key === 'fixture-trouble')!
  hostile = { ...trouble, fetcher: 'browser' }
})
beforeEach(() => {
  fixture.hits.length = 0
  recorder.heard.length = 0
})
afterAll(async () => {
  await browser.close()
  await recorder.close()
  await fixture.close()
  data.remove()
})

/** Loads the hostile page for one attack and waits until the page says the attempt has settled. */
async function attack(kind: Attack, to = recorder.host) {
  const result = await browser.fetch({ url: `${fixture.origin}/hostile/manga/${kind}/?attack=${kind}&to=${to}`, method: 'GET' }, hostile)
  // A page that walks away (location) never reports: then the time it had is the bound.
  await waitFor(() => fixture.hits.some((h) => h.path.startsWith(`/hostile/done?attack=${kind}`)), 4_000).catch(() => undefined)
  // Whatever was already on its way has arrived by now.
  await new Promise((r) => setTimeout(r, 250))
  return result
}

const OFF_PIN: Attack[] = ATTACKS.filter((a) => a !== 'popup-on-pin' && a !== 'timer')

describe('a page on a pinned browser Site reaches nothing off the pin', () => {
  it.each(OFF_PIN)('%s', async (kind) => {
    await attack(kind)
    expect(fixture.hits.some((h) => h.path.startsWith(`/hostile/manga/${kind}/`))).toBe(true)
    expect(recorder.heard).toEqual([])
  })

  it('and the page itself is still read', async () => {
    const result = await attack('websocket')
    expect(result).toMatchObject({ kind: 'page', page: { body: expect.stringContaining('wp-manga-chapter') } })
  })
})

describe('pages other than the shared tab', () => {
  it('are closed: a popup on the pinned host stops calling home', async () => {
    await attack('popup-on-pin')
    const beats = () => fixture.hits.filter((h) => h.path === '/hostile/beat').length
    // Open, it calls every 100 ms; closed, it is silent.
    await new Promise((r) => setTimeout(r, 400))
    const before = beats()
    await new Promise((r) => setTimeout(r, 600))
    expect(beats()).toBe(before)
  })
})

describe('moving the shared tab to another Site', () => {
  it('blanks it first: the previous Site’s page, left calling the next Site’s host, never reaches it', async () => {
    const next = await startFixtureSite()
    try {
      const nextSite: Site = { ...hostile, key: 'fixture-next', hosts: [next.host] }
      // The first Site's page keeps calling the next Site's host every 50 ms (refused: off its pin).
      const first = await browser.fetch(
        { url: `${fixture.origin}/hostile/manga/stays/?attack=timer&to=${next.host}`, method: 'GET' },
        hostile,
      )
      expect(first.kind).toBe('page')
      await new Promise((r) => setTimeout(r, 200))
      // The next Site answers late, so a page left running would have a second of the next pin.
      const second = await browser.fetch({ url: `${next.origin}/madara/manga/next-one/?delay=1000`, method: 'GET' }, nextSite)
      expect(second.kind).toBe('page')
      await new Promise((r) => setTimeout(r, 200))
      expect(next.hits.map((h) => h.path).filter((p) => p !== '/favicon.ico')).toEqual(['/madara/manga/next-one/?delay=1000'])
    } finally {
      await next.close()
    }
  })
})

describe('the pin gate reads a destination without a scheme', () => {
  const pin = (hosts: string[]) => (url: URL) => hosts.includes(url.host)
  it.each([
    ['example.org', 443, ['example.org'], true],
    ['example.org', 80, ['example.org'], true],
    ['example.org', 8443, ['example.org'], false],
    ['example.org', 8443, ['example.org:8443'], true],
    ['127.0.0.1', 4711, ['127.0.0.1:5000'], false],
    ['::1', 8080, ['[::1]:8080'], true],
    ['evil.example', 443, ['example.org'], false],
  ] as const)('%s:%d with pin %j → %s', (host, port, hosts, expected) => {
    expect(passes(pin([...hosts]), host, port)).toBe(expected)
  })
})

/** Polls a real-world condition every 25 ms. */
async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * The stand-in's sessions and its page loading (docs/adr/0082-the-electron-stand-in.md): `session.fromPartition`,
 * permission handlers, the proxy, `webRequest.onBeforeRequest`, and a page load that goes the way Chromium's does —
 * every request through the session's `onBeforeRequest`, every connection through the session's proxy (a SOCKS5
 * CONNECT, as Chromium opens one), server redirects offered to `will-redirect` first. It runs no page script.
 * Signatures are picked from `electron`'s own types, so a drift fails the type check.
 */
import { EventEmitter, once } from 'node:events'
import { request, type IncomingMessage } from 'node:http'
import { connect, isIPv4, type Socket } from 'node:net'
import type { CallbackResponse, OnBeforeRequestListenerDetails, ProxyConfig, Session, WebRequest, WebRequestFilter } from 'electron'
import { standInEvent, type Recorder } from './stand-in-events'

type Permission = Parameters<NonNullable<Parameters<Session['setPermissionRequestHandler']>[0]>>[1]
type RequestHandler = Parameters<Session['setPermissionRequestHandler']>[0]
type CheckHandler = Parameters<Session['setPermissionCheckHandler']>[0]
type DeviceHandler = Parameters<Session['setDevicePermissionHandler']>[0]
type BeforeRequest = (details: OnBeforeRequestListenerDetails, callback: (response: CallbackResponse) => void) => void

export class StandInWebRequest implements Pick<WebRequest, 'onBeforeRequest'> {
  #listener: BeforeRequest | null = null

  onBeforeRequest(filterOrListener: WebRequestFilter | BeforeRequest | null, listener?: BeforeRequest | null): void {
    this.#listener = typeof filterOrListener === 'function' ? filterOrListener : (listener ?? null)
  }

  /** Whether the session's handler cancels a request (no handler: nothing is cancelled). */
  cancels(url: string, resourceType: OnBeforeRequestListenerDetails['resourceType']): boolean {
    if (!this.#listener) return false
    let answer: CallbackResponse = {}
    const details = { id: 1, url, method: 'GET', resourceType, referrer: '', timestamp: Date.now(), uploadData: [] }
    this.#listener(details, (response) => (answer = response))
    return answer.cancel === true
  }
}

export class StandInSession
  extends EventEmitter
  implements
    Pick<
      Session,
      | 'setPermissionRequestHandler'
      | 'setPermissionCheckHandler'
      | 'setDevicePermissionHandler'
      | 'setProxy'
      | 'setUserAgent'
      | 'getUserAgent'
      | 'closeAllConnections'
    >
{
  readonly webRequest = new StandInWebRequest()
  proxy: ProxyConfig | null = null
  #userAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Electron/45.5.0 Safari/537.36'
  #request: RequestHandler = null
  #check: CheckHandler = null
  #device: DeviceHandler = null

  constructor(
    readonly partition: string,
    private readonly record: Recorder,
  ) {
    super()
  }

  setPermissionRequestHandler(handler: RequestHandler): void {
    this.#request = handler
  }
  setPermissionCheckHandler(handler: CheckHandler): void {
    this.#check = handler
  }
  setDevicePermissionHandler(handler: DeviceHandler): void {
    this.#device = handler
  }
  async setProxy(config: ProxyConfig): Promise<void> {
    this.record(`session(${this.partition}).setProxy ${JSON.stringify(config)}`)
    this.proxy = config
  }
  setUserAgent(userAgent: string): void {
    this.#userAgent = userAgent
  }
  getUserAgent(): string {
    return this.#userAgent
  }
  async closeAllConnections(): Promise<void> {
    this.record(`session(${this.partition}).closeAllConnections`)
  }

  /** A page asks for a permission. Electron grants every permission when no handler is set. */
  asks(permission: Permission): boolean {
    if (!this.#request) return true
    let granted: boolean | undefined
    this.#request(null as never, permission, (answer) => (granted = answer), { requestingUrl: 'https://page.example/', isMainFrame: true })
    return granted === true
  }

  /** A page checks a permission. Electron answers yes when no handler is set. */
  checks(permission: Permission): boolean {
    return this.#check ? this.#check(null, permission, 'https://page.example', { isMainFrame: true, requestingUrl: '' }) : true
  }

  /** A device (HID, serial, USB) is asked for: granted when no handler is set. */
  asksDevice(): boolean {
    return this.#device ? this.#device({ deviceType: 'usb', origin: 'https://page.example', device: {} as never }) : true
  }

  /** A page starts a download: whether the session cancelled it. */
  downloads(): boolean {
    const event = standInEvent({})
    this.emit('will-download', event, { url: 'https://page.example/file.zip' }, null)
    return event.defaultPrevented
  }
}

export interface LoadedPage {
  url: string
  status: number
  html: string
  /** How the connection went: through this proxy, or `direct`. */
  via: string
}

/** An Electron-like load failure: `loadURL` rejects with the net error's name and code. */
export class LoadError extends Error {
  constructor(
    readonly code: string,
    readonly errno: number,
    readonly url: string,
  ) {
    super(`${code} (${errno}) loading '${url}'`)
  }
}

/**
 * Loads a document as Chromium would for a main frame: `onBeforeRequest`, then the connection (through the
 * proxy unless the rules bypass it), redirects offered to `willRedirect` (true: cancelled).
 */
export async function loadDocument(session: StandInSession, url: string, willRedirect: (to: string) => boolean): Promise<LoadedPage> {
  let target = url
  for (let hop = 0; hop < 10; hop++) {
    if (session.webRequest.cancels(target, 'mainFrame')) throw new LoadError('ERR_BLOCKED_BY_CLIENT', -20, target)
    if (target === 'about:blank') return { url: target, status: 200, html: '<html><head></head><body></body></html>', via: 'none' }
    const { response, via } = await open(session, target)
    const body = await readBody(response)
    const location = response.headers.location
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      const next = new URL(location, target).href
      if (willRedirect(next)) throw new LoadError('ERR_ABORTED', -3, next)
      target = next
      continue
    }
    return { url: target, status: response.statusCode ?? 0, html: body, via }
  }
  throw new LoadError('ERR_TOO_MANY_REDIRECTS', -310, target)
}

async function open(session: StandInSession, url: string): Promise<{ response: IncomingMessage; via: string }> {
  const target = new URL(url)
  if (target.protocol !== 'http:') throw new LoadError('ERR_UNKNOWN_URL_SCHEME', -302, url)
  const proxy = proxyFor(session.proxy, target.hostname)
  const headers = { 'user-agent': session.getUserAgent(), accept: 'text/html' }
  const socket = proxy ? await socksConnect(proxy, target) : undefined
  const req = request({
    host: target.hostname,
    port: Number(target.port || 80),
    path: `${target.pathname}${target.search}`,
    headers,
    agent: false,
    ...(socket ? { createConnection: () => socket } : {}),
  })
  req.end()
  const [response] = (await once(req, 'response')) as [IncomingMessage]
  return { response, via: proxy ?? 'direct' }
}

/** The proxy a connection takes: none without fixed servers; loopback bypasses unless the rules say `<-loopback>`. */
function proxyFor(config: ProxyConfig | null, hostname: string): string | null {
  if (!config || config.mode !== 'fixed_servers' || !config.proxyRules) return null
  const loopback = hostname === 'localhost' || hostname.startsWith('127.') || hostname === '[::1]'
  if (loopback && !(config.proxyBypassRules ?? '').includes('<-loopback>')) return null
  return config.proxyRules
}

/** A SOCKS5 CONNECT (RFC 1928), no authentication; the socket is then the tunnel. */
async function socksConnect(proxy: string, target: URL): Promise<Socket> {
  const { hostname, port } = new URL(proxy)
  const socket = connect(Number(port), hostname)
  const fail = () => new LoadError('ERR_SOCKS_CONNECTION_FAILED', -120, target.href)
  try {
    await once(socket, 'connect')
    socket.write(Buffer.from([5, 1, 0]))
    const greeting = await readExactly(socket, 2)
    if (greeting[1] !== 0) throw fail()
    const destPort = Number(target.port || 80)
    const address = isIPv4(target.hostname)
      ? Buffer.from([1, ...target.hostname.split('.').map(Number)])
      : Buffer.concat([Buffer.from([3, Buffer.byteLength(target.hostname)]), Buffer.from(target.hostname)])
    socket.write(Buffer.concat([Buffer.from([5, 1, 0]), address, Buffer.from([destPort >> 8, destPort & 255])]))
    const reply = await readExactly(socket, 10)
    if (reply[1] !== 0) throw fail()
    // The tunnel is open: the HTTP client reads from here on (the server says nothing before the request).
    socket.resume()
    return socket
  } catch (error) {
    socket.destroy()
    throw error instanceof LoadError ? error : fail()
  }
}

function readExactly(socket: Socket, size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      got = Buffer.concat([got, chunk])
      if (got.length < size) return
      socket.off('data', onData).off('close', onClose)
      socket.pause()
      if (got.length > size) socket.unshift(got.subarray(size))
      resolve(got.subarray(0, size))
    }
    const onClose = () => reject(new Error('the proxy closed the connection'))
    socket.on('data', onData).once('close', onClose)
    socket.resume()
  })
}

async function readBody(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of response) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

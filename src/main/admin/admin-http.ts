/**
 * The owner's window over loopback HTTP (docs/design.md#shells-and-commands), on a listener of its own
 * (docs/adr/0042-the-admin-on-its-own-listener.md): `/admin/` serves the built renderer; `POST
 * /admin/rpc/<method>` is one route per admin method. Opening `/admin/?token=…` (tools) or the one-time
 * `/admin/?code=…` the shell prints (docs/adr/0087-sign-in-links-that-end.md) starts a session — a signed
 * cookie that outlives a restart of the app and of the browser, 30 days from its last use (docs/adr/0076, 0128) — sets it as an HttpOnly, SameSite=Strict cookie named for
 * this port and scoped to `/admin`, and redirects to `/admin/`, dropping the token from the address. Wrong
 * tokens are throttled. Every RPC checks the session, the Host (against DNS rebinding) and the Origin
 * (against cross-site requests, the Readers' page on the sync port included), and answers only loopback peers.
 */
import { JsonText } from './json-text'
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { Readable } from 'node:stream'
import cookie from '@fastify/cookie'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { IMPORT_MAX_BASE64_CHARS, IMPORT_MAX_FILE_BYTES } from '../../shared/library'
import type { Clock } from '../clock'
import type { AdminCaller } from './validated'
import type { SignInCodes } from '../access/sign-in-codes'
import { AppError, ERROR_STATUS } from '../../shared/errors'
import { pageHeaders, problemPageHtml } from '../server/pages'
import { SPENT_ADMIN_LINK } from '../access/sign-in-words'

/** The session cookie's name on an admin port: cookies ignore ports, so each admin listener has its own. */
export function sessionCookieName(port: number): string {
  return `mb_admin_${port}`
}

/**
 * A session lives this long after its last use (docs/adr/0128-an-owners-session-that-lasts.md): 30 days, in a
 * persistent cookie, so closing the browser does not sign the owner out.
 */
export const SESSION_IDLE_MS = 30 * 24 * 3_600_000

/**
 * Sessions as signed cookies (docs/adr/0076-an-owners-address-that-lasts.md): the value is `expiry.nonce.mac`,
 * the mac an HMAC-SHA256 under the key kept in the data directory, so a session outlives a restart of the app
 * and the server holds nothing per session. Each use answers with the same session and a later expiry, so it
 * ends `idleMs` after its last use — in the browser too: the cookie is persistent (Max-Age), not a browser-session
 * one, so closing the browser keeps it (docs/adr/0128-an-owners-session-that-lasts.md).
 */
export class AdminSessions {
  readonly #clock: Pick<Clock, 'now'>
  readonly #idleMs: number
  readonly #key: Buffer

  constructor(key: string, clock: Pick<Clock, 'now'>, idleMs = SESSION_IDLE_MS) {
    this.#key = Buffer.from(key)
    this.#clock = clock
    this.#idleMs = idleMs
  }

  /** A new session's cookie value (a random nonce, 16 bytes). */
  start(): string {
    return this.#sign(randomBytes(16).toString('base64url'))
  }

  /** The session's cookie value with its expiry moved on when `value` is a live session; undefined otherwise. */
  use(value: string | undefined): string | undefined {
    const [expiry, nonce, mac, ...rest] = (value ?? '').split('.')
    if (!expiry || !nonce || !mac || rest.length > 0) return undefined
    const expected = Buffer.from(this.#mac(expiry, nonce))
    const given = Buffer.from(mac)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
    if (parseInt(expiry, 36) <= this.#clock.now()) return undefined
    return this.#sign(nonce)
  }

  #sign(nonce: string): string {
    const expiry = (this.#clock.now() + this.#idleMs).toString(36)
    return `${expiry}.${nonce}.${this.#mac(expiry, nonce)}`
  }

  #mac(expiry: string, nonce: string): string {
    return createHmac('sha256', this.#key).update(`admin-session-v1.${expiry}.${nonce}`).digest('base64url')
  }
}

/** Wrong tokens allowed before each further try must wait. */
export const FREE_TOKEN_TRIES = 5
/** The longest wait between tries: a guesser gets nowhere, an owner who mistyped waits at most this. */
export const MAX_TOKEN_WAIT_MS = 60_000

/**
 * Wrong admin tokens, counted for the whole listener (it answers only this machine, where one person signs
 * in and any local user can take any 127.x address): after `FREE_TOKEN_TRIES`, each try waits twice as long
 * as the last, up to `MAX_TOKEN_WAIT_MS`; a right token resets the count.
 */
export class TokenThrottle {
  readonly #clock: Pick<Clock, 'now'>
  #failures = 0
  #until = 0

  constructor(clock: Pick<Clock, 'now'>) {
    this.#clock = clock
  }

  /** How long until the next try is heard; 0 when it is heard now. */
  waitMs(): number {
    return Math.max(0, this.#until - this.#clock.now())
  }

  failed(): void {
    this.#failures++
    if (this.#failures >= FREE_TOKEN_TRIES)
      this.#until = this.#clock.now() + Math.min(1_000 * 2 ** (this.#failures - FREE_TOKEN_TRIES), MAX_TOKEN_WAIT_MS)
  }

  succeeded(): void {
    this.#failures = 0
    this.#until = 0
  }
}

export interface AdminHttpOptions {
  caller: AdminCaller
  adminToken: string
  /** The key that signs session cookies (kept in the data directory: sessions outlive a restart). */
  sessionKey: string
  /** The port the admin listener listens on (for the Host check and the cookie's name), read per request. */
  port(): number
  html: string
  clock: Pick<Clock, 'now'>
  /** One-time admin sign-in codes (`/admin/?code=…`, docs/adr/0087-sign-in-links-that-end.md): the link the shell prints. */
  codes: SignInCodes
}

/** What an admin sign-in code stands for. */
export const ADMIN_CODE_VALUE = 'admin-session'

export async function registerAdminHttp(app: FastifyInstance, options: AdminHttpOptions): Promise<void> {
  await app.register(cookie)
  const sessions = new AdminSessions(options.sessionKey, options.clock)
  const throttle = new TokenThrottle(options.clock)

  // Persistent (Max-Age, counted by the browser from when it gets the cookie): closing the browser keeps it.
  const setSession = (reply: FastifyReply, value: string) =>
    reply.setCookie(sessionCookieName(options.port()), value, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/admin',
      secure: false,
      maxAge: Math.floor(SESSION_IDLE_MS / 1000),
    })
  const allowedHosts = () => {
    const port = options.port()
    return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
  }

  function guard(request: FastifyRequest, needsOrigin: boolean): void {
    if (!isLoopback(request.socket.remoteAddress)) throw new AppError('forbidden', 'the admin surface answers only on this machine')
    const host = request.headers.host ?? ''
    if (!allowedHosts().has(host)) throw new AppError('forbidden', 'unexpected Host header')
    if (needsOrigin && request.headers.origin !== `http://${host}`) throw new AppError('forbidden', 'cross-origin request refused')
  }

  const page = (reply: FastifyReply) => pageHeaders(reply).type('text/html; charset=utf-8').send(options.html)

  const signIn: SignInDeps = {
    throttle,
    sessions,
    codes: options.codes,
    token: Buffer.from(options.adminToken),
    cookieName: () => sessionCookieName(options.port()),
    setSession,
  }

  app.get('/admin', async (_request, reply) => reply.redirect('/admin/', 302))
  app.get('/admin/', async (request, reply) => {
    guard(request, false)
    return answerSignIn(request, reply, signIn) ?? page(reply)
  })

  // The session, Host and Origin are checked when a request arrives, before its body is read.
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    guard(request, true)
    const renewed = sessions.use(request.cookies[sessionCookieName(options.port())])
    if (!renewed) throw new AppError('unauthorized', 'no admin session: open the admin URL the app printed')
    void setSession(reply, renewed)
  }
  const rpc = async (request: FastifyRequest, reply: FastifyReply) => {
    const method = (request.params as { method?: string }).method ?? request.url.slice('/admin/rpc/'.length).split('?')[0]!
    const result = await options.caller.call(method, request.body)
    void reply.header('cache-control', 'no-store')
    if (result.ok && result.value instanceof JsonText) {
      return reply.type('application/json; charset=utf-8').send(Readable.from(result.value.asValue()))
    }
    if (result.ok) return { value: result.value ?? null }
    return reply.code(ERROR_STATUS[result.error.code]).send({ error: result.error })
  }
  app.post('/admin/rpc/:method', { onRequest }, rpc)
  // An import carries its file in the body (base64): this one method takes bodies up to IMPORT_RPC_BODY_LIMIT.
  app.post(
    '/admin/rpc/startImport',
    {
      onRequest,
      bodyLimit: IMPORT_RPC_BODY_LIMIT,
      errorHandler: (error, _request, reply) => {
        if ((error as { code?: string }).code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error
        void reply.code(413).send({
          error: {
            code: 'too-large',
            message: `the file is larger than ${IMPORT_MAX_FILE_BYTES / 1024 / 1024} MiB, the most an import reads`,
          },
        })
      },
    },
    rpc,
  )
}

interface SignInDeps {
  throttle: TokenThrottle
  sessions: AdminSessions
  codes: SignInCodes
  token: Buffer
  cookieName(): string
  setSession(reply: FastifyReply, value: string): unknown
}

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b)

/**
 * `/admin/?code=…` (a one-time sign-in code, docs/adr/0087-sign-in-links-that-end.md) or `/admin/?token=…`: a
 * session and a redirect that drops it from the address, or a page that says what went wrong. Undefined when the
 * address carries neither: the window itself.
 */
function answerSignIn(request: FastifyRequest, reply: FastifyReply, deps: SignInDeps): FastifyReply | undefined {
  const { token, code } = request.query as { token?: unknown; code?: unknown }
  if (typeof code !== 'string' && typeof token !== 'string') return undefined
  const wait = deps.throttle.waitMs()
  if (wait > 0) {
    void reply.header('retry-after', String(Math.ceil(wait / 1000)))
    return signInProblem(reply, 429, 'Too many wrong admin tokens', [
      `This address was tried with too many wrong tokens or sign-in links. Wait ${Math.ceil(wait / 1000)} seconds, then open the sign-in link the app printed.`,
      ...WHERE_THE_URL_IS,
    ])
  }
  const toWindow = () => reply.header('cache-control', 'no-store').redirect('/admin/', 303)
  const right =
    typeof code === 'string' ? deps.codes.redeem(code) === ADMIN_CODE_VALUE : sameBytes(Buffer.from(token as string), deps.token)
  if (right) {
    deps.throttle.succeeded()
    void deps.setSession(reply, deps.sessions.start())
    return toWindow()
  }
  // A browser already signed in (the link opened twice) goes to the window: the spent code gave it nothing, and
  // it is no guess to count.
  if (typeof code === 'string' && deps.sessions.use(request.cookies[deps.cookieName()])) return toWindow()
  deps.throttle.failed()
  if (typeof token === 'string')
    return signInProblem(reply, 401, 'That admin link is not valid', [
      'The token in this address is not the one the app is using now: it may be from an earlier start, or cut short when it was copied.',
      ...WHERE_THE_URL_IS,
    ])
  return signInProblem(reply, 401, SPENT_ADMIN_LINK.title, [...SPENT_ADMIN_LINK.lines, ...WHERE_THE_URL_IS.slice(1)])
}

/** Where the owner finds the right admin URL, for the page a wrong one answers with. */
const WHERE_THE_URL_IS = [
  'Open the admin URL the app printed when it started: the line that begins “manga-bookmark: admin:” where you ran npm run headless (or npm start). Copy all of it.',
  'The admin URL stays the same from one start to the next unless admin-secret.json in the data directory was deleted, or a token was given with $MB_ADMIN_TOKEN or --admin-token-file FILE (npm run headless -- --help says more).',
]

/**
 * A wrong admin link in a browser is a page that says what to do (not a JSON error), with the status the error
 * would have had. Plain HTML under the page CSP; the words are fixed, nothing from the request is echoed.
 */
function signInProblem(reply: FastifyReply, status: 401 | 429, title: string, lines: string[]): FastifyReply {
  const html = problemPageHtml(title, lines)
  return pageHeaders(reply).code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html)
}

/** The largest body of `startImport`: a file of IMPORT_MAX_FILE_BYTES as base64, and room for the JSON around it. */
export const IMPORT_RPC_BODY_LIMIT = IMPORT_MAX_BASE64_CHARS + 64 * 1024

function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
}

/**
 * The owner's window over loopback HTTP (docs/design.md#shells-and-commands), on a listener of its own
 * (docs/adr/0042-the-admin-on-its-own-listener.md): `/admin/` serves the built renderer; `POST
 * /admin/rpc/<method>` is one route per admin method. Opening `/admin/?token=…` starts a session — a random
 * id the server holds, 12 hours from its last use — sets it as an HttpOnly, SameSite=Strict cookie named for
 * this port and scoped to `/admin`, and redirects to `/admin/`, dropping the token from the address. Wrong
 * tokens are throttled. Every RPC checks the session, the Host (against DNS rebinding) and the Origin
 * (against cross-site requests, the Readers' page on the sync port included), and answers only loopback peers.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import cookie from '@fastify/cookie'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { IMPORT_MAX_BASE64_CHARS, IMPORT_MAX_FILE_BYTES } from '../../shared/library'
import type { Clock } from '../clock'
import type { AdminCaller } from './validated'
import { AppError, ERROR_STATUS } from '../../shared/errors'
import { pageHeaders } from '../server/pages'

/** The session cookie's name on an admin port: cookies ignore ports, so each admin listener has its own. */
export function sessionCookieName(port: number): string {
  return `mb_admin_${port}`
}

export function newAdminToken(): string {
  return randomBytes(32).toString('base64url')
}

/** A session lives this long after its last use. */
export const SESSION_IDLE_MS = 12 * 3_600_000
/** Sessions held at most; the least recently used goes first. */
const MAX_SESSIONS = 64

/**
 * The sessions the admin listener has started, in memory: a restart or another token ends them all. Only a
 * hash of each id is kept, and looked up by it.
 */
export class AdminSessions {
  readonly #clock: Pick<Clock, 'now'>
  readonly #idleMs: number
  /** Hash of the id → when it expires; in order of last use. */
  readonly #expiry = new Map<string, number>()

  constructor(clock: Pick<Clock, 'now'>, idleMs = SESSION_IDLE_MS) {
    this.#clock = clock
    this.#idleMs = idleMs
  }

  /** A new session's id (32 random bytes). */
  start(): string {
    const id = randomBytes(32).toString('base64url')
    this.#touch(digest(id))
    while (this.#expiry.size > MAX_SESSIONS) this.#expiry.delete(this.#expiry.keys().next().value!)
    return id
  }

  /** Whether an id is a live session; using it moves its expiry on. */
  use(id: string | undefined): boolean {
    if (!id) return false
    const key = digest(id)
    const expires = this.#expiry.get(key)
    if (expires === undefined) return false
    if (expires <= this.#clock.now()) {
      this.#expiry.delete(key)
      return false
    }
    this.#touch(key)
    return true
  }

  #touch(key: string): void {
    this.#expiry.delete(key)
    this.#expiry.set(key, this.#clock.now() + this.#idleMs)
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

function digest(id: string): string {
  return createHash('sha256').update(id).digest('base64url')
}

export interface AdminHttpOptions {
  caller: AdminCaller
  adminToken: string
  /** The port the admin listener listens on (for the Host check and the cookie's name), read per request. */
  port(): number
  html: string
  clock: Pick<Clock, 'now'>
}

export async function registerAdminHttp(app: FastifyInstance, options: AdminHttpOptions): Promise<void> {
  await app.register(cookie)
  const tokenBuffer = Buffer.from(options.adminToken)
  const sessions = new AdminSessions(options.clock)
  const throttle = new TokenThrottle(options.clock)

  const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b)
  const hasSession = (request: FastifyRequest) => sessions.use(request.cookies[sessionCookieName(options.port())])
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

  app.get('/admin', async (_request, reply) => reply.redirect('/admin/', 302))
  app.get('/admin/', async (request, reply) => {
    guard(request, false)
    const token = (request.query as { token?: unknown }).token
    if (typeof token === 'string') {
      const wait = throttle.waitMs()
      if (wait > 0) {
        void reply.header('retry-after', String(Math.ceil(wait / 1000)))
        return signInProblem(reply, 429, 'Too many wrong admin tokens', [
          `This address was tried with too many wrong tokens. Wait ${Math.ceil(wait / 1000)} seconds, then open the admin URL the app printed.`,
          ...WHERE_THE_URL_IS,
        ])
      }
      if (!sameBytes(Buffer.from(token), tokenBuffer)) {
        throttle.failed()
        return signInProblem(reply, 401, 'That admin link is not valid', [
          'The token in this address is not the one the app is using now: it may be from an earlier start, or cut short when it was copied.',
          ...WHERE_THE_URL_IS,
        ])
      }
      throttle.succeeded()
      void reply.setCookie(sessionCookieName(options.port()), sessions.start(), {
        httpOnly: true,
        sameSite: 'strict',
        path: '/admin',
        secure: false,
      })
      return reply.header('cache-control', 'no-store').redirect('/admin/', 303)
    }
    return page(reply)
  })

  // The session, Host and Origin are checked when a request arrives, before its body is read.
  const onRequest = async (request: FastifyRequest) => {
    guard(request, true)
    if (!hasSession(request)) throw new AppError('unauthorized', 'no admin session: open the admin URL the app printed')
  }
  const rpc = async (request: FastifyRequest, reply: FastifyReply) => {
    const method = (request.params as { method?: string }).method ?? request.url.slice('/admin/rpc/'.length).split('?')[0]!
    const result = await options.caller.call(method, request.body)
    void reply.header('cache-control', 'no-store')
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

/** Where the owner finds the right admin URL, for the page a wrong one answers with. */
const WHERE_THE_URL_IS = [
  'Open the admin URL the app printed when it started: the line that begins “manga-bookmark: admin:” where you ran npm run headless (or npm start). Copy all of it.',
  'A start without a token of yours makes a new random one each time. To keep one across starts, give it in $MB_ADMIN_TOKEN or with --admin-token-file FILE (npm run headless -- --help says more).',
]

/**
 * A wrong admin link in a browser is a page that says what to do (not a JSON error), with the status the error
 * would have had. Plain HTML under the page CSP; the words are fixed, nothing from the request is echoed.
 */
function signInProblem(reply: FastifyReply, status: 401 | 429, title: string, lines: string[]): FastifyReply {
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="color-scheme" content="light dark"><title>${title} · Manga Bookmark</title></head>`,
    `<body><main><h1>${title}</h1>`,
    ...lines.map((line) => `<p>${line}</p>`),
    '</main></body></html>',
  ].join('')
  return pageHeaders(reply).code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html)
}

/** The largest body of `startImport`: a file of IMPORT_MAX_FILE_BYTES as base64, and room for the JSON around it. */
export const IMPORT_RPC_BODY_LIMIT = IMPORT_MAX_BASE64_CHARS + 64 * 1024

function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
}

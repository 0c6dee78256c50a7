/**
 * The core's HTTP server: the sync endpoint for Readers (docs/design.md#the-sync-endpoint) and, in the headless shell, the owner's
 * admin surface. Built on Fastify; routes are registered by the modules that own them.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import type { Socket } from 'node:net'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify'
import type { Log } from '../log'
import { toErrorAnswer } from './errors'

/**
 * What one client may hold of a listener (docs/adr/0041-limits-on-every-listener.md): a request trickled a
 * byte at a time, or thousands of idle connections, must not keep the server from everyone else.
 */
export interface ListenerLimits {
  /** The request line and headers must have arrived within this long. */
  headersTimeoutMs: number
  /** The whole request, body included, within this long. */
  requestTimeoutMs: number
  /** A connection with no traffic at all is closed after this long. */
  idleTimeoutMs: number
  /** A kept-alive connection waits this long for its next request. */
  keepAliveTimeoutMs: number
  /** How often the two request timeouts are checked (they can be overrun by up to this much). */
  checkEveryMs: number
  /** Connections open at once; one more takes the place of the oldest idle one. */
  maxConnections: number
  /** Connections open at once from one address; one more takes the place of its oldest idle one. */
  maxPerAddress: number
  maxRequestsPerSocket: number
}

export const LISTENER_LIMITS: Readonly<ListenerLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkEveryMs: 1_000,
  maxConnections: 512,
  maxPerAddress: 128,
  maxRequestsPerSocket: 1_000,
})

export interface ServerOptions {
  log: Log
  /** Tests shorten them. */
  limits?: Partial<ListenerLimits>
}

type Compilers = Required<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>>
type CompilerFactory = (...args: unknown[]) => unknown

/**
 * Fastify's own schema compilers (Ajv, fast-json-stringify), loaded the first time a route outside the sync scope's
 * zod compilers has a schema to compile: none does, so a start never loads their half megabyte; the build keeps them
 * out of the bundle (electron.vite.config.ts; docs/adr/0229-a-start-that-loads-what-it-answers-with.md).
 */
function compilersOnFirstUse(): Compilers {
  const load = createRequire(import.meta.url)
  let validator: CompilerFactory | undefined
  let serializer: CompilerFactory | undefined
  const buildValidator: CompilerFactory = (...args) => (validator ??= (load('@fastify/ajv-compiler') as () => CompilerFactory)())(...args)
  const buildSerializer: CompilerFactory = (...args) =>
    (serializer ??= (load('@fastify/fast-json-stringify-compiler') as () => CompilerFactory)())(...args)
  return { buildValidator: buildValidator as Compilers['buildValidator'], buildSerializer: buildSerializer as Compilers['buildSerializer'] }
}

export function createHttpServer(options: ServerOptions): FastifyInstance {
  const quiet = options.log.levelVal >= options.log.levels.values.warn! ? options.log.level : 'warn'
  const limits: ListenerLimits = { ...LISTENER_LIMITS, ...options.limits }
  const app = Fastify({
    // Node cuts a request whose headers or whole body are late, checking every `checkEveryMs`; Fastify sets
    // the idle, keep-alive and whole-request times on the server it makes.
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.checkEveryMs },
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxRequestsPerSocket: limits.maxRequestsPerSocket,
    // Only warnings and errors from the server: the shells print their own start line. pino's Logger is a
    // FastifyBaseLogger; the cast only widens fastify's generic logger parameter.
    loggerInstance: options.log.child({ component: 'http' }, { level: quiet }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    schemaController: { compilersFactory: compilersOnFirstUse() },
    // A series_id may be 200 characters (percent-encoded, longer).
    routerOptions: { maxParamLength: 800 },
    // Errors the router raises before any route runs (a bad percent-encoding, an over-long segment) get the
    // same JSON error shape as everything else.
    frameworkErrors: (error, _request, reply) => {
      const answer = toErrorAnswer(error)
      void (reply as FastifyReply).code(answer.status).send({ error: { code: answer.code, message: answer.message } })
    },
  })
  app.setErrorHandler((error, request, reply) => {
    const answer = toErrorAnswer(error)
    // A write the store refuses is said once an episode by the storage watch, not once a request with a stack.
    if (answer.status >= 500 && answer.code !== 'storage-unavailable' && answer.code !== 'library-missing')
      request.log.error({ err: error, url: request.url }, 'http: request failed')
    if (answer.status === 401) void reply.header('www-authenticate', 'Bearer')
    void reply
      .code(answer.status)
      .header('cache-control', 'no-store')
      .send({ error: { code: answer.code, message: answer.message } })
  })
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send({ error: { code: 'not-found', message: `no route ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}` } })
  })
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('x-content-type-options', 'nosniff')
  })
  capConnections(app.server, limits)
  return app
}

/**
 * At most `maxConnections` connections open at once, and `maxPerAddress` from one address. A connection over
 * a cap takes the place of the oldest idle one (no request in progress) — a client's own idle keep-alive, or
 * someone's connection that never finished its headers — and is closed as it arrives only when every other
 * is busy with a request, which the request timeouts bound. So thousands of idle sockets cannot take every
 * file descriptor, nor keep a new client out. Node counts only the total and refuses rather than evicts, so
 * both caps are kept here.
 */
function capConnections(server: HttpServer, limits: ListenerLimits): void {
  /** Every open connection, oldest first (a Set keeps insertion order). */
  const all = new Set<Socket>()
  const byAddress = new Map<string, Set<Socket>>()
  const busy = new WeakSet<Socket>()
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    busy.add(socket)
    response.once('close', () => busy.delete(socket))
  })
  const forget = (socket: Socket, address: string) => {
    all.delete(socket)
    const mine = byAddress.get(address)
    mine?.delete(socket)
    if (mine?.size === 0) byAddress.delete(address)
  }
  /** Closes the oldest idle connection among `sockets`; false when every one is busy. */
  const evictIdle = (sockets: Set<Socket>): boolean => {
    for (const socket of sockets) {
      if (busy.has(socket)) continue
      forget(socket, socket.remoteAddress ?? '')
      socket.destroy()
      return true
    }
    return false
  }
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? ''
    const mine = byAddress.get(address) ?? new Set<Socket>()
    const room = (mine.size < limits.maxPerAddress || evictIdle(mine)) && (all.size < limits.maxConnections || evictIdle(all))
    if (!room) {
      socket.destroy()
      return
    }
    all.add(socket)
    mine.add(socket)
    byAddress.set(address, mine)
    socket.once('close', () => forget(socket, address))
  })
}

/**
 * Calls `then` once, when the server has sent its first answer (any route, any status): the app's first passes wait
 * for it, so a start's first request is not answered behind them (docs/adr/0229-a-start-that-loads-what-it-answers-with.md).
 */
export function onFirstAnswer(app: FastifyInstance, then: () => void): void {
  let told = false
  app.addHook('onResponse', async () => {
    if (told) return
    told = true
    then()
  })
}

export interface Listening {
  /** `http://host:port` as bound. */
  readonly origin: string
  readonly port: number
}

/** What a listener is for, and how the owner chooses its port: for an error that says what to do. */
export interface ListenPurpose {
  name: string
  /** How to choose another port, in words. */
  choose: string
}

export const SYNC_ENDPOINT: ListenPurpose = {
  name: 'the sync endpoint for Readers',
  choose: 'start with --port N for another one (npm run headless -- --port 4721), or change the port in Settings',
}

/**
 * A port that cannot be had, said so the owner can act: which port, for what, and how to choose another —
 * instead of a bare EADDRINUSE. Other errors pass unchanged.
 */
export function listenError(error: unknown, port: number, host: string, purpose: ListenPurpose): unknown {
  const code = (error as { code?: string } | undefined)?.code
  if (code === 'EADDRINUSE') {
    return new Error(
      `server: port ${port} on ${host}, for ${purpose.name}, is in use by another program (is Manga Bookmark already running?). ` +
        `Stop that program, or ${purpose.choose}.`,
      { cause: error },
    )
  }
  if (code === 'EACCES') {
    return new Error(
      `server: port ${port} on ${host}, for ${purpose.name}, needs privileges this user lacks; ${purpose.choose} (1024 or above).`,
      {
        cause: error,
      },
    )
  }
  if (code === 'EADDRNOTAVAIL') {
    return new Error(`server: ${host} is not an address of this machine, so ${purpose.name} cannot listen on it.`, { cause: error })
  }
  return error
}

/** Binds the server; `host` is 127.0.0.1 unless the owner opted into a LAN bind. */
export async function listen(
  app: FastifyInstance,
  port: number,
  host = '127.0.0.1',
  purpose: ListenPurpose = SYNC_ENDPOINT,
): Promise<Listening> {
  try {
    await app.listen({ port, host })
  } catch (error) {
    throw listenError(error, port, host, purpose)
  }
  return listeningAt(app.server, host, port)
}

/**
 * Moves a listening server to another host or port without a restart (Settings → the sync endpoint,
 * docs/adr/0077-settings-that-apply-at-once.md): the old listener closes (requests in flight finish) and the
 * server listens anew. When the new address cannot be had, it listens where it was again and throws why, so a
 * bad choice leaves the endpoint as it was.
 */
export async function relisten(
  app: FastifyInstance,
  port: number,
  host: string,
  purpose: ListenPurpose = SYNC_ENDPOINT,
): Promise<Listening> {
  const server = app.server
  const before = server.address()
  if (!before || typeof before !== 'object') throw new Error('server: not listening, so it cannot move')
  const listenOn = (p: number, h: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen({ port: p, host: h }, () => {
        server.off('error', reject)
        resolve()
      })
    })
  server.close()
  try {
    await listenOn(port, host)
  } catch (error) {
    await listenOn(before.port, before.address)
    throw listenError(error, port, host, purpose)
  }
  return listeningAt(server, host, port)
}

function listeningAt(server: HttpServer, host: string, port: number): Listening {
  const address = server.address()
  const bound = typeof address === 'object' && address ? address.port : port
  const shownHost = host.includes(':') ? `[${host}]` : host
  return { origin: `http://${shownHost}:${bound}`, port: bound }
}

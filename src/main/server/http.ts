/**
 * The core's HTTP server: the sync endpoint for Readers (docs/design.md#the-sync-endpoint) and, in the headless shell, the owner's
 * admin surface. Built on Fastify; routes are registered by the modules that own them.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify'
import type { Log } from '../log'
import { toErrorAnswer } from './errors'

export interface ServerOptions {
  log: Log
}

export function createHttpServer(options: ServerOptions): FastifyInstance {
  const quiet = options.log.levelVal >= options.log.levels.values.warn! ? options.log.level : 'warn'
  const app = Fastify({
    // Only warnings and errors from the server: the shells print their own start line. pino's Logger is a
    // FastifyBaseLogger; the cast only widens fastify's generic logger parameter.
    loggerInstance: options.log.child({ component: 'http' }, { level: quiet }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
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
    if (answer.status >= 500) request.log.error({ err: error, url: request.url }, 'http: request failed')
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
  return app
}

export interface Listening {
  /** `http://host:port` as bound. */
  readonly origin: string
  readonly port: number
}

/** Binds the server; `host` is 127.0.0.1 unless the owner opted into a LAN bind. */
export async function listen(app: FastifyInstance, port: number, host = '127.0.0.1'): Promise<Listening> {
  await app.listen({ port, host })
  const address = app.server.address()
  const bound = typeof address === 'object' && address ? address.port : port
  const shownHost = host.includes(':') ? `[${host}]` : host
  return { origin: `http://${shownHost}:${bound}`, port: bound }
}

/**
 * Registers the sync endpoint on a Fastify server: bearer-token auth (matched by SHA-256), per-token rate
 * limiting, zod validation of params, query and body, and the OpenAPI document.
 */
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodType } from 'zod'
import pkg from '../../../package.json' with { type: 'json' }
import { AppError } from '../../shared/errors'
import type { ReaderRow } from '../store/schema'
import { readerForToken } from '../use-cases/reader-tokens'
import { openApiDocument } from './openapi'
import { updateBookmark } from '../store/bookmarks'
import { groupCommit } from '../store/group-commit'
import { SYNC_ROUTES, type BookmarkWrite, type SyncDeps } from './routes'
import { NOTIFY_ROUTES } from './notify-routes'
import { SIGN_IN_ROUTE } from './sign-in-route'

/** The endpoint's route table: the bookmark routes, the notification routes (docs/adr/0074-…) and sign-in (0087). */
const ROUTES = [...SYNC_ROUTES, ...NOTIFY_ROUTES, SIGN_IN_ROUTE]

export interface SyncOptions {
  /** Requests per token (or per address without one) per window. */
  rateLimit?: { max: number; windowMs: number }
}

export const DEFAULT_RATE_LIMIT = { max: 600, windowMs: 60_000 }

declare module 'fastify' {
  interface FastifyRequest {
    /** The Reader whose token came with the request, read once when it arrives (null: none, or unknown). */
    syncReader: ReaderRow | null
  }
}

export async function registerSyncApi(app: FastifyInstance, given: SyncDeps, options: SyncOptions = {}): Promise<void> {
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT
  const deps: SyncDeps = {
    ...given,
    // The write's time is read inside its transaction, so a `since` read can never slip between a stamp and
    // its commit (the read waits for the transaction) and miss it.
    writes:
      given.writes ?? groupCommit(given.db, (trx, w: BookmarkWrite) => updateBookmark(trx, w.readerId, w.key, w.change, given.clock.now())),
  }
  // The token is read once, before rate limiting: a known Reader has a budget of their own; anything else —
  // no token, or an invented one — shares the budget of its address, so guessing tokens is limited too.
  app.decorateRequest('syncReader', null)
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return
    const token = bearerToken(request)
    request.syncReader = token ? ((await readerForToken(deps.db, token)) ?? null) : null
  })
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request) => (request.syncReader ? `reader:${request.syncReader.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) => {
      const error = new AppError('rate-limited', `too many requests; retry in ${Math.ceil(context.ttl / 1000)} s`)
      return Object.assign(error, { statusCode: 429 })
    },
  })

  const document = openApiDocument(ROUTES, pkg.version)
  app.get('/api/v1/openapi.json', { config: { rateLimit: { max: limit.max, timeWindow: limit.windowMs } } }, async (_request, reply) => {
    void reply.header('cache-control', 'no-store')
    return document
  })

  for (const r of ROUTES) {
    app.route({
      method: r.method,
      url: r.path,
      config: {
        rateLimit: { max: Math.min(r.rateLimit?.max ?? limit.max, limit.max), timeWindow: r.rateLimit?.windowMs ?? limit.windowMs },
      },
      handler: async (request, reply) => {
        void reply.header('cache-control', 'no-store')
        const reader = r.auth ? authenticated(request) : (undefined as unknown as ReaderRow)
        const answer = await r.handle({
          reader,
          params: validate(r.params, request.params, 'path'),
          query: validate(r.query, request.query, 'query'),
          body: validate(r.body, request.body, 'body'),
          deps,
        })
        void reply.code(answer.status ?? r.response.status)
        for (const [name, value] of Object.entries(answer.headers ?? {})) void reply.header(name, value)
        return answer.status === 204 ? reply.send() : answer.body
      },
    })
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9._~+/=-]{1,200})$/.exec(header) : null
  return match ? match[1]! : null
}

function authenticated(request: FastifyRequest): ReaderRow {
  if (request.syncReader) return request.syncReader
  throw new AppError('unauthorized', bearerToken(request) ? 'unknown token' : 'send Authorization: Bearer <token>')
}

function validate<T>(schema: ZodType<T> | undefined, value: unknown, where: 'path' | 'query' | 'body'): T {
  if (!schema) {
    const present = where === 'body' ? value !== undefined && value !== null : Object.keys((value as object) ?? {}).length > 0
    if (present) throw new AppError('invalid-request', `${where}: this route takes none`)
    return undefined as T
  }
  const parsed = schema.safeParse(where === 'body' ? (value ?? undefined) : { ...(value as object) })
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ')
  throw new AppError('invalid-request', `${where}: ${issues}`)
}

/**
 * Registers the sync endpoint on a Fastify server (docs/adr/0100-…): one scope of its own holding bearer-token
 * auth (matched by SHA-256), per-token rate limiting, the zod type provider — every route's schemas validate its
 * params, query and body and serialise its replies — and the OpenAPI document written from the routes as
 * registered. The routes come in groups, each a plugin: the Reader, their bookmarks, changes and chapters
 * (routes.ts), their notifications (notify-routes.ts), and the routes open to anyone (health, sign-in).
 */
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest, FastifySchemaValidationError } from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import pkg from '../../../package.json' with { type: 'json' }
import { AppError, describeIssues } from '../../shared/errors'
import { authenticated, deviceOfToken } from './auth'
import { deviceRoutes } from './device-routes'
import { NO_BODY, NO_QUERY, OPENAPI_PATH, openapiOnFirstUse, swaggerOptions } from './openapi'
import { updateBookmark } from '../store/bookmarks'
import { groupCommit } from '../store/group-commit'
import {
  bookmarkRoutes,
  changeRoutes,
  chapterRoutes,
  openRoutes,
  readerRoutes,
  type BookmarkWrite,
  type StoreHealthView,
  type SyncDeps,
} from './routes'
import { notifyRoutes } from './notify-routes'
import { searchRoutes } from './search-routes'
import { shelfRoutes } from './shelf-routes'
import { checkRoutes } from './check-routes'
import { signInRoute } from './sign-in-route'

export interface SyncOptions {
  /** Requests per token (or per address without one) per window. */
  rateLimit?: { max: number; windowMs: number }
  /** What the store can do now, for `/health` and the Readers' routes (absent: always ok). */
  store?: SyncStoreState
}

/** The store as the sync endpoint tells it (docs/adr/0114-an-empty-start-keeps-the-backups.md). */
export interface SyncStoreState {
  /** ok, read-only (writes refused: a full disk, a read-only or lost file) or damaged, and why in words. */
  health(): StoreHealthView
  /** The database could not be opened at all: every Reader's route answers this (503, with the cause). */
  unopened?(): AppError | null
  /**
   * The library is empty while backups hold one (its database was deleted or moved): the words a Reader whose
   * token is not found is answered with (`library-missing`, 503), instead of 401.
   */
  libraryMissing?(): string | null
}

export const DEFAULT_RATE_LIMIT = { max: 600, windowMs: 60_000 }

export async function registerSyncApi(app: FastifyInstance, given: SyncDeps, options: SyncOptions = {}): Promise<void> {
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT
  const deps: SyncDeps = {
    ...given,
    // The write's time is read inside its transaction, so a `since` read can never slip between a stamp and
    // its commit (the read waits for the transaction) and miss it.
    writes:
      given.writes ?? groupCommit(given.db, (trx, w: BookmarkWrite) => updateBookmark(trx, w.readerId, w.key, w.change, given.clock.now())),
  }
  // A scope of its own: the compilers, hooks and document below reach the sync routes and nothing else the
  // server holds (the Readers' page, the owner's admin surface).
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<ZodTypeProvider>()
    useZodSchemas(api)
    // The document is written at its first request, from the routes as registered (docs/adr/0229-…).
    const openapi = openapiOnFirstUse(api, swaggerOptions(pkg.version))
    // What a route takes no part of, it refuses (validation, so after the limit and the token).
    api.addHook('onRoute', (route) => {
      if (route.schema?.hide) return
      route.schema = { ...route.schema, querystring: route.schema?.querystring ?? NO_QUERY, body: route.schema?.body ?? NO_BODY }
    })
    await limitRequests(api, deps, limit)
    api.get(OPENAPI_PATH, { schema: { hide: true } }, () => openapi())
    await api.register(openRoutes, { health: options.store ? () => options.store!.health() : undefined })
    await api.register(signInRoute, { deps })
    await api.register(async (readers) => {
      // A route here answers only a Reader with a token, and the document says so. The check runs after the rate
      // limit (so an invented token is counted) and before validation (an unknown caller learns nothing more).
      readers.addHook('onRoute', (route) => {
        route.preValidation = [...hooks(route.preValidation), requireReader(options.store)]
        route.schema = { ...route.schema, security: [{ bearer: [] }] }
      })
      await readers.register(readerRoutes, { deps })
      await readers.register(deviceRoutes, { deps })
      await readers.register(bookmarkRoutes, { deps })
      await readers.register(changeRoutes, { deps })
      await readers.register(chapterRoutes, { deps })
      await readers.register(notifyRoutes, { deps })
      await readers.register(searchRoutes, { deps })
      await readers.register(shelfRoutes, { deps })
      await readers.register(checkRoutes, { deps })
    })
  })
}

/**
 * The token is read once, before rate limiting: a known Reader has a budget of their own; anything else — no
 * token, or an invented one — shares the budget of its address, so guessing tokens is limited too. Each route
 * has a budget of its own of the endpoint's limit (or the tighter one it asks, as sign-in does). The limit runs
 * before validation: a flood of invalid requests is refused like any other.
 */
async function limitRequests(api: FastifyInstance, deps: SyncDeps, limit: { max: number; windowMs: number }): Promise<void> {
  api.decorateRequest('syncReader', null)
  api.decorateRequest('syncDevice', null)
  api.addHook('onRequest', async (request, reply) => {
    void reply.header('cache-control', 'no-store')
    const found = await deviceOfToken(deps.db, request, deps.clock.now())
    request.syncReader = found?.reader ?? null
    request.syncDevice = found?.device ?? null
  })
  api.addHook('onRoute', (route) => {
    const asked = route.config?.rateLimit
    const max = asked && typeof asked.max === 'number' ? Math.min(asked.max, limit.max) : limit.max
    const timeWindow = asked && typeof asked.timeWindow === 'number' ? asked.timeWindow : limit.windowMs
    route.config = { ...route.config, rateLimit: { max, timeWindow } }
  })
  await api.register(rateLimit, {
    global: false,
    hook: 'preValidation',
    keyGenerator: (request) => (request.syncReader ? `reader:${request.syncReader.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) => {
      const error = new AppError('rate-limited', `too many requests; retry in ${Math.ceil(context.ttl / 1000)} s`)
      return Object.assign(error, { statusCode: 429 })
    },
  })
}

const hooks = <T>(given: T | T[] | undefined): T[] => (given === undefined ? [] : Array.isArray(given) ? given : [given])

/**
 * The check of a Reader's route: a store that could not be opened answers its cause; an unknown token while the
 * library is missing answers `library-missing` (the token is kept); otherwise the token must be a Reader's.
 */
function requireReader(store: SyncStoreState | undefined): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const unopened = store?.unopened?.()
    if (unopened) throw unopened
    if (!request.syncReader && store?.libraryMissing) {
      const missing = store.libraryMissing()
      if (missing) throw new AppError('library-missing', missing)
    }
    authenticated(request)
  }
}

/**
 * Routes in this scope are validated and serialised by their zod schemas: a request they refuse is
 * `invalid-request`; a reply they refuse (a field the schema does not name, a value out of its range) is a fault
 * of ours, answered 500 `internal` and logged, so nothing the contract does not name leaves the server.
 */
export function useZodSchemas(api: FastifyInstance): void {
  api.setValidatorCompiler(validatorCompiler)
  api.setSerializerCompiler(serializerCompiler)
  api.setSchemaErrorFormatter(invalidRequest)
}

/** The part of the request as the refusal names it. */
const PART: Record<string, string> = { params: 'path', querystring: 'query', body: 'body', headers: 'headers' }

/** A request its route's schemas refuse: `invalid-request`, with the first issues and where they are. */
function invalidRequest(errors: FastifySchemaValidationError[], part: string): Error {
  const issues = errors.map((e) => ({ path: e.instancePath.split('/').filter(Boolean), message: e.message ?? 'invalid' }))
  return new AppError('invalid-request', `${PART[part] ?? part}: ${describeIssues(issues)}`)
}

/**
 * Say why, on the Reader's side (issue 43, docs/adr/0218-the-readers-next-check.md): one small read of the Reader's
 * own bookmarks — when the app checks each Series next and why, or why it does not now (its Site paused or
 * refusing, Finished, no browser) — worked out on the main thread from the Lanes' rows and the Sites' updates pages,
 * by the same rule as the owner's window. The big list (`GET /api/v1/bookmarks`) is left as it is.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AppError } from '../../shared/errors'
import { CHECKS_PAGE_MAX, ChecksQuery, ChecksResponse } from '../../shared/reader-checks'
import type { SeriesKey } from '../store/schema'
import { readerChecks } from '../use-cases/series-waiting'
import { authenticated } from './auth'
import { answer, REFUSAL } from './openapi'
import type { SyncDeps } from './routes'

export const checkRoutes: FastifyPluginAsyncZod<{ deps: SyncDeps }> = async (app, { deps }) => {
  app.get(
    '/api/v1/checks',
    {
      schema: {
        summary:
          "When the app checks each of the Reader's bookmarked Series next, and why (its Site's updates page shows a new chapter first, its rhythm, its Site's round) — or why it is not checked now (its Site paused or refusing until a time, Finished, no URL, no browser). `now` is the server's clock. At most 1,000 a page, by site and seriesId: pass `next` as `after` for the next page (absent on the last).",
        querystring: ChecksQuery,
        response: {
          200: answer(ChecksResponse, "the Reader's bookmarks, each with its next check"),
          401: REFUSAL[401],
          422: REFUSAL[422],
          429: REFUSAL[429],
        },
      },
    },
    async (request) => {
      const reader = authenticated(request)
      const now = () => deps.clock.now()
      const { db, acquire } = deps
      const page = { limit: request.query.limit ?? CHECKS_PAGE_MAX, ...pageAfter(request.query.after) }
      const answer = await readerChecks(
        { db, registry: acquire.registry, fetchers: acquire.fetchers, feeds: deps.feeds, now },
        reader.id,
        page,
      )
      return { now: now(), checks: answer.checks, ...(answer.next ? { next: pageCursor(answer.next) } : {}) }
    },
  )
}

/** The `next` of a page: the last key it holds. */
function pageCursor(key: SeriesKey): string {
  return Buffer.from(JSON.stringify([key.site, key.seriesId])).toString('base64url')
}

/** The key a page continues after, from the `next` of the page before; a cursor this app did not write is refused. */
function pageAfter(cursor: string | undefined): { after?: SeriesKey } {
  if (cursor === undefined) return {}
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string'))
      return { after: { site: value[0] as string, seriesId: value[1] as string } }
  } catch {
    // Refused below.
  }
  throw new AppError('invalid-request', 'after: not the next of a page')
}

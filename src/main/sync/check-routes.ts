/**
 * Say why, on the Reader's side (issue 43, docs/adr/0218-the-readers-next-check.md): one small read of the Reader's
 * own bookmarks — when the app checks each Series next and why, or why it does not now (its Site paused or
 * refusing, Finished, no browser) — worked out on the main thread from the Lanes' rows and the Sites' updates pages,
 * by the same rule as the owner's window. The big list (`GET /api/v1/bookmarks`) is left as it is.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { ChecksResponse } from '../../shared/reader-checks'
import { readerChecks } from '../use-cases/series-waiting'
import { authenticated } from './auth'
import { answer, NO_QUERY, REFUSAL } from './openapi'
import type { SyncDeps } from './routes'

export const checkRoutes: FastifyPluginAsyncZod<{ deps: SyncDeps }> = async (app, { deps }) => {
  app.get(
    '/api/v1/checks',
    {
      schema: {
        summary:
          "When the app checks each of the Reader's bookmarked Series next, and why (its Site's updates page shows a new chapter first, its rhythm, its Site's round) — or why it is not checked now (its Site paused or refusing until a time, Finished, no URL, no browser). `now` is the server's clock.",
        querystring: NO_QUERY,
        response: { 200: answer(ChecksResponse, "the Reader's bookmarks, each with its next check"), 401: REFUSAL[401], 429: REFUSAL[429] },
      },
    },
    async (request) => {
      const reader = authenticated(request)
      const now = () => deps.clock.now()
      const { db, acquire } = deps
      const checks = await readerChecks({ db, registry: acquire.registry, fetchers: acquire.fetchers, feeds: deps.feeds, now }, reader.id)
      return { now: now(), checks }
    },
  )
}

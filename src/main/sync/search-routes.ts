/**
 * The sync API's title search (docs/adr/0145-search-is-a-request-on-the-lane.md), one plugin: the Sites and whether
 * each can be searched, and a search of one Site — a request on its Lane, at most
 * SEARCHES_PER_READER_PER_MINUTE a minute per Reader. A result is followed with `POST /api/v1/bookmarks {url}`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { SEARCHES_PER_READER_PER_MINUTE, SearchableSitesResponse, SearchParams, SearchQuery, SearchResponse } from '../../shared/search'
import { searchableSites, searchSite } from '../use-cases/search-site'
import { authenticated } from './auth'
import { ErrorBody } from '../../shared/sync-schemas'
import { answer, NO_QUERY, REFUSAL } from './openapi'
import type { SyncDeps } from './routes'

export const searchRoutes: FastifyPluginAsyncZod<{ deps: SyncDeps }> = async (app, { deps }) => {
  app.get(
    '/api/v1/sites',
    {
      schema: {
        summary: 'The Sites the app reads, each with whether it can be searched by title (and if not, why, in words).',
        querystring: NO_QUERY,
        response: { 200: answer(SearchableSitesResponse, 'the Sites'), 401: REFUSAL[401], 429: REFUSAL[429] },
      },
    },
    async (request) => {
      authenticated(request)
      return { sites: searchableSites(deps.acquire.registry.sites) }
    },
  )
  app.get(
    '/api/v1/sites/:site/search',
    {
      schema: {
        summary: `Search a Site by title: one request to the Site, taking its turn with the Site's checks (it waits for the Lane's gap, and is refused with 409 while the Site is paused or refusing). At most ${SEARCHES_PER_READER_PER_MINUTE} searches a minute per Reader (429 past it). Each result is a Series of the Site: its title, URL, cover and latest chapter when the Site shows them, and whether the Reader follows it already; follow one with POST /api/v1/bookmarks.`,
        params: SearchParams,
        querystring: SearchQuery,
        response: {
          200: answer(SearchResponse, 'what the Site found'),
          401: REFUSAL[401],
          404: REFUSAL[404],
          409: answer(ErrorBody, 'the Site is paused, refusing, or its answer could not be read: the message says which'),
          422: REFUSAL[422],
          429: REFUSAL[429],
        },
      },
    },
    async (request) => {
      const reader = authenticated(request)
      return searchSite(deps.acquire, { site: request.params.site, query: request.query.q, readerId: reader.id })
    },
  )
}

/**
 * Covers and the household's shelf in the sync API (docs/adr/0152-the-households-shelf.md). A cover goes to a
 * Reader with their token only (the phone never asks the Site: many refuse other referrers), as the bytes kept,
 * typed by what they are, never as anything a browser would run.
 */
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import * as S from '../../shared/shelf-schemas'
import { readSettings } from '../store/settings'
import { coverFor, followFromShelf, readShelf, type ShelfDeps } from '../use-cases/shelf'
import { authenticated } from './auth'
import { answer, REFUSAL, WITH_A_BODY } from './openapi'
import type { SyncDeps } from './routes'

const shelfDeps = (deps: SyncDeps): ShelfDeps => ({ db: deps.db, registry: deps.acquire.registry, covers: deps.acquire.covers })

/** A kept cover as a reply: its sniffed type, never sniffed again by the browser, nothing in it run (shared with the admin route). */
export function sendCover(reply: FastifyReply, image: { bytes: Buffer; type: string }): FastifyReply {
  return reply
    .type(image.type)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=3600')
    .send(image.bytes)
}

const IMAGE = { 'image/*': { schema: z.any() } }

export const shelfRoutes: FastifyPluginAsyncZod<{ deps: SyncDeps }> = async (app, { deps }) => {
  app.get(
    '/api/v1/covers/:site/:seriesId',
    {
      schema: {
        summary:
          "The cover the app keeps for a Series the Reader bookmarks (or one on the household's shelf): PNG, JPEG, GIF, WebP or AVIF, typed by its bytes; 404 when none is kept.",
        params: S.CoverParams,
        response: {
          200: { description: 'the image', content: IMAGE },
          401: REFUSAL[401],
          404: REFUSAL[404],
          422: REFUSAL[422],
          429: REFUSAL[429],
        },
      },
    },
    async (request, reply) => {
      const reader = authenticated(request)
      const image = await coverFor(shelfDeps(deps), reader.id, { site: request.params.site, seriesId: request.params.seriesId })
      return sendCover(reply, image)
    },
  )
  app.get(
    '/api/v1/shelf',
    {
      schema: {
        summary:
          "The household's shelf: every Series some Reader follows, by title, with whether a cover is kept and whether you follow it — never anyone's progress. 403 when the owner turned the shelf off.",
        querystring: S.ShelfQuery,
        response: { 200: answer(S.ShelfResponse, 'the shelf'), 401: REFUSAL[401], 403: REFUSAL[403], 422: REFUSAL[422], 429: REFUSAL[429] },
      },
    },
    async (request) => readShelf(shelfDeps(deps), authenticated(request).id, request.query.limit ?? 500),
  )
  app.post(
    '/api/v1/shelf/follow',
    {
      schema: {
        summary:
          'Follow a Series from the shelf: your bookmark is added; the Series is kept and checked already, so nothing is sent to its Site. 201 when added, 200 when you followed it already.',
        body: S.ShelfFollowBody,
        response: {
          200: answer(S.ShelfFollowResponse, 'you followed it already'),
          201: answer(S.ShelfFollowResponse, 'followed'),
          ...WITH_A_BODY,
          401: REFUSAL[401],
          403: REFUSAL[403],
          404: REFUSAL[404],
          429: REFUSAL[429],
        },
      },
    },
    async (request, reply) => {
      const reader = authenticated(request)
      const { site, seriesId, status } = request.body
      const maxBookmarks = (await readSettings(deps.db)).bookmarksPerReader
      const result = await followFromShelf(shelfDeps(deps), {
        site,
        seriesId,
        status,
        readerId: reader.id,
        maxBookmarks,
        now: deps.clock.now(),
      })
      return reply.code(result.created ? 201 : 200).send({ site, seriesId, created: result.created })
    },
  )
}

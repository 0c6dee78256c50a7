/**
 * A Reader's devices on the sync API (docs/adr/0126-devices-not-tokens.md): the list, each with its name and when it
 * was last seen, and ending one — its token stops working at once, the others keep theirs. New devices are added
 * from the owner's window (Readers → Add a device), which gives a one-time QR sign-in.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { readerDevices } from '../store/reader-devices'
import { endDevice } from '../use-cases/reader-tokens'
import * as S from '../../shared/sync-schemas'
import { authenticated, authenticatedDevice } from './auth'
import { answer, nothing, REFUSAL } from './openapi'
import type { SyncDeps } from './routes'

export const deviceRoutes: FastifyPluginAsyncZod<{ deps: SyncDeps }> = async (app, { deps }) => {
  app.get(
    '/api/v1/devices',
    {
      schema: {
        summary:
          "The Reader's devices, oldest first: each has a token of its own; `current` is the one asking. `lastSeenAt` is to the minute (0: never).",
        response: { 200: answer(S.DevicesResponse, "the Reader's devices"), 401: REFUSAL[401], 429: REFUSAL[429] },
      },
    },
    async (request) => {
      const reader = authenticated(request)
      const current = authenticatedDevice(request)
      const devices = await readerDevices(deps.db, reader.id)
      return {
        devices: devices.map((d) => ({
          id: d.id,
          name: d.name,
          createdAt: d.created_at,
          lastSeenAt: d.last_seen_at,
          current: d.id === current.id,
        })),
      }
    },
  )
  app.delete(
    '/api/v1/devices/:id',
    {
      schema: {
        summary:
          "End one of the Reader's devices: its token stops working at once; the others keep theirs. Ending the current device signs it out.",
        params: S.DeviceParams,
        response: { 204: nothing('ended'), 401: REFUSAL[401], 404: REFUSAL[404], 422: REFUSAL[422], 429: REFUSAL[429] },
      },
    },
    async (request, reply) => {
      const reader = authenticated(request)
      await endDevice(deps.db, reader.id, request.params.id)
      return reply.code(204).send(null)
    },
  )
}

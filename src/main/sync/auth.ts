/**
 * Who is asking: the bearer token of a request, matched by SHA-256 to a Reader once when it arrives, and the
 * check each Reader's route makes of it.
 */
import type { FastifyRequest } from 'fastify'
import { AppError } from '../../shared/errors'
import type { Db } from '../store/database'
import type { ReaderDeviceRow, ReaderRow } from '../store/schema'
import { deviceForToken, noteSeen } from '../use-cases/reader-tokens'

declare module 'fastify' {
  interface FastifyRequest {
    /** The Reader whose token came with the request, read once when it arrives (null: none, or unknown). */
    syncReader: ReaderRow | null
    /** The Reader's device whose token came with the request (docs/adr/0126-devices-not-tokens.md). */
    syncDevice: ReaderDeviceRow | null
  }
}

/**
 * The Reader and device of the request's token, or null (none, malformed, or unknown); the device is noted as seen
 * at `now` (at most once a minute).
 */
export async function deviceOfToken(
  db: Db,
  request: FastifyRequest,
  now: number,
): Promise<{ reader: ReaderRow; device: ReaderDeviceRow } | null> {
  const token = bearerToken(request)
  const found = token ? await deviceForToken(db, token) : undefined
  if (!found) return null
  await noteSeen(db, found.device, now)
  return found
}

/** The device the request's token belongs to; refused like `authenticated`. */
export function authenticatedDevice(request: FastifyRequest): ReaderDeviceRow {
  authenticated(request)
  return request.syncDevice!
}

/** The request's Reader; refused when it came with no token, or an unknown one. */
export function authenticated(request: FastifyRequest): ReaderRow {
  if (request.syncReader) return request.syncReader
  throw new AppError('unauthorized', bearerToken(request) ? 'unknown token' : 'send Authorization: Bearer <token>')
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9._~+/=-]{1,200})$/.exec(header) : null
  return match ? match[1]! : null
}

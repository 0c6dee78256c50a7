/**
 * Who is asking: the bearer token of a request, matched by SHA-256 to a Reader once when it arrives, and the
 * check each Reader's route makes of it.
 */
import type { FastifyRequest } from 'fastify'
import { AppError } from '../../shared/errors'
import type { Db } from '../store/database'
import type { ReaderRow } from '../store/schema'
import { readerForToken } from '../use-cases/reader-tokens'

declare module 'fastify' {
  interface FastifyRequest {
    /** The Reader whose token came with the request, read once when it arrives (null: none, or unknown). */
    syncReader: ReaderRow | null
  }
}

/** The Reader of the request's token, or null (none, malformed, or unknown). */
export async function readerOfToken(db: Db, request: FastifyRequest): Promise<ReaderRow | null> {
  const token = bearerToken(request)
  return token ? ((await readerForToken(db, token)) ?? null) : null
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

/**
 * Every error an HTTP surface can meet, answered as `{ error: { code, message } }` with the status the
 * shared vocabulary gives its code (src/shared/errors.ts) — or, for a fault of our own, a 500 that says
 * nothing about the inside. Never a stack trace. Fastify's own errors are translated into the vocabulary.
 */
import { AppError, ERROR_STATUS, errorBody, type ErrorBody, type ErrorCode } from '../../shared/errors'

export interface ErrorAnswer extends ErrorBody {
  status: number
}

const FASTIFY_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'too-large', message: 'the body is larger than 64 KiB' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported-media-type', message: 'send application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'malformed-json', message: 'the JSON body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'malformed-json', message: 'the body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'bad-request', message: 'Content-Length does not match the body' },
}

/** The error as the vocabulary names it: an AppError as it is; a framework error translated. */
export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error
  const e = error as { code?: string; statusCode?: number; message?: string; name?: string } | undefined
  const known = e?.code ? FASTIFY_CODES[e.code] : undefined
  if (known) return new AppError(known.code, known.message)
  if (e?.name === 'SyntaxError') return new AppError('malformed-json', 'the body is not valid JSON')
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(e.statusCode === 429 ? 'rate-limited' : 'bad-request', String(e.message ?? 'bad request').slice(0, 200))
  }
  return undefined
}

export function toErrorAnswer(error: unknown): ErrorAnswer {
  const body = errorBody(toAppError(error) ?? error)
  return { status: ERROR_STATUS[body.code], ...body }
}

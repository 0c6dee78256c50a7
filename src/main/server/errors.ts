/**
 * Every error an HTTP surface can meet, as `{ error: { code, message } }` with the right 4xx — or, for a
 * fault of our own, a 500 that says nothing about the inside. Never a stack trace.
 */
import { UserError } from '../errors'
import { StoreError } from '../store/errors'

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export interface ErrorAnswer {
  status: number
  code: string
  message: string
}

const FASTIFY_CODES: Record<string, { status: number; code: string; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'too-large', message: 'the body is larger than 64 KiB' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported-media-type', message: 'send application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'malformed-json', message: 'the JSON body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'malformed-json', message: 'the body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad-request', message: 'Content-Length does not match the body' },
}

export function toErrorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof HttpError) return { status: error.status, code: error.code, message: error.message }
  if (error instanceof UserError || error instanceof StoreError) {
    const status = { invalid: 422, 'off-pin': 422, 'not-found': 404, conflict: 409 }[error.code]
    return { status, code: error.code, message: error.message.replace(/^store: /, '') }
  }
  const e = error as { code?: string; statusCode?: number; message?: string; name?: string }
  const known = e?.code ? FASTIFY_CODES[e.code] : undefined
  if (known) return { status: known.status, code: known.code, message: known.message ?? e.message ?? '' }
  if (e?.name === 'SyntaxError' || e?.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    return { status: 400, code: 'malformed-json', message: 'the body is not valid JSON' }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return {
      status: e.statusCode,
      code: e.statusCode === 429 ? 'rate-limited' : 'bad-request',
      message: String(e.message ?? 'bad request').slice(0, 200),
    }
  }
  return { status: 500, code: 'internal', message: 'something went wrong on our side; nothing was changed' }
}

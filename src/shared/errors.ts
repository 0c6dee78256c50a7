/**
 * The app's one error vocabulary (docs/design.md#errors): every error a surface answers with has a code
 * from this list, and each code has one HTTP status. The sync endpoint, the admin RPC, IPC and the window
 * all read the same map; nothing maps errors a second time.
 */
export const ERROR_STATUS = {
  /** The request is well formed but asks for something the rules refuse (a pause not in the future). */
  invalid: 422,
  /** The request does not match its schema (a wrong type, an unknown field). */
  'invalid-request': 422,
  /** A URL that is on no known Site's host pin, or not on the pin of the Site it names. */
  'off-pin': 422,
  'not-found': 404,
  conflict: 409,
  unauthorized: 401,
  forbidden: 403,
  'malformed-json': 400,
  'bad-request': 400,
  'too-large': 413,
  'unsupported-media-type': 415,
  'rate-limited': 429,
  /** The database cannot take the write (disk full, read-only, replaced): nothing was stored. */
  'storage-unavailable': 503,
  /**
   * The library is empty while backups hold one (its database was deleted or moved): a Reader's token is not
   * unknown, the library it belongs to is missing until the owner restores it. Kept apart from 401 so no client
   * forgets its token.
   */
  'library-missing': 503,
  /** Never sent by the app: the window could not reach it at all. */
  offline: 503,
  /** A fault of our own; the message says nothing about the inside. */
  internal: 500,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof ERROR_STATUS

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code)
}

/** What every surface carries back for an error: `{ error: { code, message } }` on HTTP. */
export interface ErrorBody {
  code: ErrorCode
  message: string
}

/**
 * An error with a code from the vocabulary and a message a person can act on ("no Series a/b", "the URL is
 * not on Example's host pin"). Thrown anywhere — the store, a use-case, a route — and answered as is.
 */
export class AppError extends Error {
  override readonly name = 'AppError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }

  get status(): number {
    return ERROR_STATUS[this.code]
  }
}

export const INTERNAL_MESSAGE = 'something went wrong on our side; nothing was changed'

/** The body of an error: an AppError as it is, anything else as `internal` (never its message or stack). */
export function errorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return { code: error.code, message: error.message }
  return { code: 'internal', message: INTERNAL_MESSAGE }
}

/**
 * Schema issues as one `invalid-request` message: the first three, each with where it is (`channels.0.url:
 * Invalid URL`). The one wording of a refused input, for every surface that validates with zod.
 */
export function describeIssues(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.map(String).join('.')}: ` : ''}${i.message}`)
    .join('; ')
}

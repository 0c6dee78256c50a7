/**
 * An error a person caused and can fix (a URL off every pin, a name already taken): its message says what
 * was refused and why. Surfaces map its code to their own answer (HTTP 4xx, an IPC error).
 */
export type UserErrorCode = 'invalid' | 'off-pin' | 'not-found' | 'conflict'

export class UserError extends Error {
  override readonly name = 'UserError'
  constructor(
    readonly code: UserErrorCode,
    message: string,
  ) {
    super(message)
  }
}

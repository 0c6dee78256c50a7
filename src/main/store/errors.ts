/** An error raised by the store: its message starts with `store:` and says what was refused. */
export class StoreError extends Error {
  constructor(
    message: string,
    /** A machine-readable reason, e.g. `not-found`, `invalid`, `conflict`. */
    readonly code: 'not-found' | 'invalid' | 'conflict' = 'invalid',
  ) {
    super(`store: ${message}`)
    this.name = 'StoreError'
  }
}

/**
 * The one deliberate in-memory fact (docs/adr/0002): when the browser last went down. Shared by every
 * browser Lane; a restart forgets it, and re-probing the browser after a restart is correct.
 */
export const BROWSER_DOWN_WINDOW_MS = 180_000

export class BrowserHealth {
  #downAt = 0

  constructor(readonly windowMs: number = BROWSER_DOWN_WINDOW_MS) {}

  markDown(now: number): void {
    this.#downAt = now
  }

  /** Whether the browser went down within the window. */
  isDown(now: number): boolean {
    return this.#downAt > 0 && now - this.#downAt < this.windowMs
  }

  /** When the window ends (0 when the browser is not down). */
  downUntil(): number {
    return this.#downAt > 0 ? this.#downAt + this.windowMs : 0
  }
}

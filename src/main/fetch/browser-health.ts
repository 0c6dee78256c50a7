/**
 * The one deliberate in-memory fact (docs/adr/0002): when the browser last went down. Shared by every
 * browser Lane; a restart forgets it, and re-probing the browser after a restart is correct. Kept on the
 * Clock's monotonic time, so a wall clock set back cannot hold the window open (docs/adr/0011).
 */
import type { Clock } from '../clock'

export const BROWSER_DOWN_WINDOW_MS = 180_000

export class BrowserHealth {
  #downAt: number | undefined

  constructor(
    private readonly clock: Pick<Clock, 'monotonic'>,
    readonly windowMs: number = BROWSER_DOWN_WINDOW_MS,
  ) {}

  /** The browser was interrupted or could not be reached, now. */
  markDown(): void {
    this.#downAt = this.clock.monotonic()
  }

  /** How much of the down window is left: 0 when the browser is not down. Never more than the window. */
  downForMs(): number {
    if (this.#downAt === undefined) return 0
    return Math.max(0, Math.min(this.windowMs, this.#downAt + this.windowMs - this.clock.monotonic()))
  }

  /** Whether the browser went down within the window. */
  isDown(): boolean {
    return this.downForMs() > 0
  }
}

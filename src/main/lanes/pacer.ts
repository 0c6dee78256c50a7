/**
 * The spacing of requests to each Site, shared by its Lane and by Acquisition (docs/design.md#pace): one
 * request at a time per Site, each at least a spacing after the Site's previous one, whoever sent it.
 *
 * Time here is the Clock's monotonic time, never the wall clock: a wall clock corrected backwards must not
 * wedge a Lane, and one corrected forwards must not let a burst out (docs/adr/0011-time-and-the-wall-clock.md).
 * Every wait is bounded by the spacing asked for.
 *
 * Turns are granted in order, but a turn that says how long it may wait (the Lane's: `maxPassMs`) goes before the
 * older ones once it has waited that long (docs/adr/0241-…): a flood of Acquisitions no longer holds the Lane for as
 * long as they take (a Check now pressed meanwhile waited 25 min behind an hour of them), and a short one still goes
 * first, each at its own spacing.
 */
import type { Clock } from '../clock'

/** A granted turn: the holder sends its request (`sent`) or gives the turn back unused (`skip`). */
export interface Turn {
  /** The request is going out now: the next turn is measured from here. */
  sent(): void
  /** No request after all: the next turn is measured from the previous request. */
  skip(): void
}

interface Waiting {
  /** Monotonic time the turn was asked for. */
  since: number
  /** How long it waits in order before it goes ahead of older turns; undefined: always in order. */
  aheadAfterMs: number | undefined
  grant: () => void
}

interface SiteState {
  /** Monotonic time of the Site's last request, or undefined for none this process knows of. */
  lastAt: number | undefined
  /** Whether a turn is in progress: the next one waits for it to end. */
  busy: boolean
  /** The turns waiting, oldest first. */
  waiting: Waiting[]
}

export class SitePacer {
  readonly #sites = new Map<string, SiteState>()

  constructor(private readonly clock: Clock) {}

  #state(site: string): SiteState {
    let state = this.#sites.get(site)
    if (!state) this.#sites.set(site, (state = { lastAt: undefined, busy: false, waiting: [] }))
    return state
  }

  /**
   * Seeds the Site's last request from a stored wall-clock stamp (the newest check stamp), so a Lane that
   * starts again never bursts: the request is taken to be `now − stamp` ago — and just now when the stamp is
   * in the future (a clock set back since).
   */
  seed(site: string, lastWallStamp: number): void {
    const state = this.#state(site)
    // A stamp of 0 is a Series never checked: no request known, whatever the wall clock reads.
    if (lastWallStamp <= 0) return
    const ago = Math.max(0, this.clock.now() - lastWallStamp)
    const at = this.clock.monotonic() - ago
    // A request this process made since is newer than any stamp: the spacing runs from the later one.
    state.lastAt = Math.max(state.lastAt ?? at, at)
  }

  /** How long a turn with this spacing would wait now: between 0 and `spacing`. */
  waitFor(site: string, spacingMs: number): number {
    const lastAt = this.#state(site).lastAt
    if (lastAt === undefined) return 0
    return Math.min(spacingMs, Math.max(0, lastAt + spacingMs - this.clock.monotonic()))
  }

  /**
   * Waits for the Site's turn: for any turn in progress to end (and the older ones waiting, unless this one has
   * waited `aheadAfterMs`), then until `spacing` has passed since the Site's last request. Resolves with the turn,
   * or null when `signal` aborts first.
   */
  async turn(site: string, spacingMs: number, signal?: AbortSignal, aheadAfterMs?: number): Promise<Turn | null> {
    const state = this.#state(site)
    await this.#granted(state, aheadAfterMs)
    const release = () => this.#next(state)
    for (;;) {
      if (signal?.aborted) {
        release()
        return null
      }
      const wait = this.waitFor(site, spacingMs)
      if (wait <= 0) break
      await this.clock.sleep(wait, signal)
    }
    let done = false
    const end = (sent: boolean) => {
      if (done) return
      done = true
      if (sent) state.lastAt = this.clock.monotonic()
      release()
    }
    return { sent: () => end(true), skip: () => end(false) }
  }

  /** Resolves when the turn is this one's: at once when none is in progress, else when `#next` grants it. */
  #granted(state: SiteState, aheadAfterMs: number | undefined): Promise<void> {
    if (!state.busy) {
      state.busy = true
      return Promise.resolve()
    }
    return new Promise<void>((grant) => state.waiting.push({ since: this.clock.monotonic(), aheadAfterMs, grant }))
  }

  /** The turn ended: the oldest turn that has waited as long as it may, else the oldest. */
  #next(state: SiteState): void {
    const now = this.clock.monotonic()
    const overdue = state.waiting.findIndex((w) => w.aheadAfterMs !== undefined && now - w.since >= w.aheadAfterMs)
    const [next] = state.waiting.splice(Math.max(overdue, 0), 1)
    if (!next) {
      state.busy = false
      return
    }
    next.grant()
  }
}

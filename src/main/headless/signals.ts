/**
 * How the headless shell stops (docs/adr/0031). The first SIGTERM, SIGINT or SIGHUP starts an orderly stop
 * and the process exits 0 when it is done; if it is not done within the deadline, what is still running is
 * logged and the process exits 1; a second signal exits at once (128 + the signal's number). A signal that
 * arrives while the app is still starting stops it as soon as it has started.
 *
 * The same signal again within a moment counts once: in a terminal, `npm run headless` gets Ctrl-C twice —
 * from the terminal and forwarded by npm — and that is one request to stop, not an impatient second one.
 */
import { constants } from 'node:os'
import type { Log } from '../log'

export interface Stoppable {
  stop(): Promise<void>
  /** What has not finished stopping yet, for the deadline's log line. */
  stillStopping(): string[]
}

export interface StopOnSignalsOptions {
  log: Log
  /** How long the orderly stop may take before the process exits anyway. */
  deadlineMs: number
  exit(code: number): void
  signals?: readonly NodeJS.Signals[]
  /** The same signal again within this long counts once. */
  echoMs?: number
  /** Tells the person at the terminal, in a plain line, that the app is stopping and when it has stopped. */
  say?(line: string): void
}

export const STOP_DEADLINE_MS = 8_000
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP']

/** The stop deadline: `$MB_STOP_DEADLINE_MS` when it is a positive number, else 8 s. */
export function stopDeadlineMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.MB_STOP_DEADLINE_MS)
  return Number.isFinite(value) && value > 0 ? value : STOP_DEADLINE_MS
}

/**
 * Installs the handlers now (before the app starts, so an early signal is not the default "die at once").
 * Call `started(app)` once the app runs, or `exit` yourself when it could not start.
 */
export function stopOnSignals(options: StopOnSignalsOptions): { started(app: Stoppable): void } {
  const { log, exit } = options
  const say = options.say ?? (() => undefined)
  const echoMs = options.echoMs ?? 500
  let app: Stoppable | null = null
  let first: { signal: NodeJS.Signals; at: number } | null = null

  const stop = (running: Stoppable, signal: NodeJS.Signals) => {
    log.info({ signal }, 'headless: stopping')
    say('stopping… (press Ctrl-C again to end at once)')
    const deadline = setTimeout(() => {
      log.error(
        { still: running.stillStopping(), deadlineMs: options.deadlineMs },
        `headless: the stop did not finish in ${options.deadlineMs} ms; still running: ${running.stillStopping().join(', ') || 'nothing known'}; exiting`,
      )
      exit(1)
    }, options.deadlineMs)
    running.stop().then(
      () => {
        clearTimeout(deadline)
        log.info('headless: stopped')
        say('stopped.')
        exit(0)
      },
      (error: unknown) => {
        clearTimeout(deadline)
        log.error({ err: error }, 'headless: stop failed')
        exit(1)
      },
    )
  }

  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now()
    if (!first) {
      first = { signal, at: now }
      if (app) stop(app, signal)
      else log.info({ signal }, 'headless: a stop was asked while starting; stopping once started')
      return
    }
    if (signal === first.signal && now - first.at < echoMs) return
    log.warn({ signal }, 'headless: a second signal; exiting now')
    exit(128 + (constants.signals[signal] ?? 0))
  }
  for (const signal of options.signals ?? STOP_SIGNALS) process.on(signal, onSignal)

  return {
    started(running) {
      app = running
      if (first) stop(running, first.signal)
    },
  }
}

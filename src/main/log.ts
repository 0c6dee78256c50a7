/**
 * Logging through pino (fastify's own logger), so the server, the Lanes and the shells write one format.
 */
import { pino, type Logger } from 'pino'

export type Log = Logger

/** A logger for a shell: JSON lines at `level` to stderr, keeping stdout for the lines a person reads. */
export function createLog(level: string = process.env.MB_LOG_LEVEL ?? 'info'): Log {
  return pino({ level, base: { app: 'manga-bookmark' } }, pino.destination(2))
}

/** A logger that writes nothing, for tests. */
export const silentLog: Log = pino({ level: 'silent' })

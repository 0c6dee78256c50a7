/**
 * Logging through pino (fastify's own logger), so the server, the Lanes and the shells write one format
 * (docs/adr/0049-logs.md): JSON lines to stderr (the headless shell: warnings and errors as plain lines), and — once the shell knows its data directory — to
 * `<data>/logs/manga-bookmark.log` as well, rotated by size. The level is `MB_LOG_LEVEL` when set, else the
 * owner's setting (Settings → Log level), else `info`. Nothing secret reaches either: tokens, cookies,
 * Authorization headers and the admin URL's token are removed from every line before it is written.
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { pino, type DestinationStream, type Logger, type MultiStreamRes } from 'pino'
import type { LogLevel } from '../shared/domain'

export type Log = Logger

export const LOG_FILE = 'manga-bookmark.log'
/** A log file is rotated when the next line would take it past this. */
export const LOG_MAX_BYTES = 5 * 1024 * 1024
/** Files kept: the current one and this many rotated ones (`manga-bookmark.1.log` the newest). */
export const LOG_KEEP = 4

/** Fields whose values never reach a log line, wherever pino finds them. */
const REDACT = [
  'token',
  '*.token',
  'adminToken',
  '*.adminToken',
  'adminUrl',
  '*.adminUrl',
  'authorization',
  'cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
]

/**
 * What a line may still carry inside a message or an error's text: a token in a query (`?token=…`, the admin
 * URL), a one-time sign-in code in a query or fragment (`?code=…`, `#code=…`: docs/adr/0087), a bearer token, a cookie of ours (`mb_…=`), a token field of a serialised object.
 */
const SECRETS: Array<[RegExp, string]> = [
  [/([?&]token=)[^&\s"'\\]+/gi, '$1[redacted]'],
  [/([?&#]code=)[^&\s"'\\]+/gi, '$1[redacted]'],
  [/(Bearer\s+)[A-Za-z0-9._~+/=-]+/g, '$1[redacted]'],
  [/\b(mb_[a-z_]+=)[^;\s"'\\]+/gi, '$1[redacted]'],
  [/("(?:token|adminToken|authorization|cookie|set-cookie)"\s*:\s*")(?:[^"\\]|\\.)*"/gi, '$1[redacted]"'],
]

/** A log line with every secret it might carry replaced by `[redacted]`. Pure. */
export function scrub(line: string): string {
  let out = line
  for (const [pattern, replacement] of SECRETS) out = out.replace(pattern, replacement)
  return out
}

const streams = new WeakMap<Log, MultiStreamRes<string>>()
/** Why a logger's file cannot be written now (the Overview says so), by logger. */
const fileProblems = new WeakMap<Log, { now: string | null }>()

/** Why the log file cannot be written now (a full or read-only disk), or null. */
export function logProblem(log: Log): string | null {
  return fileProblems.get(log)?.now ?? null
}

/**
 * A logger for a shell: lines at `level` (default: `MB_LOG_LEVEL`, else info) to stderr — as JSON (`true`, the
 * default), as a plain sentence for warnings and errors only (`'plain'`: the headless shell's terminal, whose
 * JSON goes to the log file), or not at all (`false`: tests).
 */
export function createLog(level: string = process.env.MB_LOG_LEVEL ?? 'info', options: { stderr?: boolean | 'plain' } = {}): Log {
  const stderr = () => pino.destination({ fd: 2, sync: true })
  const multi = pino.multistream(
    options.stderr === false
      ? []
      : options.stderr === 'plain'
        ? [{ level: 'warn', stream: scrubbing(plainLines(stderr())) }]
        : [{ level: 'trace', stream: scrubbing(stderr()) }],
  )
  const log = pino({ level, base: { app: 'manga-bookmark' }, redact: { paths: REDACT, censor: '[redacted]' } }, multi)
  streams.set(log, multi)
  return log
}

/**
 * Writes `log`'s lines to `<dir>/manga-bookmark.log` too, rotated by size (LOG_MAX_BYTES, LOG_KEEP files).
 * Returns a stop that closes the file. A line the disk cannot take is dropped, never thrown: logging must not
 * stop an app that is telling the owner its disk is full.
 */
export function logToDirectory(log: Log, dir: string, options: { maxBytes?: number; keep?: number } = {}): () => void {
  const multi = streams.get(log)
  if (!multi) throw new Error('log: only a logger made by createLog can write to a directory')
  const problem = { now: null as string | null }
  fileProblems.set(log, problem)
  const file = rotatingFile(join(dir, LOG_FILE), options.maxBytes ?? LOG_MAX_BYTES, options.keep ?? LOG_KEEP, (why) => (problem.now = why))
  multi.add({ level: 'trace', stream: scrubbing(file) })
  return () => file.close()
}

/**
 * Applies the owner's Log level setting to a shell's logger (one made by createLog), unless `MB_LOG_LEVEL`
 * decides. Any other logger — a test's silent one — is left as it is. Returns the level in force.
 */
export function applyLogLevel(log: Log, setting: LogLevel, env: NodeJS.ProcessEnv = process.env): string {
  if (!env.MB_LOG_LEVEL && streams.has(log)) log.level = setting
  return log.level
}

/** A logger that writes nothing, for tests. */
export const silentLog: Log = pino({ level: 'silent' })

/** Keys of the trouble a logger has already warned of, until it is over (warnOnce, troubleOver). */
const episodes = new WeakMap<Log, Set<string>>()

/**
 * A warning said once per episode of the same trouble (`key`, e.g. a Lane refused): the first time at warn, the
 * repeats at debug (the log file keeps them), until troubleOver(key) ends the episode. Returns whether it warned.
 */
export function warnOnce(log: Log, key: string, fields: Record<string, unknown>, message: string): boolean {
  const open = episodes.get(log) ?? new Set<string>()
  episodes.set(log, open)
  const first = !open.has(key)
  open.add(key)
  if (first) log.warn(fields, message)
  else log.debug({ ...fields, repeated: true }, message)
  return first
}

/** Ends an episode warnOnce opened; says so (info) when there was one. Returns whether there was. */
export function troubleOver(log: Log, key: string, fields: Record<string, unknown>, message: string): boolean {
  const open = episodes.get(log)
  if (!open?.delete(key)) return false
  log.info(fields, message)
  return true
}

/** The names a line's fields give that its words do not: the Lane, the Reader, the channel. */
function namesOf(line: { msg?: string; site?: unknown; sites?: unknown; reader?: unknown; channel?: unknown }): string {
  const words = ` ${(line.msg ?? '').replace(/[^\p{L}\p{N}_.-]+/gu, ' ')} `
  const said = (name: string) => words.includes(` ${name} `)
  const names: string[] = []
  const sites = Array.isArray(line.sites) ? line.sites.join(', ') : typeof line.site === 'string' ? line.site : ''
  if (sites && !said(sites)) names.push(`${Array.isArray(line.sites) ? 'Lanes' : 'Lane'} ${sites}`)
  if ((typeof line.reader === 'string' || typeof line.reader === 'number') && !said(String(line.reader)))
    names.push(`Reader ${line.reader}`)
  if ((typeof line.channel === 'string' || typeof line.channel === 'number') && !said(String(line.channel)))
    names.push(`channel ${line.channel}`)
  return names.length ? ` [${names.join('; ')}]` : ''
}

/** A JSON log line as a person reads it: `manga-bookmark: warning: <message> [Lane x]`, naming what it is about. Pure. */
export function plainLine(json: string): string {
  try {
    const line = JSON.parse(json) as { level?: number; msg?: string; err?: { message?: string } }
    const word = (line.level ?? 0) >= 50 ? 'error' : 'warning'
    const cause = line.err?.message && !line.msg?.includes(line.err.message) ? ` (${line.err.message})` : ''
    return `manga-bookmark: ${word}: ${line.msg ?? ''}${cause}${namesOf(line)}\n`
  } catch {
    return json
  }
}

function plainLines(target: { write(line: string): unknown }): { write(line: string): unknown } {
  return { write: (line: string) => target.write(plainLine(line)) }
}

function scrubbing(target: { write(line: string): unknown }): DestinationStream {
  return { write: (line: string) => void target.write(scrub(line)) }
}

interface RotatingFile {
  write(line: string): void
  close(): void
}

/** Appends lines synchronously (a line logged before a crash is on disk), rotating at `maxBytes`. */
function rotatingFile(path: string, maxBytes: number, keep: number, told: (problem: string | null) => void): RotatingFile {
  const cannot = (error: unknown) =>
    told(`cannot write the log ${path}: ${(error as { code?: string }).code ?? (error as Error).message}; its lines are lost until it can`)
  let fd: number | null = null
  let size = 0
  let closed = false
  const open = () => {
    if (closed) return
    try {
      mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 })
      fd = openSync(path, 'a', 0o600)
      size = fstatSync(fd).size
    } catch (error) {
      fd = null
      cannot(error)
    }
  }
  const rotated = (n: number) => path.replace(/\.log$/, `.${n}.log`)
  const rotate = () => {
    if (fd !== null) closeSync(fd)
    fd = null
    try {
      rmSync(rotated(keep), { force: true })
      for (let n = keep - 1; n >= 1; n--) {
        try {
          renameSync(rotated(n), rotated(n + 1))
        } catch {
          // Not there yet.
        }
      }
      renameSync(path, rotated(1))
    } catch {
      // The next open appends to what is there.
    }
    open()
  }
  open()
  return {
    write(line) {
      const bytes = Buffer.byteLength(line)
      if (size > 0 && size + bytes > maxBytes) rotate()
      if (fd === null) open()
      if (fd === null) return
      try {
        writeSync(fd, line)
        size += bytes
        told(null)
      } catch (error) {
        // A full or read-only disk: the line is dropped (stderr still has it), and the Overview says so.
        cannot(error)
      }
    },
    close() {
      closed = true
      if (fd !== null) closeSync(fd)
      fd = null
    },
  }
}

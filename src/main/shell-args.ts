/**
 * The shells' command line, parsed once for both (docs/design.md#shells-and-commands):
 * `--data DIR --port N --demo` everywhere; `--admin-token T`, `--admin-token-file F`, `--admin-port N` and
 * `--chromium PATH` in the headless shell, whose admin token may also come from `$MB_ADMIN_TOKEN`.
 * A bad value throws a one-line message; `--help` asks for the usage text.
 */
import { readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { defaultDataDir, resolveDataDir } from './paths'

export type ShellKind = 'electron' | 'headless'

/**
 * The owner's window's port when no --admin-port is given: the same at every start, so the admin URL is too
 * (docs/adr/0076-an-owners-address-that-lasts.md). Taken by another program, a free one is used for that start.
 */
export const DEFAULT_ADMIN_PORT = 4712

export interface ShellArgs {
  /** Absent: the shell's default (Electron: the platform's app-data folder; headless: defaultDataDir). */
  dataDir?: string
  /** Undefined: the owner's setting (4711 unless changed). */
  port?: number
  adminToken?: string
  /**
   * Where the admin token came from: `argv` is visible to every local user (`ps`), so the shell warns;
   * `file` and `env` are not.
   */
  adminTokenFrom?: 'argv' | 'file' | 'env'
  /** Warnings about the token's source (a token file others can read). */
  adminTokenWarnings?: string[]
  adminPort?: number
  chromium?: string
  /** Headless: the log's JSON lines on stderr too (else only in the log file, and warnings as plain lines). */
  verbose?: boolean
  demo: boolean
  help: boolean
}

/** Kept for the headless shell, whose data directory always resolves. */
export interface HeadlessArgs extends ShellArgs {
  dataDir: string
}

export const USAGE: Record<ShellKind, string> = {
  electron: [
    'Usage: npm start [-- --data DIR] [--port N] [--demo]',
    '  --data DIR   where the database and sites.json live (default: the platform app-data folder)',
    '  --port N     the Readers sync endpoint port (default: the Settings value, 4711)',
    '  --demo       run bundled demo Sites on loopback with a demo catalogue',
  ].join('\n'),
  headless: [
    'Usage: npm run headless -- [--data DIR] [--port N] [--admin-token-file F] [--admin-port N] [--chromium PATH] [--demo] [--verbose]',
    '  --data DIR             where the database and sites.json live (default: $XDG_DATA_HOME/manga-bookmark)',
    '  --port N               the Readers sync endpoint port (default: the Settings value, 4711)',
    '  --admin-token-file F   read the admin token (16+ characters) from a file; or set $MB_ADMIN_TOKEN',
    '                         (default: one kept in the data directory, the same at every start)',
    '  --admin-token T        the same on the command line, where other local users can see it',
    `  --admin-port N         the port of the owner's window on 127.0.0.1 (default: ${DEFAULT_ADMIN_PORT}; 0 for a free one)`,
    '  --chromium PATH        the Chromium for browser Sites (default: $CHROMIUM_PATH, else /usr/bin/chromium)',
    '  --demo                 run bundled demo Sites on loopback with a demo catalogue',
    '  --verbose              also print the log (JSON lines) here; it is always in <data>/logs/',
  ].join('\n'),
}

/**
 * Parses a shell's arguments. The headless shell refuses unknown flags; the Electron shell ignores them
 * (Electron and Chromium take switches of their own) but validates every flag it knows the same way.
 */
export function parseShellArgs(argv: string[], shell: ShellKind): ShellArgs {
  const headless = shell === 'headless'
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string' },
      port: { type: 'string' },
      demo: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      ...(headless
        ? {
            'admin-token': { type: 'string' },
            'admin-token-file': { type: 'string' },
            'admin-port': { type: 'string' },
            chromium: { type: 'string' },
            verbose: { type: 'boolean', default: false },
          }
        : {}),
    },
    strict: headless,
    allowPositionals: !headless,
  }) as { values: Record<string, string | boolean | undefined> }
  const text = (name: string): string | undefined => {
    const value = values[name]
    if (value === undefined) return undefined
    if (typeof value !== 'string' || value === '') throw new Error(`--${name} needs a value`)
    return value
  }
  const portFlag = (name: string) => {
    const raw = text(name)
    const port = raw === undefined ? undefined : Number(raw)
    if (port !== undefined && (!/^\d+$/.test(raw!) || port > 65535)) throw new Error(`--${name} must be 0–65535, got "${raw}"`)
    return port
  }
  const port = portFlag('port')
  const adminPort = headless ? portFlag('admin-port') : undefined
  const adminToken = headless ? text('admin-token') : undefined
  if (adminToken !== undefined && adminToken.length < 16) throw new Error('--admin-token must be at least 16 characters')
  const adminTokenFile = headless ? text('admin-token-file') : undefined
  if (adminToken !== undefined && adminTokenFile !== undefined) throw new Error('give --admin-token or --admin-token-file, not both')
  const given = text('data')
  const data = given === undefined ? undefined : resolveDataDir(given)
  if (data && 'error' in data) throw new Error(data.error)
  return {
    dataDir: data?.dir,
    port,
    // A token comes with where it came from, or neither is set.
    ...(adminToken !== undefined ? { adminToken, adminTokenFrom: 'argv' as const } : {}),
    ...(adminTokenFile !== undefined ? readTokenFile(adminTokenFile) : {}),
    adminPort,
    chromium: headless ? text('chromium') : undefined,
    verbose: values.verbose === true || undefined,
    demo: values.demo === true,
    help: values.help === true,
  }
}

/**
 * The admin token in a file (its first line; at least 16 characters). A file other users can read is used,
 * with a warning: the token is only as private as the file.
 */
function readTokenFile(file: string): Pick<ShellArgs, 'adminToken' | 'adminTokenFrom' | 'adminTokenWarnings'> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(`--admin-token-file ${file}: cannot be read: ${(error as Error).message}`)
  }
  const token = text.split(/\r?\n/, 1)[0]!.trim()
  if (token.length < 16) throw new Error(`--admin-token-file ${file}: the token must be at least 16 characters`)
  const open = (statSync(file).mode & 0o077) !== 0
  return {
    adminToken: token,
    adminTokenFrom: 'file',
    adminTokenWarnings: open ? [`the admin token file ${file} can be read by other users; chmod 600 it`] : undefined,
  }
}

/** The headless shell's arguments, the data directory resolved, the admin token read from `$MB_ADMIN_TOKEN` when no flag gives one. */
export function parseHeadlessArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): HeadlessArgs {
  const args = parseShellArgs(argv, 'headless')
  const fromEnv = env.MB_ADMIN_TOKEN?.trim()
  if (args.adminToken === undefined && fromEnv) {
    if (fromEnv.length < 16) throw new Error('MB_ADMIN_TOKEN must be at least 16 characters')
    return { ...args, adminToken: fromEnv, adminTokenFrom: 'env', dataDir: args.dataDir ?? resolve(defaultDataDir(env)) }
  }
  return { ...args, dataDir: args.dataDir ?? resolve(defaultDataDir(env)) }
}

/** The app's secrets a shell may read from its environment: read once, then removed (`scrubSecrets`). */
export const SECRET_VARIABLES = ['MB_ADMIN_TOKEN'] as const

/**
 * Removes the app's secrets from `env` (the process's own, by default) once the shell has read them, so that no
 * child process started afterwards inherits them — Electron's renderers and the browser fetcher's hidden windows,
 * which render hostile Sites, included (docs/adr/0088-no-secrets-in-child-processes.md).
 */
export function scrubSecrets(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of SECRET_VARIABLES) delete env[name]
}

/** What the shell says once at start about where its admin token came from, if anything. */
export function adminTokenWarnings(args: Pick<ShellArgs, 'adminTokenFrom' | 'adminTokenWarnings'>): string[] {
  return [
    ...(args.adminTokenFrom === 'argv'
      ? [
          '--admin-token on the command line can be seen by every user of this machine (ps, /proc); ' +
            'give it in $MB_ADMIN_TOKEN or with --admin-token-file instead',
        ]
      : []),
    ...(args.adminTokenWarnings ?? []),
  ]
}

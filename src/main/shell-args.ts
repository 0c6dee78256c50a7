/**
 * The shells' command line, parsed once for both (docs/design.md#shells-and-commands):
 * `--data DIR --port N --demo` everywhere, `--admin-token T --chromium PATH` in the headless shell.
 * A bad value throws a one-line message; `--help` asks for the usage text.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { defaultDataDir } from './paths'

export type ShellKind = 'electron' | 'headless'

export interface ShellArgs {
  /** Absent: the shell's default (Electron: the platform's app-data folder; headless: defaultDataDir). */
  dataDir?: string
  /** Undefined: the owner's setting (4711 unless changed). */
  port?: number
  adminToken?: string
  chromium?: string
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
    'Usage: npm run headless -- [--data DIR] [--port N] [--admin-token T] [--chromium PATH] [--demo]',
    '  --data DIR         where the database and sites.json live (default: $XDG_DATA_HOME/manga-bookmark)',
    '  --port N           the Readers sync endpoint port (default: the Settings value, 4711)',
    '  --admin-token T    the admin token (16+ characters; default: a random one, printed in the admin URL)',
    '  --chromium PATH    the Chromium for browser Sites (default: $CHROMIUM_PATH, else /usr/bin/chromium)',
    '  --demo             run bundled demo Sites on loopback with a demo catalogue',
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
      ...(headless ? { 'admin-token': { type: 'string' }, chromium: { type: 'string' } } : {}),
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
  const rawPort = text('port')
  const port = rawPort === undefined ? undefined : Number(rawPort)
  if (port !== undefined && (!/^\d+$/.test(rawPort!) || port > 65535)) throw new Error(`--port must be 0–65535, got "${rawPort}"`)
  const adminToken = headless ? text('admin-token') : undefined
  if (adminToken !== undefined && adminToken.length < 16) throw new Error('--admin-token must be at least 16 characters')
  const data = text('data')
  return {
    ...(data !== undefined ? { dataDir: resolve(data) } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(adminToken !== undefined ? { adminToken } : {}),
    ...(headless && text('chromium') !== undefined ? { chromium: text('chromium')! } : {}),
    demo: values.demo === true,
    help: values.help === true,
  }
}

/** The headless shell's arguments, the data directory resolved. */
export function parseHeadlessArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): HeadlessArgs {
  const args = parseShellArgs(argv, 'headless')
  return { ...args, dataDir: args.dataDir ?? resolve(defaultDataDir(env)) }
}

/** The headless shell's command line (SPEC §8). */
import { parseArgs } from 'node:util'
import { resolve } from 'node:path'
import { defaultDataDir } from '../paths'

export interface HeadlessArgs {
  dataDir: string
  /** Undefined: the owner's setting (4711 unless changed). */
  port?: number
  adminToken?: string
  chromium?: string
  demo: boolean
}

/** Parses the command line; throws with a one-line message on a bad flag. */
export function parseHeadlessArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): HeadlessArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string' },
      port: { type: 'string' },
      'admin-token': { type: 'string' },
      chromium: { type: 'string' },
      demo: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  })
  const port = values.port === undefined ? undefined : Number(values.port)
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new Error(`--port must be 0–65535, got "${values.port}"`)
  if (values['admin-token'] !== undefined && values['admin-token'].length < 16) {
    throw new Error('--admin-token must be at least 16 characters')
  }
  return {
    dataDir: resolve(values.data ?? defaultDataDir(env)),
    ...(port !== undefined ? { port } : {}),
    adminToken: values['admin-token'],
    chromium: values.chromium,
    demo: values.demo ?? false,
  }
}

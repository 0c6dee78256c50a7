/**
 * better-sqlite3 built for Electron's ABI lives apart from the Node build the tests use (docs/toolchain.md):
 * `npm run rebuild:electron` writes it to native/electron/, and packaging copies it to resources/native/.
 * It is loaded through better-sqlite3's `nativeBinding` option.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'

export const NATIVE_FILE = 'better_sqlite3.node'

export function nativeBindingCandidates(appPath: string, resourcesPath: string): string[] {
  return [join(resourcesPath, 'native', NATIVE_FILE), join(appPath, 'native', 'electron', NATIVE_FILE)]
}

/** The Electron build of better-sqlite3, or null when it was never built here. */
export function findNativeBinding(appPath: string, resourcesPath: string): string | null {
  return nativeBindingCandidates(appPath, resourcesPath).find((p) => existsSync(p)) ?? null
}

export const MISSING_NATIVE_MESSAGE =
  'The SQLite module built for Electron is missing (native/electron/better_sqlite3.node).\n\n' +
  'On a machine with network access run:  npm run rebuild:electron\n' +
  'Until then, `npm run headless` runs the same app in Node.'

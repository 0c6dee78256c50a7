/**
 * The data directory and the files in it are the owner's alone (docs/security.md#another-local-user): the
 * directory 0700, every file 0600 — whatever the umask, and for a directory or file made before this rule.
 * Where the platform has no POSIX modes (Windows), chmod changes nothing and the user profile's ACLs apply.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs'

export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/**
 * Creates a directory (and its missing parents) 0700, or makes an existing one 0700 when others could read or
 * enter it. Null when it was private already; else the mode it had, and why it could not be changed when it
 * could not (a directory of another user's, such as /tmp) — the files in it are 0600 all the same.
 */
export function ensurePrivateDir(dir: string): { from: number; error?: string } | null {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  const mode = statSync(dir).mode & 0o777
  if ((mode & 0o077) === 0) return null
  try {
    chmodSync(dir, mode & PRIVATE_DIR_MODE)
    return { from: mode }
  } catch (error) {
    return { from: mode, error: (error as Error).message }
  }
}

/**
 * Makes sure a file exists with mode 0600 before another library opens it: an empty one is created 0600 (the
 * umask can only take bits away), and an existing one open to others is tightened. SQLite gives a database's
 * `-wal` and `-shm` the database file's mode, so they are private too.
 */
export function preparePrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  tightenFile(file)
}

/** Takes group and other bits off a file that exists; a file that does not is left alone. */
export function tightenFile(file: string): void {
  let mode: number
  try {
    mode = statSync(file).mode & 0o777
  } catch {
    return
  }
  if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700)
}

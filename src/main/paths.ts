/** Where the app keeps its data when no `--data` is given (docs/design.md#shells-and-commands). */
import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME?.trim() || join(homedir(), '.local', 'share')
  return join(base, 'manga-bookmark')
}

/**
 * The data directory `--data` gives (absent: the default), resolved; or why it cannot be one — a file given by
 * mistake, which the app would otherwise meet as a raw `EEXIST` from mkdir. A path that does not exist yet is
 * fine: the app makes it.
 */
export function resolveDataDir(given: string | undefined, env: NodeJS.ProcessEnv = process.env): { dir: string } | { error: string } {
  const dir = resolve(given ?? defaultDataDir(env))
  const stat = statSync(dir, { throwIfNoEntry: false })
  if (!stat || stat.isDirectory()) return { dir }
  return { error: `--data must be a directory: ${dir} is ${stat.isFile() ? 'a file' : 'not a directory'}` }
}

/** Where the app keeps its data when no `--data` is given (docs/design.md#shells-and-commands). */
import { homedir } from 'node:os'
import { join } from 'node:path'

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME?.trim() || join(homedir(), '.local', 'share')
  return join(base, 'manga-bookmark')
}

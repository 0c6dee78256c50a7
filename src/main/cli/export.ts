/**
 * `npm run export -- [--data DIR] [--out FILE]`
 * Writes the library as one export document (docs/export-format.md) to FILE, or to standard output. The
 * file is written aside and renamed into place, so a failed export never leaves half a document.
 */
import { chmod, rename, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { BUILT_IN_SITES } from '../sites/builtin'
import { createRegistry } from '../sites/registry'
import type { Site } from '../sites/site'
import { loadSites } from '../sites/sites-file'
import { openStore, STORE_FILE } from '../store/database'
import { PRIVATE_FILE_MODE } from '../store/private-files'
import { exportLibrary } from '../use-cases/library-export'
import { dataDirOf, readCommandLine, type Output } from './help'

const USAGE = 'usage: npm run export -- [--data DIR] [--out FILE]'

const HELP = [
  'Usage: npm run export -- [--data DIR] [--out FILE]',
  '',
  "Writes the whole library — Sites in use, Series, every Reader's bookmarks and Progress, never a token — as one",
  'JSON document (docs/export-format.md) that `npm run import` restores.',
  '  --data DIR   the data directory (default: $XDG_DATA_HOME/manga-bookmark, else ~/.local/share/manga-bookmark)',
  '  --out FILE   write it to FILE (written aside, then renamed into place); default: standard output',
].join('\n')

export async function runExportCommand(
  argv: string[],
  io: Output,
  options: { env?: NodeJS.ProcessEnv; now?: () => number; sites?: readonly Site[] } = {},
): Promise<number> {
  const parsed = readCommandLine(argv, io, {
    name: 'export',
    options: { data: { type: 'string' }, out: { type: 'string' } },
    help: HELP,
    usage: USAGE,
  })
  if (typeof parsed === 'number') return parsed
  const now = options.now ?? Date.now
  const dataDir = dataDirOf('export', parsed.values.data, io, options.env ?? process.env)
  if (dataDir === undefined) return 2
  const registry = createRegistry(loadSites(dataDir, options.sites ?? BUILT_IN_SITES).sites)
  const store = openStore(join(dataDir, STORE_FILE), { now: now() })
  try {
    const doc = await exportLibrary({ db: store.db, registry, now: now() })
    const text = `${JSON.stringify(doc, null, 2)}\n`
    const bookmarks = doc.readers.reduce((sum, r) => sum + r.bookmarks.length, 0)
    const summary = `${doc.series.length} Series, ${bookmarks} bookmarks of ${doc.readers.length} Readers`
    if (parsed.values.out) {
      const out = resolve(parsed.values.out)
      // The whole library: 0600 whatever the umask, and a .partial left by an earlier run is tightened too.
      await writeFile(`${out}.partial`, text, { mode: PRIVATE_FILE_MODE })
      await chmod(`${out}.partial`, PRIVATE_FILE_MODE)
      await rename(`${out}.partial`, out)
      io.err(`export: ${summary} written to ${out}`)
    } else {
      io.out(text.trimEnd())
      io.err(`export: ${summary}`)
    }
    return 0
  } catch (error) {
    io.err(`export: ${(error as Error).message}`)
    return 1
  } finally {
    await store.close()
  }
}

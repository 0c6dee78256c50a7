/**
 * `npm run reader -- add NAME | rotate NAME | list | remove NAME [--data DIR]`
 * Manages Readers without the window. A token is printed once, at `add` and `rotate`, and never stored.
 */
import { join } from 'node:path'
import { openStore, STORE_FILE } from '../store/database'
import { listReaders } from '../store/readers'
import { createReader, deleteReader, findReader, rotateToken } from '../use-cases/reader-tokens'
import { dataDirOf, readCommandLine, type Output } from './help'

export type { Output } from './help'

const USAGE = 'usage: npm run reader -- add NAME | rotate NAME | list | remove NAME [--data DIR]'

const HELP = [
  'Usage: npm run reader -- add NAME | rotate NAME | list | remove NAME [--data DIR]',
  '',
  'Manages Readers without the window.',
  '  add NAME      adds a Reader and prints their token, once (it is stored only as a hash)',
  '  rotate NAME   prints a new token for a Reader; every device of theirs is signed out',
  '  list          lists the Readers',
  '  remove NAME   removes a Reader with their bookmarks',
  '  --data DIR    the data directory (default: $XDG_DATA_HOME/manga-bookmark, else ~/.local/share/manga-bookmark)',
  '',
  "A Reader opens the app's address (http://<this machine>:4711/) and pastes the token; the window's Readers page",
  'also shows the address and a QR code to scan.',
].join('\n')

/** Runs one command; returns the process exit code. */
export async function runReaderCommand(
  argv: string[],
  io: Output,
  env: NodeJS.ProcessEnv = process.env,
  now = Date.now(),
): Promise<number> {
  const parsed = readCommandLine(argv, io, {
    name: 'reader',
    options: { data: { type: 'string' } },
    positionals: true,
    help: HELP,
    usage: USAGE,
  })
  if (typeof parsed === 'number') return parsed
  const [command, ...rest] = parsed.positionals
  const name = rest.join(' ').trim()
  if (!command || !['add', 'rotate', 'list', 'remove'].includes(command) || (command !== 'list' && !name)) {
    io.err(USAGE)
    return 2
  }
  const dataDir = dataDirOf('reader', parsed.values.data, io, env)
  if (dataDir === undefined) return 2
  const store = openStore(join(dataDir, STORE_FILE), { now })
  try {
    switch (command) {
      case 'add': {
        const { reader, token } = await createReader(store.db, name, now)
        io.out(`Reader "${reader.name}" (id ${reader.id}) added. Token, shown once:\n${token}`)
        return 0
      }
      case 'rotate': {
        const reader = await findReader(store.db, name)
        if (!reader) return fail(io, `no Reader "${name}"`)
        const { token } = await rotateToken(store.db, reader.id, now)
        io.out(`New token for "${reader.name}", shown once (every device of theirs is signed out):\n${token}`)
        return 0
      }
      case 'remove': {
        const reader = await findReader(store.db, name)
        if (!reader) return fail(io, `no Reader "${name}"`)
        await deleteReader(store.db, reader.id)
        io.out(`Reader "${reader.name}" removed, with their bookmarks.`)
        return 0
      }
      default: {
        const readers = await listReaders(store.db)
        if (readers.length === 0) io.out('No Readers yet. Add one: npm run reader -- add NAME')
        for (const r of readers)
          io.out(`${String(r.id).padStart(4)}  ${r.name}  (added ${new Date(r.created_at).toISOString().slice(0, 10)})`)
        return 0
      }
    }
  } catch (error) {
    return fail(io, (error as Error).message)
  } finally {
    await store.close()
  }
}

function fail(io: Output, message: string): number {
  io.err(`reader: ${message}`)
  return 1
}

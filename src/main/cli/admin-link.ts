/**
 * `npm run admin-link -- [--data DIR]`: a new one-time sign-in link for the owner's window, from the running app,
 * with no restart (docs/adr/0127-a-sign-in-link-while-the-app-runs.md). The command makes a code, writes only its
 * SHA-256 to the data directory's database, and waits for the running app to take it and answer with its admin
 * port; then it prints the link. When no app takes it in a few seconds, it says so and leaves nothing behind.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { codeId, SIGN_IN_CODE_TTL_MS } from '../access/sign-in-codes'
import { openStore, STORE_FILE } from '../store/database'
import { adminSignInRequest, dropAdminSignInRequest, requestAdminSignIn } from '../store/admin-sign-in-requests'
import { dataDirOf, readCommandLine, type Output } from './help'

const USAGE = 'usage: npm run admin-link -- [--data DIR]'

const HELP = [
  'Usage: npm run admin-link -- [--data DIR]',
  '',
  "Prints a new one-time sign-in link for the owner's window, from the app running on that data directory:",
  'no restart. The link works once, within 10 minutes, in a browser on this computer.',
  '  --data DIR    the data directory the app runs on (default: $XDG_DATA_HOME/manga-bookmark, else',
  '                ~/.local/share/manga-bookmark); a demo started with --data DIR is found there too',
  '',
  'The app must be running (npm run headless, or npm start). The terminal where it runs also prints a new link',
  'when you press Enter there.',
].join('\n')

/** How long the command waits for the running app to answer. */
export const ANSWER_WAIT_MS = 5_000
const LOOK_EVERY_MS = 100

export interface AdminLinkTime {
  now(): number
  sleep(ms: number): Promise<void>
}

const realTime: AdminLinkTime = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) }

/** Runs the command; returns the process exit code. */
export async function runAdminLinkCommand(
  argv: string[],
  io: Output,
  env: NodeJS.ProcessEnv = process.env,
  time: AdminLinkTime = realTime,
): Promise<number> {
  const parsed = readCommandLine(argv, io, { name: 'admin-link', options: { data: { type: 'string' } }, help: HELP, usage: USAGE })
  if (typeof parsed === 'number') return parsed
  const dataDir = dataDirOf('admin-link', parsed.values.data, io, env)
  if (dataDir === undefined) return 2
  // A demo keeps its database in DIR/demo: asked of DIR, with none there, the demo's answers.
  const demoFile = join(dataDir, 'demo', STORE_FILE)
  const file = !existsSync(join(dataDir, STORE_FILE)) && existsSync(demoFile) ? demoFile : join(dataDir, STORE_FILE)
  if (!existsSync(file)) {
    io.err(`admin-link: there is no database in ${dataDir} (${STORE_FILE}): is this the data directory the app runs on? (--data DIR)`)
    return 1
  }
  const store = openStore(file, { now: time.now() })
  try {
    const code = randomBytes(32).toString('base64url')
    const started = time.now()
    const id = await requestAdminSignIn(store.db, { codeHash: codeId(code), now: started, expiresAt: started + SIGN_IN_CODE_TTL_MS })
    for (;;) {
      const request = await adminSignInRequest(store.db, id)
      if (request && request.takenAt > 0) {
        io.out(`sign in: http://127.0.0.1:${request.adminPort}/admin/?code=${code}`)
        io.out('open it in a browser on this computer: it works once, within 10 minutes.')
        return 0
      }
      if (time.now() - started >= ANSWER_WAIT_MS) break
      await time.sleep(LOOK_EVERY_MS)
    }
    await dropAdminSignInRequest(store.db, id)
    io.err(
      `admin-link: no running app answered on ${dataDir} within ${ANSWER_WAIT_MS / 1000} seconds. Start it (npm run headless -- --data ${dataDir}): it prints a sign-in link when it starts.`,
    )
    return 1
  } finally {
    await store.close()
  }
}

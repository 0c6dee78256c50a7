/**
 * `npm run headless -- --data DIR [--port N] [--admin-token-file F] [--admin-port N] [--chromium PATH] [--demo] [--verbose]`
 * Starts the headless shell and prints, in a few plain lines, where it serves: the sync endpoint, and the owner's
 * window on its own port (the same admin URL at every start). SIGTERM, SIGINT or SIGHUP stop it in order within a
 * deadline; a second signal ends it at once (signals.ts, docs/adr/0031). Built to out/main/headless.js, which
 * `npm run headless` runs in the process npm starts (docs/adr/0032).
 */
import { join } from 'node:path'
import { createLog, logToDirectory } from '../log'
import { resolveChromium } from '../fetch/browser/playwright-launcher'
import { adminTokenWarnings, DEFAULT_ADMIN_PORT, parseHeadlessArgs, scrubSecrets, USAGE, type HeadlessArgs } from '../shell-args'
import { startHeadlessShell } from './shell'
import { startLines } from './start-lines'
import { linkOnEnter } from './link-on-enter'
import { stopDeadlineMs, stopOnSignals } from './signals'

async function main(): Promise<void> {
  let args: HeadlessArgs
  try {
    args = parseHeadlessArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`headless: ${(error as Error).message}`)
    process.exit(2)
  } finally {
    // Read: no child process this one starts inherits the admin token (docs/adr/0088).
    scrubSecrets(process.env)
  }
  if (args.help) {
    console.log(USAGE.headless)
    process.exit(0)
  }
  // The terminal gets a few plain lines; the log's JSON lines go to its file, and here only when asked
  // (--verbose). Warnings and errors are said here too, as plain sentences (docs/adr/0076).
  const log = createLog(undefined, { stderr: args.verbose ? true : 'plain' })
  // The log file beside the data, rotated by size; the admin URL printed below never reaches it (docs/adr/0049-logs.md).
  const logDir = join(args.dataDir, 'logs')
  logToDirectory(log, logDir)
  const say = (line: string) => console.log(`manga-bookmark: ${line}`)
  for (const warning of adminTokenWarnings(args)) console.error(`manga-bookmark: warning: ${warning}`)
  const signals = stopOnSignals({ log, deadlineMs: stopDeadlineMs(), exit: (code) => process.exit(code), say })
  const chromium = resolveChromium(args.chromium)
  say(`starting${args.demo ? ' the demo' : ''}: opening and checking the database in ${args.dataDir}, then the Lanes…`)
  const shell = await startHeadlessShell({
    dataDir: args.dataDir,
    port: args.port,
    log,
    demo: args.demo,
    chromium,
    adminToken: args.adminToken,
    adminPort: args.adminPort ?? DEFAULT_ADMIN_PORT,
    adminPortOrFree: args.adminPort === undefined,
  })
  for (const line of startLines(shell, { chromium, logDir })) say(line)
  // Enter at the terminal prints a new sign-in link (docs/adr/0127); only a person's terminal is read.
  if (process.stdin.isTTY) linkOnEnter(process.stdin, () => shell.newAdminSignInLink(), say)
  signals.started(shell)
}

main().catch((error: unknown) => {
  console.error(`headless: ${(error as Error).message}`)
  process.exit(1)
})

/**
 * `npm run headless -- --data DIR [--port N] [--admin-token-file F] [--admin-port N] [--chromium PATH] [--demo]`
 * Starts the headless shell and prints where it serves: the sync endpoint, and the owner's window on its own
 * port. SIGTERM, SIGINT or SIGHUP stop it in order within a
 * deadline; a second signal ends it at once (signals.ts, docs/adr/0031). Built to out/main/headless.js, which
 * `npm run headless` runs in the process npm starts (docs/adr/0032).
 */
import { join } from 'node:path'
import { createLog, logToDirectory } from '../log'
import { resolveChromium } from '../fetch/browser/playwright-launcher'
import { adminTokenWarnings, parseHeadlessArgs, USAGE, type HeadlessArgs } from '../shell-args'
import { startHeadlessShell } from './shell'
import { stopDeadlineMs, stopOnSignals } from './signals'

async function main(): Promise<void> {
  let args: HeadlessArgs
  try {
    args = parseHeadlessArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`headless: ${(error as Error).message}`)
    process.exit(2)
  }
  if (args.help) {
    console.log(USAGE.headless)
    process.exit(0)
  }
  const log = createLog()
  // The log file beside the data, rotated by size; the admin URL printed below never reaches it (docs/adr/0049-logs.md).
  logToDirectory(log, join(args.dataDir, 'logs'))
  for (const warning of adminTokenWarnings(args)) console.error(`manga-bookmark: warning: ${warning}`)
  const signals = stopOnSignals({ log, deadlineMs: stopDeadlineMs(), exit: (code) => process.exit(code) })
  const chromium = resolveChromium(args.chromium)
  const shell = await startHeadlessShell({
    dataDir: args.dataDir,
    ...(args.port !== undefined ? { port: args.port } : {}),
    log,
    demo: args.demo,
    ...(chromium ? { chromium } : {}),
    ...(args.adminToken ? { adminToken: args.adminToken } : {}),
    ...(args.adminPort !== undefined ? { adminPort: args.adminPort } : {}),
  })
  console.log(`manga-bookmark: data ${shell.dataFile} · serving ${shell.origin} (port ${shell.port})`)
  console.log(`manga-bookmark: admin: ${shell.adminUrl}`)
  for (const problem of shell.core.siteProblems) console.log(`manga-bookmark: ${problem}`)
  console.log(`manga-bookmark: browser Sites ${chromium ? `use ${chromium}` : 'have no browser (no Chromium found; see --chromium)'}`)
  if (shell.demoOrigin) console.log(`manga-bookmark: demo Sites on ${shell.demoOrigin}`)
  for (const { name, token } of shell.demoReaders) console.log(`manga-bookmark: demo Reader ${name}, token ${token} (shown once)`)
  signals.started(shell)
}

main().catch((error: unknown) => {
  console.error(`headless: ${(error as Error).message}`)
  process.exit(1)
})

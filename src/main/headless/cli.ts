/**
 * `npm run headless -- --data DIR [--port N] [--admin-token T] [--chromium PATH] [--demo]`
 * Starts the headless shell, prints one line saying where it serves, and stops cleanly on SIGTERM/SIGINT.
 */
import { createLog } from '../log'
import { resolveChromium } from '../fetch/browser/playwright-launcher'
import { parseHeadlessArgs, USAGE, type HeadlessArgs } from '../shell-args'
import { startHeadlessShell } from './shell'

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
  const chromium = resolveChromium(args.chromium)
  const shell = await startHeadlessShell({
    dataDir: args.dataDir,
    ...(args.port !== undefined ? { port: args.port } : {}),
    log,
    demo: args.demo,
    ...(chromium ? { chromium } : {}),
    ...(args.adminToken ? { adminToken: args.adminToken } : {}),
  })
  console.log(`manga-bookmark: data ${shell.dataFile} · serving ${shell.origin} (port ${shell.port})`)
  console.log(`manga-bookmark: admin: ${shell.adminUrl}`)
  for (const problem of shell.core.siteProblems) console.log(`manga-bookmark: ${problem}`)
  console.log(`manga-bookmark: browser Sites ${chromium ? `use ${chromium}` : 'have no browser (no Chromium found; see --chromium)'}`)
  if (shell.demoOrigin) console.log(`manga-bookmark: demo Sites on ${shell.demoOrigin}`)
  for (const { name, token } of shell.demoReaders) console.log(`manga-bookmark: demo Reader ${name}, token ${token} (shown once)`)
  const stop = (signal: string) => {
    log.info({ signal }, 'headless: stopping')
    shell.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'headless: stop failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}

main().catch((error: unknown) => {
  console.error(`headless: ${(error as Error).message}`)
  process.exit(1)
})

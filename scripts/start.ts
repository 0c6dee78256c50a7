/**
 * `npm start`: builds and launches the Electron tray app; where the Electron binary is absent it says so in
 * one line and runs the headless shell instead, with the same arguments, in this very process (npm starts it
 * with `exec`, so signals reach the app itself: docs/adr/0032).
 */
import { spawn, spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { wantsHelp } from '../src/main/cli/help'
import { SECRET_VARIABLES, USAGE } from '../src/main/shell-args'
import { electronBinaryPath } from './electron-binary'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)

if (wantsHelp(args)) {
  console.log(
    [
      USAGE.electron,
      '',
      'Starts the Electron tray app; where the Electron binary is not installed, the headless shell instead, which also takes:',
      USAGE.headless.split('\n').slice(1).join('\n'),
    ].join('\n'),
  )
  process.exit(0)
}

/** This environment without the app's secrets: the build and Electron need none (docs/adr/0088). */
const withoutSecrets = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !(SECRET_VARIABLES as readonly string[]).includes(name)))

function run(command: string, argv: string[]): void {
  const child = spawn(command, argv, { cwd: root, stdio: 'inherit', env: withoutSecrets() })
  const forward = (signal: NodeJS.Signals) => child.kill(signal)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

const electron = electronBinaryPath(root)
if (electron) {
  const build = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: withoutSecrets(),
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
  run(electron, ['.', ...args])
} else {
  console.log('start: the Electron binary is not installed here; running the headless shell instead (npm run headless).')
  const built = spawnSync(process.execPath, [join(root, 'scripts/ensure-built.mjs')], {
    cwd: root,
    stdio: 'inherit',
    env: withoutSecrets(),
  })
  if (built.status !== 0) process.exit(built.status ?? 1)
  // The built entry reads this process's arguments after the script: the same ones `npm start` was given.
  await import(pathToFileURL(join(root, 'out/main/headless.js')).href)
}

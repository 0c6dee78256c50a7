/**
 * `npm run rebuild:electron` — for a machine WITH network access. Builds better-sqlite3 for Electron's ABI
 * into native/electron/better_sqlite3.node, leaving the Node build that tests use untouched (docs/toolchain.md:
 * electron-rebuild can report success while building against Node's headers, and a failed rebuild deletes
 * the Node build). It works on a copy of the package, and checks the result really targets Electron's ABI.
 * Never run it from install, test or CI.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { wantsHelp } from '../src/main/cli/help'

if (wantsHelp(process.argv.slice(2))) {
  console.log(
    [
      'Usage: npm run rebuild:electron',
      '',
      "Builds better-sqlite3 for Electron's ABI into native/electron/better_sqlite3.node (the Node build that tests use is",
      "left alone). Needs the network, for Electron's headers; never part of install, test or CI. Takes no options.",
    ].join('\n'),
  )
  process.exit(0)
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const electron = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
const abi = readFileSync(join(root, 'node_modules/electron/abi_version'), 'utf8').trim()
const work = mkdtempSync(join(tmpdir(), 'mb-electron-sqlite-'))
const copy = join(work, 'better-sqlite3')
const target = join(root, 'native/electron/better_sqlite3.node')

// npm's own `nodedir` setting would make node-gyp build against Node's headers: drop every npm_config_*.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_config_')))

function run(command: string, args: string[]): boolean {
  console.log(`$ ${command} ${args.join(' ')}`)
  return spawnSync(command, args, { cwd: copy, stdio: 'inherit', env }).status === 0
}

try {
  cpSync(join(root, 'node_modules/better-sqlite3'), copy, { recursive: true })
  rmSync(join(copy, 'build'), { recursive: true, force: true })
  const gyp = join(root, 'node_modules/.bin/node-gyp')
  const built =
    run('npx', ['--yes', 'prebuild-install@7.1.3', '--runtime', 'electron', '--target', electron.version, '--arch', process.arch]) ||
    run(existsSync(gyp) ? gyp : 'npx', [
      ...(existsSync(gyp) ? [] : ['--yes', 'node-gyp@11.2.0']),
      'rebuild',
      '--release',
      `--target=${electron.version}`,
      `--arch=${process.arch}`,
      '--dist-url=https://electronjs.org/headers',
      '--runtime=electron',
    ])
  const output = join(copy, 'build/Release/better_sqlite3.node')
  if (!built || !existsSync(output)) throw new Error('the build failed (network needed: Electron headers or a prebuilt binary)')
  if (!readFileSync(output).includes(`node_register_module_v${abi}`)) {
    throw new Error(`the module was not built for Electron's ABI ${abi} (Node's headers leaked in?); nothing was installed`)
  }
  mkdirSync(dirname(target), { recursive: true })
  copyFileSync(output, target)
  console.log(`rebuild:electron: wrote ${target} (Electron ${electron.version}, ABI ${abi})`)
} catch (error) {
  console.error(`rebuild:electron: ${(error as Error).message}`)
  process.exitCode = 1
} finally {
  rmSync(work, { recursive: true, force: true })
}

// @ts-check
/**
 * Builds the app (electron-vite: the pages, the headless shell's entry, the Electron shell) when the build is
 * missing or older than its sources, so `npm run headless` serves current pages from current code. Quiet
 * when nothing changed. Plain JavaScript, so checking costs a few milliseconds and no TypeScript compiler.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** What the build makes that a start needs. */
const OUTPUTS = [
  'out/renderer/index.html',
  'out/renderer/reader.html',
  'out/main/headless.js',
  'out/main/index.js',
  'out/main/read-worker.js',
]
/** What it is built from (tests are not part of it). */
const SOURCES = ['src', 'migrations', 'electron.vite.config.ts', 'scripts/service-worker.ts', 'package.json']

/** @param {string} path */
function newest(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return path.endsWith('.test.ts') ? 0 : stat.mtimeMs
  let latest = 0
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

/** Whether every output exists and is newer than every source. */
export function buildIsCurrent() {
  const built = OUTPUTS.map((f) => join(root, f))
  if (!built.every((f) => existsSync(f))) return false
  const builtAt = Math.min(...built.map((f) => statSync(f).mtimeMs))
  return SOURCES.every((s) => !existsSync(join(root, s)) || newest(join(root, s)) <= builtAt)
}

/** Builds unless current; returns the build's exit status (0 when nothing was needed). */
export function ensureBuilt() {
  if (buildIsCurrent()) return 0
  // A first build takes half a minute on a small machine: say so, and say when it is done (docs/adr/0076).
  console.log('building the app (electron-vite build): once after an install or an update, up to a minute…')
  const startedAt = Date.now()
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      // The build needs none of the app's secrets (docs/adr/0088-no-secrets-in-child-processes.md).
      env: Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'MB_ADMIN_TOKEN')),
    },
  )
  if (result.status === 0) console.log(`built in ${Math.round((Date.now() - startedAt) / 1000)} s.`)
  return result.status ?? 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(ensureBuilt())

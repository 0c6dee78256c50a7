/**
 * Builds the renderer (the owner's window and the Readers' page) when the build is missing or older than
 * its sources, so `npm run headless` serves current pages. Quiet when nothing changed.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function newest(dir: string): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

export function rendererIsCurrent(): boolean {
  const built = ['index.html', 'reader.html'].map((f) => join(root, 'out/renderer', f))
  if (!built.every(existsSync)) return false
  const builtAt = Math.min(...built.map((f) => statSync(f).mtimeMs))
  return newest(join(root, 'src/renderer')) <= builtAt && newest(join(root, 'src/shared')) <= builtAt
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && !rendererIsCurrent()) {
  console.log('building the pages (electron-vite build)…')
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  )
  process.exit(result.status ?? 1)
}

/**
 * Finds the Electron binary by its files, never by `require('electron')`, which would try to download it
 * (electron >= 42 fetches the binary lazily on first require).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export function electronBinaryPath(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const pkg = join(root, 'node_modules', 'electron')
  const pathFile = join(pkg, 'path.txt')
  if (!existsSync(pathFile)) return null
  const relative = readFileSync(pathFile, 'utf8').trim()
  if (!relative) return null
  const dist = env.ELECTRON_OVERRIDE_DIST_PATH || join(pkg, 'dist')
  const binary = join(dist, relative)
  return existsSync(binary) ? binary : null
}

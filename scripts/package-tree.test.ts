/**
 * The production tree holds what the main process loads at run time, nothing the build already bundled
 * (docs/adr/0097-the-renderers-libraries-are-build-inputs.md): a library only src/renderer imports is a
 * devDependency, and no build tool is left in what `npm ci --omit=dev` installs (the tree electron-builder packs).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, any>

/** The packages the files under a folder import (`@scope/name` or `name`, without a subpath). */
function packagesImported(folder: string): Set<string> {
  const found = new Set<string>()
  for (const entry of readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ts|vue)$/.test(entry.name) || /\.test\.ts$/.test(entry.name)) continue
    const source = readFileSync(join(entry.parentPath, entry.name), 'utf8')
    for (const m of source.matchAll(/(?:from\s+|import\s*\(?\s*)['"]([^'".][^'"]*)['"]/g)) {
      const parts = m[1]!.split('/')
      found.add(m[1]!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!)
    }
  }
  return found
}

describe('the production tree', () => {
  it("holds none of the renderer's libraries: the build bundles them", () => {
    const dependencies = Object.keys(read('package.json').dependencies)
    const renderer = packagesImported('src/renderer')
    expect(renderer).toContain('vue-router')
    expect(dependencies.filter((name) => renderer.has(name))).toEqual([])
  })

  it('holds no build tool', () => {
    const packages = read('package-lock.json').packages as Record<string, { dev?: boolean }>
    const tools = ['vite', 'rolldown', 'esbuild', 'lightningcss', 'typescript', '@vue/compiler-sfc', '@babel/parser']
    const inProduction = tools.filter((name) => packages[`node_modules/${name}`] && !packages[`node_modules/${name}`]!.dev)
    expect(inProduction).toEqual([])
  })
})

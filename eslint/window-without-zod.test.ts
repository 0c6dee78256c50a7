/**
 * The owner's window and the Readers' page never load zod (docs/adr/0098): what the pages need at run time comes
 * from plain modules, and the schemas reach the renderer as types only. Followed here through the source, every
 * runtime import (static or lazy) from the two entries, so a page that imports a value from a schema module fails.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')

/** Runtime imports of a source: `import type …` and `export type …` are erased by the build, so they are left out. */
function runtimeSpecifiers(source: string): string[] {
  const statements = source.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^;'"]*?\sfrom\s*)?['"]([^'"]+)['"]/gm)
  const lazy = source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)
  return [...statements, ...lazy].map((m) => m[1]!)
}

function resolveFile(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  return [base, `${base}.ts`, join(base, 'index.ts')].find((path) => /\.(ts|vue)$/.test(path) && existsSync(path))
}

/** The files and the packages reached at run time from some entries (paths from the repository root). */
function reached(...entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (path: string) => {
    const file = relative(root, path)
    if (files.has(file)) return
    files.add(file)
    for (const specifier of runtimeSpecifiers(readFileSync(path, 'utf8'))) {
      if (!specifier.startsWith('.')) packages.add(specifier)
      else {
        const target = resolveFile(path, specifier)
        if (target) visit(target)
      }
    }
  }
  for (const entry of entries) visit(join(root, entry))
  return { files, packages }
}

describe('the renderer without zod', () => {
  it('reaches every page of the window, and no module that imports zod', () => {
    const { files, packages } = reached('src/renderer/admin/main.ts', 'src/renderer/reader/main.ts')
    expect(files).toContain('src/renderer/admin/pages/SettingsPage.vue')
    expect(files).toContain('src/renderer/admin/pages/SeriesPage.vue')
    expect(files).toContain('src/shared/settings-defaults.ts')
    expect([...packages].filter((name) => name === 'zod' || name.startsWith('zod/'))).toEqual([])
  })

  it('would see zod where a module imports it at run time', () => {
    expect(reached('src/main/store/settings.ts').packages).toContain('zod')
  })

  it('leaves out imports of types only', () => {
    const source = "import type { A } from './a'\nexport type { B } from './b'\nimport { c, type D } from './c'\nimport './e.css'"
    expect(runtimeSpecifiers(source)).toEqual(['./c', './e.css'])
  })
})

/**
 * The layer rule catches each violation it exists for, and the tree has none (docs/adr/0010-layers-enforced-by-lint.md).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')
const eslint = new ESLint({ cwd: root })

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) })
  return result!.messages.filter((m) => m.ruleId === 'layers/boundaries').map((m) => m.message)
}

describe('layer rule', () => {
  it.each([
    ['src/main/store/series.ts', "import { app } from 'electron'", 'electron-only-in-shell'],
    ['src/shared/format.ts', "import { app } from 'electron'", 'shared-is-pure'],
    ['src/shared/format.ts', "import { readFileSync } from 'node:fs'", 'shared-is-pure'],
    ['src/shared/format.ts', "import { ref } from 'vue'", 'shared-is-pure'],
    ['src/shared/format.ts', "import { openStore } from '../main/store/database'", 'shared-is-pure'],
    ['src/renderer/admin/api.ts', "import { openStore } from '../../main/store/database'", 'renderer-not-main'],
    ['src/main/store/series.ts', "import { startApp } from '../app'", 'store-is-the-bottom'],
    ['src/main/store/series.ts', "import type { SeriesRowView } from '../../shared/admin-api'", 'store-is-the-bottom'],
    ['src/main/store/series.ts', "import { runPass } from '../lanes/pass'", 'store-is-the-bottom'],
    ['src/main/app.ts', "import { startHeadlessShell } from './headless/shell'", 'core-not-shells'],
    ['src/main/lanes/pass.ts', "import { registerAdminIpc } from '../electron/ipc'", 'core-not-shells'],
    ['src/main/electron/policy/tray.ts', "import { Tray } from 'electron'", 'electron-only-in-shell'],
    ['src/main/lanes/pass.ts', "import { bookmarkByUrl } from '../use-cases/acquire'", 'rooms-point-down'],
    ['src/main/use-cases/site-moves.ts', "import type { Core } from '../core'", 'rooms-point-down'],
    ['src/main/sync/routes.ts', "import { startDemo } from '../demo/demo'", 'rooms-point-down'],
    ['src/main/notify/notifier.ts', "import { expectedRelease } from '../lanes/expected-release'", 'rooms-point-down'],
    ['src/main/admin/admin-scope.ts', "import type { SyncOptions } from '../sync/api'", 'rooms-point-down'],
    ['src/main/sync/routes.ts', "import { createAdmin } from '../admin/admin'", 'rooms-point-down'],
    ['src/main/reads/big-reads.ts', "import type { Core } from '../core'", 'rooms-point-down'],
  ])('%s: `%s` breaks %s', async (file, code, rule) => {
    const errors = await layerErrors(file, `${code}\nexport const x = 1\n`)
    expect(errors.join('\n')).toContain(`layer rule ${rule}:`)
  })

  it.each([
    ['src/main/electron/tray.ts', "import { Tray } from 'electron'"],
    ['src/preload/index.ts', "import { contextBridge } from 'electron'"],
    ['src/main/store/series.ts', "import type { SeriesKey } from './schema'"],
    ['src/main/store/series.ts', "import { AppError } from '../../shared/errors'"],
    ['src/main/headless/shell.ts', "import { startApp } from '../app'"],
    ['src/renderer/admin/api.ts', "import { ADMIN_METHODS } from '../../shared/admin-methods'"],
    ['src/main/admin/admin.ts', "import type { Core } from '../core'"],
    ['src/main/lanes/pass.ts', "import { clampChapter } from './decisions'"],
    ['src/main/sync/routes.ts', "import { SIGN_IN_CODE_PATTERN } from '../access/sign-in-codes'"],
    ['src/main/admin/admin-scope.ts', "import type { BigReads } from '../reads/big-reads'"],
    ['src/main/sync/routes.ts', "import { presentAll } from '../reads/present'"],
    ['src/main/simulation/simulate.ts', "import { fakeClock } from '../testing/clock'"],
  ])('%s: `%s` is allowed', async (file, code) => {
    expect(await layerErrors(file, `${code}\nexport const x = 1\n`)).toEqual([])
  })
})

/** Relative imports of every TypeScript file under a folder, as a graph of repository paths. */
function importGraph(folder: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
        const source = readFileSync(path, 'utf8')
        const targets = [...source.matchAll(/^(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) =>
          relative(root, resolve(dirname(path), m[1]!)),
        )
        graph.set(relative(root, path).replace(/\.ts$/, ''), targets)
      }
    }
  }
  walk(join(root, folder))
  return graph
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (node: string) => {
    if (state.get(node) === 'done') return
    if (state.get(node) === 'open') {
      found.push([...stack.slice(stack.indexOf(node)), node])
      return
    }
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) if (graph.has(next)) visit(next)
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of graph.keys()) visit(node)
  return found
}

describe('import cycles', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a']],
    ])
    expect(cycles(graph)).toEqual([['a', 'b', 'a']])
  })

  it('src/ has none (the store included)', () => {
    expect(cycles(importGraph('src'))).toEqual([])
  })
})

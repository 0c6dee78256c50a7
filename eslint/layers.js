/**
 * The layer rule: which folder of `src/` may import what (docs/adr/0010-layers-enforced-by-lint.md).
 * Zones are folder prefixes, so a relative import is resolved as a path only — no module resolution.
 */
import { builtinModules } from 'node:module'
import { dirname, relative, resolve } from 'node:path'

const NODE_BUILTINS = new Set(builtinModules)

/** A Node built-in module, with or without the `node:` prefix. */
function isNodeBuiltin(specifier) {
  return specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0])
}

/**
 * The rooms of src/main, lowest first (docs/adr/0178-rooms-that-point-down.md, docs/adr/0195-one-descriptor-per-family-and-the-reads-room.md): a folder, or a file at the top of
 * src/main. A room imports only from rooms below it — never from a room above, nor from another room of its own
 * rank — so a newcomer finds a service below everything that uses it. Tests and `testing/` are not rooms.
 */
export const ROOMS = [
  ['clock.ts', 'log.ts', 'paths.ts', 'worker-thread.ts'],
  ['store', 'server'],
  ['sites', 'access'],
  ['fetch', 'library'],
  ['lanes', 'notify'],
  ['use-cases', 'backup-schedule.ts', 'restore-in-app.ts', 'storage-watch.ts'],
  ['reads'],
  ['core.ts'],
  ['sync', 'admin', 'demo'],
  ['cli', 'app.ts', 'shell-args.ts'],
  ['electron', 'headless', 'simulation'],
]

/** The room of a path under src/main (a folder, or a top-level file), or undefined outside the rooms. */
export function roomOf(path) {
  const match = /^src\/main\/([^/]+)(\/)?/.exec(path)
  if (!match) return undefined
  const name = match[2] ? match[1] : /\.ts$/.test(match[1]) ? match[1] : `${match[1]}.ts`
  const rank = ROOMS.findIndex((rooms) => rooms.includes(name))
  return rank === -1 ? undefined : { name, rank }
}

/**
 * The rules, in words and as predicates over (the importing file, what it imports). `file` and a relative
 * import's `target` are paths from the repository root with `/` separators; `pkg` is a bare specifier.
 */
export const LAYER_RULES = [
  {
    name: 'electron-only-in-shell',
    message: 'only src/main/electron/ (the Electron glue) and src/preload/ import "electron"',
    applies: (file) => file.startsWith('src/') && !/^src\/main\/electron\/(?!policy\/)/.test(file) && !file.startsWith('src/preload/'),
    forbids: ({ pkg }) => pkg === 'electron' || pkg?.startsWith('electron/'),
  },
  {
    name: 'shared-is-pure',
    message: 'src/shared/ runs on both sides: no Node module, Electron, Vue, and nothing from src/main or src/renderer',
    applies: (file) => file.startsWith('src/shared/'),
    forbids: ({ pkg, target }) =>
      (pkg !== undefined && (isNodeBuiltin(pkg) || /^(electron|vue|vue-router|pinia)(\/|$)/.test(pkg))) ||
      (target !== undefined && /^src\/(main|renderer|preload)\//.test(target)),
  },
  {
    name: 'renderer-not-main',
    message: 'src/renderer/ reaches the core only through the admin contract: nothing from src/main, no Node module',
    applies: (file) => file.startsWith('src/renderer/'),
    forbids: ({ pkg, target }) => (pkg !== undefined && isNodeBuiltin(pkg)) || (target !== undefined && target.startsWith('src/main/')),
  },
  {
    name: 'store-is-the-bottom',
    message: 'src/main/store/ imports nothing above it: only store/, the pure parts of src/shared/ and libraries',
    applies: (file) => file.startsWith('src/main/store/') && !file.includes('.test.'),
    forbids: ({ target }) =>
      target !== undefined &&
      ((target.startsWith('src/main/') && !target.startsWith('src/main/store/')) ||
        target.startsWith('src/shared/admin-') ||
        target.startsWith('src/renderer/')),
  },
  {
    name: 'core-not-shells',
    message: 'the core never imports a shell: src/main/electron/ and src/main/headless/ are imported by nothing in the core',
    applies: (file) =>
      file.startsWith('src/main/') &&
      !file.startsWith('src/main/electron/') &&
      !file.startsWith('src/main/headless/') &&
      !file.includes('.test.') &&
      !file.startsWith('src/main/testing/'),
    forbids: ({ target }) => target !== undefined && (target.startsWith('src/main/electron/') || target.startsWith('src/main/headless/')),
  },
  {
    name: 'rooms-point-down',
    message: 'a room of src/main imports only from rooms below it (eslint/layers.js ROOMS): not from one above, nor a neighbour',
    applies: (file) => file.startsWith('src/main/') && !file.includes('.test.') && !file.startsWith('src/main/testing/'),
    forbids: ({ file, target }) => {
      const from = roomOf(file)
      const to = target === undefined ? undefined : roomOf(target)
      return from !== undefined && to !== undefined && from.name !== to.name && to.rank >= from.rank
    },
  },
]

/** The rules an import breaks, for a file (a path from the repository root). */
export function brokenLayerRules(file, specifier, root) {
  const relativeFile = file.split('\\').join('/')
  let target
  let pkg
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    target = relative(root, resolve(root, dirname(relativeFile), specifier))
      .split('\\')
      .join('/')
  } else {
    pkg = specifier
  }
  return LAYER_RULES.filter((rule) => rule.applies(relativeFile) && rule.forbids({ file: relativeFile, pkg, target }))
}

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps each folder of src/ to the imports its layer allows' },
    schema: [],
  },
  create(context) {
    const root = context.cwd
    const file = relative(root, context.filename).split('\\').join('/')
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return
      for (const rule of brokenLayerRules(file, source.value, root)) {
        context.report({ node, message: `layer rule ${rule.name}: ${rule.message} (imports "${source.value}")` })
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    }
  },
}

export default { rules: { boundaries } }

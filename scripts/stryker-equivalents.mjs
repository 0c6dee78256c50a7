/**
 * A Stryker ignorer (docs/mutation.md#equivalent-mutants, ADR 0105): the equivalent mutants listed in
 * `mutation-equivalents.mjs` (the configuration's `equivalentMutants`) are not run. Each entry names a file, the
 * source text of one expression or statement in it (`code`; runs of white space read as one space, so a reflow
 * does not lose it), every mutant of that node (`Mutator: replacement`) and why no input can observe them. A text
 * that occurs more than once in the file is told apart by `within`: a larger text, occurring once, that holds it.
 * The record lives in the configuration instead of a comment in the code, and follows the text, not a line.
 *
 * Stryker's ignorers skip a whole node and all it holds, not one mutator or one mutant: so an entry must name
 * every mutant of its node, and `scripts/stryker-equivalents.test.ts` instruments each listed file and checks that
 * what the list adds to the ignored mutants is exactly the listed ones, nothing else.
 */
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin'

/** Runs of white space as one space: how `code` and `within` are compared. */
export function squeeze(text) {
  return text.replace(/\s+/g, ' ').trim()
}

/** Whether the file Stryker names is the entry's (a path relative to the project, `/` separators). */
export function isFileOf(entry, fileName) {
  const name = fileName.replaceAll('\\', '/')
  return name === entry.file || name.endsWith(`/${entry.file}`)
}

export class EquivalentsIgnorer {
  static inject = [commonTokens.options]

  #list
  #file = undefined
  /** The current file's entries, each with the range of its `within` once that node is entered. */
  #entries = []

  constructor(options) {
    this.#list = (options.equivalentMutants ?? []).map((entry) => ({
      ...entry,
      squeezed: squeeze(entry.code),
      squeezedWithin: entry.within === undefined ? undefined : squeeze(entry.within),
    }))
  }

  shouldIgnore(path) {
    const { node } = path
    const file = path.hub?.file
    if (!file || typeof node.start !== 'number' || typeof node.end !== 'number') return undefined
    if (file !== this.#file) {
      this.#file = file
      const name = String(file.opts?.filename ?? '')
      this.#entries = this.#list.filter((entry) => isFileOf(entry, name)).map((entry) => ({ entry, range: undefined }))
    }
    for (const held of this.#entries) {
      const { entry } = held
      if (entry.squeezedWithin !== undefined && held.range === undefined) {
        if (textIs(file.code, node, entry.squeezedWithin)) held.range = [node.start, node.end]
        continue
      }
      if (held.range && (node.start < held.range[0] || node.end > held.range[1])) continue
      if (textIs(file.code, node, entry.squeezed)) return `equivalent: ${entry.why}`
    }
    return undefined
  }
}

/** Whether a node's source text is `squeezed` (white space squeezed): squeezing only shortens a text. */
function textIs(code, node, squeezed) {
  if (node.end - node.start < squeezed.length) return false
  if (code[node.start] !== squeezed[0]) return false
  return squeeze(code.slice(node.start, node.end)) === squeezed
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Ignore, 'equivalent-mutants', EquivalentsIgnorer)]

/** `equivalentMutants` is an option of this plugin, so Stryker validates it instead of warning of an unknown one. */
export const strykerValidationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    equivalentMutants: {
      description: 'Equivalent mutants not to run: file, source text, mutants, why (docs/mutation.md#equivalent-mutants).',
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['file', 'code', 'mutants', 'why'],
        properties: {
          file: { type: 'string', minLength: 1 },
          code: { type: 'string', minLength: 1 },
          within: { type: 'string', minLength: 1 },
          mutants: { type: 'array', items: { type: 'string' }, minItems: 1 },
          why: { type: 'string', minLength: 1 },
        },
      },
    },
  },
}

/**
 * A Stryker ignorer (docs/mutation.md#log-lines): a statement that only writes a log line —
 * `log.warn(…)`, `ctx.log.info(…)`, `deps.log.error(…)`, `deps.log?.info(…)` — is not mutated. Its words and fields are for the
 * person reading the log, not behaviour a test should pin; every other statement around it is still mutated.
 */
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin'

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal'])

const MEMBERS = new Set(['MemberExpression', 'OptionalMemberExpression'])
const CALLS = new Set(['CallExpression', 'OptionalCallExpression'])

/** `log` itself, or `<anything>.log` (`<anything>?.log`). */
function isLogger(node) {
  if (node.type === 'Identifier') return node.name === 'log'
  return MEMBERS.has(node.type) && !node.computed && node.property.type === 'Identifier' && node.property.name === 'log'
}

class LogIgnorer {
  shouldIgnore(path) {
    if (!path.isExpressionStatement()) return undefined
    const call = path.node.expression
    if (!CALLS.has(call.type) || !MEMBERS.has(call.callee.type)) return undefined
    const { object, property, computed } = call.callee
    if (computed || property.type !== 'Identifier' || !LEVELS.has(property.name) || !isLogger(object)) return undefined
    return 'a log line: its words are for people, not behaviour (docs/mutation.md#log-lines)'
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Ignore, 'log-lines', LogIgnorer)]

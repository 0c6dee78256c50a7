/**
 * The log-line ignorer for mutation testing: which statements it keeps from being mutated. Parsed by the same
 * parser Stryker's instrumenter uses.
 */
import { parse } from '@babel/parser'
import { describe, expect, it } from 'vitest'
import { strykerPlugins } from './stryker-log-ignorer.mjs'

const ignorer = new (
  strykerPlugins[0] as unknown as { injectableClass: new () => { shouldIgnore(path: unknown): string | undefined } }
).injectableClass()

/** Whether the ignorer keeps the first statement of `source` from being mutated. */
function ignored(source: string): boolean {
  const node = parse(source, { plugins: ['typescript'] }).program.body[0]!
  return ignorer.shouldIgnore({ node, isExpressionStatement: () => node.type === 'ExpressionStatement' }) !== undefined
}

describe('the log-line ignorer', () => {
  it.each([
    "log.warn({ site }, 'lane: x')",
    "ctx.log.info('x')",
    "deps.log.error({ err }, 'x')",
    "deps.log?.info('x')",
    "this.deps.log?.error({ err }, 'x')",
  ])('a log line is not mutated: %s', (source) => {
    expect(ignored(source)).toBe(true)
  })

  it.each([
    "console.log('x')",
    'log.child({ site })',
    "log['warn']('x')",
    "deps.logger.info('x')",
    "const x = log.info('x')",
    'recordCheck(db, { log })',
    "deps.log?.[level]('x')",
  ])('anything else is: %s', (source) => {
    expect(ignored(source)).toBe(false)
  })
})

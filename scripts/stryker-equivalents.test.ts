/**
 * The equivalent-mutant list of the mutation configuration (docs/mutation.md#equivalent-mutants): Stryker's own
 * instrumenter mutates each listed file with the log-line ignorer alone and with the list's ignorer beside it, and
 * what the list adds must be exactly the mutants it names: each entry alone ignores exactly the mutants it lists
 * (mutator and replacement; a text found twice would ignore its mutants twice), and the whole list nothing more.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Instrumenter } from '@stryker-mutator/instrumenter'
import { describe, expect, it } from 'vitest'
import { equivalentMutants as list } from '../mutation-equivalents.mjs'
import { strykerPlugins as logPlugins } from './stryker-log-ignorer.mjs'
import { EquivalentsIgnorer, type EquivalentMutant as Entry } from './stryker-equivalents.mjs'

interface Ignorer {
  shouldIgnore(path: unknown): string | undefined
}
interface Found {
  mutatorName: string
  replacement?: string
  status?: string
  statusReason?: string
  location: { start: { line: number; column: number }; end: { line: number; column: number } }
}

const logIgnorer = new (logPlugins[0] as unknown as { injectableClass: new () => Ignorer }).injectableClass()
const quiet = () => undefined
const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet, trace: quiet, fatal: quiet, isDebugEnabled: () => false }

/** The mutants of one source text, `ignorers` applied. */
async function mutants(name: string, content: string, ignorers: Ignorer[]): Promise<Found[]> {
  const instrumenter = new Instrumenter(logger as never)
  const result = await instrumenter.instrument([{ name, content, mutate: true }], {
    plugins: null,
    excludedMutations: [],
    ignorers: ignorers as never,
  })
  return result.mutants as unknown as Found[]
}

/** What the list adds to the ignored mutants of a source text: each with its offsets in the text. */
async function addedByList(name: string, content: string, entries: Entry[]) {
  const key = (m: Found) =>
    `${m.mutatorName}@${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column}`
  const before = new Set((await mutants(name, content, [logIgnorer])).filter((m) => m.status === 'Ignored').map(key))
  const equivalents = new EquivalentsIgnorer({ equivalentMutants: entries })
  const after = await mutants(name, content, [logIgnorer, equivalents])
  const starts = lineStarts(content)
  return after
    .filter((m) => m.status === 'Ignored' && !before.has(key(m)))
    .map((m) => ({
      mutant: `${m.mutatorName}: ${m.replacement ?? ''}`,
      start: starts[m.location.start.line]! + m.location.start.column,
      end: starts[m.location.end.line]! + m.location.end.column,
    }))
}

function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1)
  return starts
}

describe('the equivalent-mutant list', () => {
  const files = [...new Set(list.map((entry) => entry.file))]

  it.each(files)('ignores exactly the listed mutants of %s', async (file) => {
    const source = readFileSync(resolve(file), 'utf8')
    const entries = list.filter((entry) => entry.file === file)
    const each = []
    for (const entry of entries) {
      const added = await addedByList(resolve(file), source, [entry])
      expect(added.map((m) => m.mutant).sort(), `${file}: ${entry.code}`).toEqual([...entry.mutants].sort())
      each.push(...added)
    }
    const all = await addedByList(resolve(file), source, entries)
    const key = (m: { mutant: string; start: number }) => `${m.start} ${m.mutant}`
    expect(all.map(key).sort()).toEqual(each.map(key).sort())
  })

  it('every entry says why', () => {
    for (const entry of list) expect(entry.why.length, entry.code).toBeGreaterThan(20)
  })
})

describe('the equivalent-mutant ignorer', () => {
  const source = [
    'export function f(a: number, b: number): number {',
    '  if (a > 0) return b',
    '  const c = a > 0 ? 1 : 2',
    "  return c + (b ?? 'x'.length)",
    '}',
    'export const g = (a: number) => (a > 0 ? 1 : 2)',
    '',
  ].join('\n')
  const entry = (code: string, within?: string): Entry => ({ file: 'src/f.ts', code, within, mutants: [], why: 'a test' })

  it('ignores the node with the text, and only in the named file', async () => {
    const added = await addedByList('/p/src/f.ts', source, [entry('a > 0', 'if (a > 0) return b')])
    expect(added.map((m) => [m.mutant, source.slice(m.start, m.end)])).toEqual([
      ['ConditionalExpression: true', 'a > 0'],
      ['ConditionalExpression: false', 'a > 0'],
      ['EqualityOperator: a >= 0', 'a > 0'],
      ['EqualityOperator: a <= 0', 'a > 0'],
    ])
    expect(added.every((m) => m.start === source.indexOf('a > 0'))).toBe(true)
    expect(await addedByList('/p/src/other.ts', source, [entry('a > 0', 'if (a > 0) return b')])).toEqual([])
  })

  it('reads white space as one space, and nothing else as the text', async () => {
    expect(await addedByList('/p/src/f.ts', source, [entry("b  ??\n 'x'.length")])).not.toEqual([])
    expect(await addedByList('/p/src/f.ts', source, [entry("b ?? 'x'")])).toEqual([])
    expect(await addedByList('/p/src/f.ts', source, [entry('a>0', 'if (a > 0) return b')])).toEqual([])
  })

  it('without `within`, ignores each node with the text', async () => {
    const added = await addedByList('/p/src/f.ts', source, [entry('a > 0 ? 1 : 2')])
    expect(new Set(added.map((m) => source.slice(0, m.start).split('\n').length))).toEqual(new Set([3, 6]))
  })
})

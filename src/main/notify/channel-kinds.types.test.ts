/**
 * Adding a notification channel kind is guided by the compiler to every place that must know it (issue 45): the
 * test adds a fourth kind to `CHANNEL_KINDS` in memory, type-checks the descriptors' homes with the project's own
 * compiler options, and expects an error in each — a table keyed by the kind that is not a
 * `Record<ChannelKind, …>`, or an `if` chain with a last branch for "the rest", would compile and fail here.
 */
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const KINDS_FILE = join(ROOT, 'src/shared/channel-kinds.ts')
/** Every place a kind has a descriptor or a schema of its own. */
const HOMES = [
  'src/shared/channel-kinds.ts',
  'src/shared/channel-inputs.ts',
  'src/shared/notify-schemas.ts',
  'src/main/notify/channels.ts',
  'src/main/notify/settings.ts',
]

/** Parsed files shared by both compilations: only the edited file is parsed twice. */
const parsed = new Map<string, ts.SourceFile>()

function filesWithErrors(edit: (source: string) => string): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.node.json'), (f) => ts.sys.readFile(f))
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
  const host = ts.createCompilerHost({ ...options, noEmit: true })
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (file, language) => {
    if (file === KINDS_FILE) return ts.createSourceFile(file, edit(ts.sys.readFile(file) ?? ''), language)
    const known = parsed.get(file) ?? getSourceFile(file, language)
    if (known) parsed.set(file, known)
    return known
  }
  const program = ts.createProgram({ rootNames: HOMES.map((f) => join(ROOT, f)), options: { ...options, noEmit: true }, host })
  const files = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error && d.file)
    .map((d) => relative(ROOT, d.file!.fileName))
  return [...new Set(files)].sort()
}

const withFourthKind = (source: string) => {
  const edited = source.replace("['webpush', 'ntfy', 'webhook'] as const", "['webpush', 'ntfy', 'webhook', 'matrix'] as const")
  if (edited === source) throw new Error('CHANNEL_KINDS is no longer written as this test expects: update the test with it')
  return edited
}

describe('a new channel kind', () => {
  it('compiles as it stands', () => {
    expect(filesWithErrors((source) => source)).toEqual([])
  }, 120_000)

  it('is an error in every descriptor home until each has its entry', () => {
    expect(filesWithErrors(withFourthKind)).toEqual([...HOMES].sort())
  }, 120_000)
})

/**
 * Adding a Site family is guided by the compiler to every place that must know it (issue 45): the test adds a
 * key to `FAMILY_KEYS` in memory, type-checks the families' homes with the project's own compiler options, and
 * expects an error in each — a table keyed by the family that is not a `Record<FamilyKey, …>` (or, for searches
 * and feeds, a `Record` of the families whose descriptor says so) would compile and fail here.
 */
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const DESCRIPTORS_FILE = join(ROOT, 'src/shared/site-families.ts')
/** Every place a family has an entry of its own, whatever its descriptor says. */
const HOMES = ['src/shared/site-families.ts', 'src/main/sites/families/index.ts']
/** The places a family that searches and has a feed has an entry too. */
const SEARCH_AND_FEED_HOMES = ['src/main/sites/families/search.ts', 'src/main/sites/feeds.ts']

/** Parsed files shared by the compilations: only the edited file is parsed again. */
const parsed = new Map<string, ts.SourceFile>()

function filesWithErrors(edit: (source: string) => string): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.node.json'), (f) => ts.sys.readFile(f))
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
  const host = ts.createCompilerHost({ ...options, noEmit: true })
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (file, language) => {
    if (file === DESCRIPTORS_FILE) return ts.createSourceFile(file, edit(ts.sys.readFile(file) ?? ''), language)
    const known = parsed.get(file) ?? getSourceFile(file, language)
    if (known) parsed.set(file, known)
    return known
  }
  const roots = [...HOMES, ...SEARCH_AND_FEED_HOMES].map((f) => join(ROOT, f))
  const program = ts.createProgram({ rootNames: roots, options: { ...options, noEmit: true }, host })
  const files = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error && d.file)
    .map((d) => relative(ROOT, d.file!.fileName))
  return [...new Set(files)].sort()
}

function replaced(source: string, from: string, to: string): string {
  const edited = source.replace(from, to)
  if (edited === source) throw new Error(`site-families.ts no longer has "${from}" as this test expects: update the test with it`)
  return edited
}

/** A new key, and nothing else. */
const withNewKey = (source: string) => replaced(source, '\n] as const', "\n  'newfamily',\n] as const")

/** A new key with its descriptor, one that searches and has a feed. */
const withNewSearchingFamily = (source: string) =>
  replaced(
    withNewKey(source),
    '} as const satisfies Record<FamilyKey, FamilyDescriptor>',
    "  newfamily: { name: 'New', searches: true, feed: true, recognisedBy: 'api', readsChapterUrls: false, themes: [] },\n} as const satisfies Record<FamilyKey, FamilyDescriptor>",
  )

describe('a new Site family', () => {
  it('compiles as it stands', () => {
    expect(filesWithErrors((source) => source)).toEqual([])
  }, 120_000)

  it('is an error where its descriptor and its adapter go, until each has its entry', () => {
    expect(filesWithErrors(withNewKey)).toEqual([...HOMES].sort())
  }, 120_000)

  it('with a descriptor that searches and has a feed, is an error where its search and its feed go', () => {
    expect(filesWithErrors(withNewSearchingFamily)).toEqual(['src/main/sites/families/index.ts', ...SEARCH_AND_FEED_HOMES].sort())
  }, 120_000)
})

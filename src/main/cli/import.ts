/**
 * `npm run import -- FILE [--reader NAME] [--data DIR] [--dry-run] [--map SOURCE_ID=SITE|URL …]`
 * Imports a browser's bookmarks file, a list of URLs or CSV, a Mihon/Tachiyomi backup, or an export document
 * for a Reader, printing the same preview the window shows, then writing it (unless --dry-run). An export
 * document without --reader restores each Reader it names. Sends no request: the Lanes read the new Series.
 */
import { join, resolve } from 'node:path'
import type { ImportPreviewView, ImportResultView } from '../../shared/admin-api'
import { IMPORT_FORMAT_NAMES, IMPORT_SKIP_WORDS, sitesToAddWords, sourceSummaryWords, unknownHostsWords } from '../../shared/library'
import { readImportFile, readLibrary } from '../library/read'
import { BUILT_IN_SITES } from '../sites/builtin'
import { createRegistry } from '../sites/registry'
import type { Site } from '../sites/site'
import { loadSites } from '../sites/sites-file'
import { openStore, STORE_FILE } from '../store/database'
import { addPlannedSites, applyPlan, importReader, mapSource, planLibrary, previewPlan } from '../use-cases/library-import'
import { findReader } from '../use-cases/reader-tokens'
import { dataDirOf, readCommandLine, type Output } from './help'

const USAGE = 'usage: npm run import -- FILE [--reader NAME] [--data DIR] [--dry-run] [--map SOURCE_ID=SITE|URL …]'

const HELP = [
  'Usage: npm run import -- FILE [--reader NAME] [--data DIR] [--dry-run] [--map SOURCE_ID=SITE|URL …]',
  '',
  "Imports a browser's bookmarks file, a list of URLs or a CSV, a Mihon/Tachiyomi backup (.tachibk, .proto.gz, or an old Tachiyomi .json) or",
  'an export of this app: prints the preview per Site, then writes it in one transaction. Sends no request.',
  '  FILE                     the file to read',
  '  --reader NAME            the Reader the bookmarks go to (an export document without it restores each Reader it names)',
  '  --data DIR               the data directory (default: $XDG_DATA_HOME/manga-bookmark, else ~/.local/share/manga-bookmark)',
  '  --dry-run                print the preview and write nothing',
  '  --map SOURCE_ID=SITE|URL map a backup source with no Site to a Site key, or to one URL of the source (repeatable)',
].join('\n')

export interface ImportCommandOptions {
  env?: NodeJS.ProcessEnv
  now?: () => number
  /** The Sites instead of the built-in ones (tests); sites.json is still read over them. */
  sites?: readonly Site[]
}

/** Runs one import; returns the process exit code. */
export async function runImportCommand(argv: string[], io: Output, options: ImportCommandOptions = {}): Promise<number> {
  const parsed = readCommandLine(argv, io, {
    name: 'import',
    options: {
      reader: { type: 'string' },
      data: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      map: { type: 'string', multiple: true },
    },
    positionals: true,
    help: HELP,
    usage: USAGE,
  })
  if (typeof parsed === 'number') return parsed
  const [file, ...extra] = parsed.positionals
  if (!file || extra.length) {
    io.err(USAGE)
    return 2
  }
  const maps: Array<{ sourceId: string; site?: string; url?: string }> = []
  for (const m of parsed.values.map ?? []) {
    const match = /^(\d{1,20})=(.+)$/.exec(m)
    if (!match) {
      io.err(`import: --map ${m}: give SOURCE_ID=SITE or SOURCE_ID=URL\n${USAGE}`)
      return 2
    }
    const [, sourceId, to] = match as unknown as [string, string, string]
    maps.push(/^https?:\/\//i.test(to) ? { sourceId, url: to } : { sourceId, site: to })
  }

  const now = options.now ?? Date.now
  const dataDir = dataDirOf('import', parsed.values.data, io, options.env ?? process.env)
  if (dataDir === undefined) return 2
  const loaded = loadSites(dataDir, options.sites ?? BUILT_IN_SITES)
  for (const problem of loaded.problems) io.err(`import: ${problem}`)
  const store = openStore(join(dataDir, STORE_FILE), { now: now() })
  const deps = { db: store.db, registry: createRegistry(loaded.sites), clock: { now, monotonic: now, sleep: async () => {} }, dataDir }
  try {
    let reader: { id: number; name: string } | undefined
    if (parsed.values.reader !== undefined) {
      const row = await findReader(store.db, parsed.values.reader)
      if (!row) return fail(io, `no Reader "${parsed.values.reader}" (add one: npm run reader -- add NAME)`)
      reader = await importReader(store.db, row.id)
    }
    const bytes = await readImportFile(resolve(file))
    const progress = meter(io, 'reading', 'manga')
    const library = await readLibrary(bytes, file, { onProgress: progress })
    for (const m of maps) {
      const mapping = await mapSource(deps, { ...m, sourceName: library.sourceNames.get(m.sourceId) ?? `source ${m.sourceId}` })
      io.err(`import: source ${m.sourceId} (${mapping.sourceName}) is mapped to ${mapping.site} on ${mapping.origin}, remembered`)
    }
    const plan = await planLibrary(deps, library, reader)
    const preview = await previewPlan(deps, plan, file, reader)
    for (const line of previewLines(preview)) io.out(line)
    if (parsed.values['dry-run']) {
      io.out('Dry run: nothing was written.')
      return 0
    }
    if (
      preview.totals.add === 0 &&
      preview.totals.progress === 0 &&
      preview.totals.newSeries === 0 &&
      preview.readersToCreate.length === 0
    ) {
      io.out('Nothing to write.')
      return 0
    }
    const added = await addPlannedSites(deps, plan)
    if (added) io.err(`import: ${added} Known Sites added to sites.json`)
    const result = await applyPlan(deps, added ? await planLibrary(deps, library, reader) : plan, meter(io, 'writing', 'rows'))
    for (const line of resultLines(result)) io.out(line)
    return 0
  } catch (error) {
    return fail(io, (error as Error).message)
  } finally {
    await store.close()
  }
}

/** The preview as lines of text: per Site, then what is skipped and why, then what to map. */
export function previewLines(p: ImportPreviewView): string[] {
  const lines: string[] = []
  const who = p.reader ? `for Reader "${p.reader.name}"` : 'for the Readers it names'
  lines.push(`Import of ${p.fileName} (${IMPORT_FORMAT_NAMES[p.format]}) ${who}: ${n(p.entries)} entries read.`)
  if (p.sites.length) {
    const width = Math.max(4, ...p.sites.map((s) => s.name.length))
    lines.push(`  ${'Site'.padEnd(width)}  ${['add', 'present', 'Progress', 'new Series', 'skipped'].map((h) => h.padStart(12)).join('')}`)
    for (const s of p.sites)
      lines.push(
        `  ${s.name.padEnd(width)}  ${[s.add, s.present, s.progress, s.newSeries, s.skipped].map((v) => n(v).padStart(12)).join('')}`,
      )
  }
  if (p.sources.length) {
    lines.push(`Backup sources: ${n(p.sources.length)}`)
    for (const s of p.sources) lines.push(`  ${sourceSummaryWords(s)}`)
  }
  for (const m of p.mappings) lines.push(`  Source ${m.sourceName} (${m.sourceId}) is read as ${m.siteName} on ${m.origin}.`)
  if (p.skipped.length) {
    lines.push(`Skipped: ${n(p.totals.skipped)}`)
    for (const s of p.skipped) {
      lines.push(`  ${n(s.count).padStart(6)}  ${IMPORT_SKIP_WORDS[s.reason]} (${s.reason})`)
      for (const e of s.examples) lines.push(`          e.g. ${e}`)
    }
  }
  if (p.unknownHosts.length) lines.push(`  Hosts no Site has: ${unknownHostsWords(p.unknownHosts)}`)
  if (p.sitesToAdd.length) {
    lines.push(`Adds ${n(p.sitesToAdd.length)} Sites: ${sitesToAddWords(p.sitesToAdd)}.`)
  }
  if (p.unknownSources.length) {
    lines.push('Backup sources with no Site (map each once: --map SOURCE_ID=SITE, or --map SOURCE_ID=URL of one of its pages):')
    for (const s of p.unknownSources) lines.push(`  ${s.sourceId.padStart(20)}  ${s.name}: ${n(s.count)} manga, e.g. ${s.example}`)
  }
  if (p.readersToCreate.length) lines.push(`Readers to create: ${p.readersToCreate.join(', ')} (each gets a new token, shown once)`)
  const t = p.totals
  lines.push(
    `Total: ${n(t.add)} bookmarks to add, ${n(t.present)} already present, ${n(t.progress)} Progress to move, ${n(t.newSeries)} new Series, ${n(t.skipped)} skipped.`,
  )
  return lines
}

export function resultLines(r: ImportResultView): string[] {
  const lines = [
    `Imported: ${n(r.bookmarksAdded)} bookmarks and ${n(r.seriesAdded)} Series added, ${n(r.progressUpdated)} Progress moved, ${n(r.bookmarksPresent)} already present, ${n(r.skipped)} skipped (${r.ms} ms). No request was sent: the Lanes read the new Series at their own pace.`,
  ]
  if (r.lanesPaused) lines.push(`${n(r.lanesPaused)} Lanes paused again, as the export recorded them.`)
  for (const created of r.readersCreated) lines.push(`Reader "${created.name}" created. Token, shown once:\n${created.token}`)
  return lines
}

/** Progress on stderr, about every tenth of the way. */
function meter(io: Output, phase: string, unit: string) {
  let shown = -1
  return (done: number, total: number) => {
    if (total < 1000) return
    const tenth = Math.floor((done / total) * 10)
    if (tenth === shown) return
    shown = tenth
    io.err(`import: ${phase}… ${n(done)}/${n(total)} ${unit}`)
  }
}

const n = (v: number) => v.toLocaleString('en')

function fail(io: Output, message: string): number {
  io.err(`import: ${message}`)
  return 1
}

/**
 * `npm run known-sites -- <known-sources dir>`: writes src/main/sites/known-sites.json, the Known Sites table,
 * from the keiyoushi/extensions-source facts in `<dir>/sources.json` (the commit is read from `<dir>/README.md`).
 * Every source with a base URL whose theme is a family this app reads becomes one row: key, name, lang,
 * family, base URL. Nothing else is copied. Regenerate after adding a family; never edit the table by hand.
 * Also prints the coverage figure docs/sites.md quotes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { wantsHelp } from '../src/main/cli/help'
import { FAMILY_KEYS } from '../src/main/sites/families'
import type { KnownSitesTable, KnownSite } from '../src/main/sites/known-sites'

const KNOWN_SITES_FILE = 'src/main/sites/known-sites.json'

interface SourceFact {
  extension: string
  name: string
  lang: string
  baseUrl: string | null
  theme: string | null
}

const REPOSITORY = 'https://github.com/keiyoushi/extensions-source'
/** Extensions the built-in Sites read (MangaDex by source id, Webtoons by host), counted as readable before. */
const BUILT_IN_EXTENSIONS = new Set(['src/all/mangadex', 'src/all/webtoons'])

/** The table from the facts; pure. Keys are the name's slug, with the language when two names share one. */
export function knownSitesTable(facts: readonly SourceFact[], commit: string): KnownSitesTable {
  const families = new Set<string>(FAMILY_KEYS)
  const rows = facts.filter((f) => f.theme && families.has(f.theme) && usableBase(f.baseUrl))
  const slugs = new Map<string, number>()
  for (const f of rows) slugs.set(slug(f.name), (slugs.get(slug(f.name)) ?? 0) + 1)
  const taken = new Set<string>(['mangadex', 'webtoons'])
  const sites: KnownSite[] = []
  for (const f of [...rows].sort((a, b) => a.extension.localeCompare(b.extension) || a.lang.localeCompare(b.lang))) {
    let key = slugs.get(slug(f.name))! > 1 || taken.has(slug(f.name)) ? slug(`${f.name}-${f.lang}`) : slug(f.name)
    for (let n = 2; taken.has(key); n++) key = `${slug(f.name).slice(0, 36)}-${n}`
    taken.add(key)
    sites.push({ key, name: f.name, lang: f.lang, family: f.theme as KnownSite['family'], baseUrl: new URL(f.baseUrl!).origin })
  }
  return {
    generatedBy: 'scripts/known-sites.ts (regenerate; never edit by hand)',
    source: { repository: REPOSITORY, commit, license: 'Apache-2.0', file: 'each extension build.gradle.kts' },
    sites,
  }
}

function usableBase(base: string | null): boolean {
  if (!base || base.includes('$')) return false
  try {
    return new URL(base).protocol === 'https:' || new URL(base).protocol === 'http:'
  } catch {
    return false
  }
}

function slug(text: string): string {
  const s = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '')
  return s || 'site'
}

/** One row a line, so a regeneration's diff reads row by row. */
export function formatTable(table: KnownSitesTable): string {
  const rows = table.sites.map((s) => `    ${JSON.stringify(s)}`).join(',\n')
  return `{\n  "generatedBy": ${JSON.stringify(table.generatedBy)},\n  "source": ${JSON.stringify(table.source)},\n  "sites": [\n${rows}\n  ]\n}\n`
}

/** Known sources readable with no setup, before (built-in Sites only) and with the table. */
export function coverage(facts: readonly SourceFact[], table: KnownSitesTable): { total: number; before: number; after: number } {
  const before = facts.filter((f) => BUILT_IN_EXTENSIONS.has(f.extension)).length
  return { total: facts.length, before, after: before + table.sites.length }
}

function main(argv: string[]): void {
  if (wantsHelp(argv) || !argv[0]) {
    console.log('Usage: npm run known-sites -- <known-sources dir>\n\nWrites src/main/sites/known-sites.json from <dir>/sources.json.')
    process.exit(argv[0] ? 0 : 2)
  }
  const dir = argv[0]
  const facts = JSON.parse(readFileSync(join(dir, 'sources.json'), 'utf8')) as SourceFact[]
  const commit = /commit ([0-9a-f]{40})/.exec(readFileSync(join(dir, 'README.md'), 'utf8'))?.[1]
  if (!commit) throw new Error(`${dir}/README.md names no 40-hex commit`)
  const table = knownSitesTable(facts, commit)
  writeFileSync(KNOWN_SITES_FILE, formatTable(table))
  const byFamily = new Map<string, number>()
  for (const s of table.sites) byFamily.set(s.family, (byFamily.get(s.family) ?? 0) + 1)
  const c = coverage(facts, table)
  console.log(`wrote ${KNOWN_SITES_FILE}: ${table.sites.length} Known Sites (${[...byFamily].map(([f, n]) => `${f} ${n}`).join(', ')})`)
  console.log(`readable out of the box: ${c.before} → ${c.after} of ${c.total} known sources`)
}

if (process.argv[1]?.endsWith('known-sites.ts')) main(process.argv.slice(2))

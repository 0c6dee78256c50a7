/**
 * The owner's `<data>/sites.json`: adds Sites or overrides built-in ones without code. JSON with comments (a
 * byte order mark is skipped). Each entry is validated on its own; a bad one is reported with file, site and
 * field, and the valid Sites still run. A member given twice is a problem with its lines, never a silent
 * choice, and two Sites on one host are reported (docs/adr/0095-sites-json-read-as-written.md).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { RE2JS } from 're2js'
import { z } from 'zod'
import { FAMILIES, FAMILY_KEYS } from './families'
import { selectorAdapter } from './families/selectors'
import { templateSearch } from './search'
import { DEFAULT_PACE, parseUrl, seriesRules, type IdPattern, type Pace, type Site } from './site'
import { readSitesJson, type TwiceGiven } from './sites-json'

export const SITES_FILE = 'sites.json'

const positiveMs = z
  .number()
  .int()
  .positive()
  .max(30 * 86_400_000)
const paceSchema = z
  .strictObject({
    restMs: positiveMs,
    minGapMs: positiveMs,
    maxGapMs: positiveMs,
    ceilingMs: positiveMs,
    refusalBackoffMs: positiveMs,
    wakeDueCount: z.number().int().min(1).max(10_000),
    wakeOldestMs: positiveMs,
    maxPassMs: positiveMs,
    idleRequeryMs: positiveMs,
    cadence: z.enum(['fixed', 'adaptive']),
  })
  .partial()

const host = z
  .string()
  .transform((h) => h.toLowerCase())
  .pipe(
    z
      .string()
      .regex(
        /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$/,
        'a host or host:port, without scheme or path',
      ),
  )

/**
 * An owner's regular expression, compiled by RE2 (re2js): matching takes time linear in the URL whatever
 * the pattern, so `^/(a+)+$` cannot freeze the app. RE2 has no backreferences or lookaround; a pattern
 * using them is refused here, in words (docs/adr/0027-owner-patterns-in-a-linear-time-engine.md).
 */
export function linearPattern(source: string): IdPattern {
  const compiled = RE2JS.compile(source)
  return { exec: (target) => compiled.exec(target) as ReturnType<IdPattern['exec']> }
}

const pattern = z
  .string()
  .max(500)
  .superRefine((source, ctx) => {
    let groups: number
    try {
      groups = RE2JS.compile(source).groupCount()
    } catch (error) {
      const why = (error as Error).message.replace(/^error parsing regexp: /, '')
      ctx.addIssue({
        code: 'custom',
        message: `not a regular expression the linear-time engine accepts (no backreferences or lookaround): ${why}`,
      })
      return
    }
    if (groups < 1) ctx.addIssue({ code: 'custom', message: 'needs a capturing group (group 1 is the series_id)' })
  })

/** MangaDex's language codes: "en", "ja-ro", "pt-br", "es-la", "zh-hk". */
const languages = z
  .array(z.string().regex(/^[a-z]{2,3}(?:-[a-z0-9]{2,8})?$/, 'a language code such as "en" or "pt-br"'))
  .min(1)
  .max(40)
  .refine((codes) => new Set(codes).size === codes.length, 'a language is listed twice')

const entrySchema = z.strictObject({
  key: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lowercase letters, digits and dashes, at most 40'),
  name: z.string().trim().min(1).max(80).optional(),
  hosts: z.array(host).min(1).max(20).optional(),
  /** Hosts the Site serves its cover images from (a CDN), besides its pin; nothing else is fetched from them. */
  imageHosts: z.array(host).max(20).optional(),
  fetcher: z.enum(['http', 'browser']).optional(),
  fallback: z.enum(['http', 'none']).optional(),
  family: z.enum(FAMILY_KEYS).optional(),
  selectors: z
    .strictObject({
      chapter: z.string().trim().min(1).max(300),
      title: z.string().trim().min(1).max(300).optional(),
      cover: z.string().trim().min(1).max(300).optional(),
      number: z
        .string()
        .regex(/^(text|attr:[A-Za-z_:][-A-Za-z0-9_:.]*)$/, '"text" or "attr:NAME"')
        .default('text'),
      name: z.string().trim().min(1).max(300).optional(),
      link: z.string().trim().min(1).max(300).optional(),
    })
    .optional(),
  idPattern: pattern.optional(),
  /**
   * A title search for a Site whose family has none (a selector Site): its URL with `{query}` where the words go
   * (docs/adr/0146-a-search-template-for-selector-sites.md); on the Site's pin (checked when the Site is built).
   */
  search: z
    .string()
    .trim()
    .max(500)
    .regex(/^https?:\/\/[^\s]+$/, 'an http(s) URL')
    .refine((t) => t.includes('{query}'), 'a search URL with {query} where the words go')
    .optional(),
  languages: languages.optional(),
  pace: paceSchema.optional(),
})

type Entry = z.infer<typeof entrySchema>

/** One entry of sites.json as the owner writes it. */
export type SiteEntry = z.input<typeof entrySchema>

export interface SitesReport {
  sites: Site[]
  /**
   * One line per problem: `<file>: site "<key>": field "<field>": <what is wrong>`; for the whole file
   * `<file>: <what is wrong>` (a syntax error, "sites" given twice); `<file>: host "<host>" is claimed by …`.
   */
  problems: string[]
}

/** Reads `<dataDir>/sites.json` if present and merges it over the built-in Sites. */
export function loadSites(dataDir: string, builtIns: readonly Site[]): SitesReport {
  const file = join(dataDir, SITES_FILE)
  if (!existsSync(file)) return { sites: [...builtIns], problems: [] }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    return { sites: [...builtIns], problems: [`${file}: cannot be read: ${(error as Error).message}`] }
  }
  return parseSitesFile(text, file, builtIns)
}

export function parseSitesFile(text: string, file: string, builtIns: readonly Site[]): SitesReport {
  const refused = (problem: string): SitesReport => ({ sites: [...builtIns], problems: [`${file}: ${problem}`] })
  const read = readSitesJson(text)
  if (!read.ok) return refused(`not valid JSON at ${read.error}`)
  // Two "sites" lists: which one the owner means cannot be told, so neither is used (ADR 0095).
  const list = read.twice.find((t) => t.path.length === 0 && t.name === 'sites')
  if (list)
    return refused(
      `line ${list.line}: "sites" is given twice (first on line ${list.firstLine}); which list is meant is unclear, so no Site of this file is loaded — keep one`,
    )
  const top = z.strictObject({ sites: z.array(z.unknown()) }).safeParse(read.value)
  if (!top.success) return refused(`expected { "sites": [ … ] }: ${top.error.issues[0]?.message ?? ''}`)
  const sites = new Map(builtIns.map((site) => [site.key, site]))
  const seen = new Set<string>()
  const problems: string[] = []
  top.data.sites.forEach((raw, index) => {
    const prefix = `${file}: site ${siteLabel(raw, index)}: `
    const twice = read.twice.filter((t) => t.path[0] === 'sites' && t.path[1] === index)
    const checked = twice.length ? { problems: twice.map((t) => `${prefix}${givenTwice(t)}`) } : checkSiteEntry(raw, sites, prefix)
    if ('problems' in checked) problems.push(...checked.problems)
    else if (seen.has(checked.site.key)) problems.push(`${prefix}field "key": defined twice; the first definition stands`)
    else {
      seen.add(checked.site.key)
      sites.set(checked.site.key, checked.site)
    }
  })
  return { sites: [...sites.values()], problems: [...problems, ...sharedHosts(file, [...sites.values()])] }
}

/** A field of one entry given twice: the entry is refused, as any entry with a problem is (ADR 0095). */
function givenTwice({ path, name, firstLine, line }: TwiceGiven): string {
  const field = [...path.slice(2), name].join('.')
  const where = firstLine === line ? `on line ${line}` : `(lines ${firstLine} and ${line})`
  return `field "${field}": given twice ${where}; this Site is not loaded — keep one`
}

/**
 * A host two Sites claim, one of them from sites.json: a URL on it goes to the first whose rule reads it
 * (registry.ts), so the other may never get its Series. Said, not refused: both Sites still run.
 */
function sharedHosts(file: string, sites: readonly Site[]): string[] {
  const claims = new Map<string, Site[]>()
  for (const site of sites) for (const host of new Set(site.hosts)) claims.set(host, [...(claims.get(host) ?? []), site])
  return [...claims]
    .filter(([, by]) => by.length > 1 && by.some((site) => site.origin === 'sites.json'))
    .map(([host, by]) => {
      const keys = by.map((site) => JSON.stringify(site.key))
      const named = `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)!}`
      return `${file}: host "${host}" is claimed by the Sites ${named}; a URL on it is matched to ${keys[0]!} first — give the host to one Site`
    })
}

/**
 * One sites.json entry, validated exactly as loading validates it: the Site it makes (over the Site of the
 * same key in `bases`, if any), or its problems, each `<prefix>field "<field>": <what is wrong>`.
 */
export function checkSiteEntry(
  raw: unknown,
  bases: ReadonlyMap<string, Site>,
  prefix = `${SITES_FILE}: site ${siteLabel(raw, 0)}: `,
): { site: Site } | { problems: string[] } {
  const parsed = entrySchema.safeParse(raw)
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map(
        (issue) => `${prefix}field "${issue.path.length ? issue.path.join('.') : '(entry)'}": ${issue.message}`,
      ),
    }
  }
  const built = buildSite(parsed.data, bases.get(parsed.data.key))
  return typeof built === 'string' ? { problems: [`${prefix}${built}`] } : { site: built }
}

function siteLabel(raw: unknown, index: number): string {
  const key = (raw as { key?: unknown } | null)?.key
  return typeof key === 'string' && key ? JSON.stringify(key) : `#${index + 1}`
}

/** A Site from an entry, merged over the built-in of the same key; or a problem (`field "x": …`). */
function buildSite(entry: Entry, base: Site | undefined): Site | string {
  if (entry.family && entry.selectors) return 'field "selectors": give either "family" or "selectors", not both'
  if (!base) {
    if (!entry.name) return 'field "name": required for a new Site'
    if (!entry.hosts) return 'field "hosts": required for a new Site'
    if (!entry.family && !entry.selectors) return 'field "family": a new Site needs "family" or "selectors"'
  }
  const pace: Pace = { ...(base?.pace ?? DEFAULT_PACE), ...entry.pace }
  if (pace.minGapMs > pace.maxGapMs) return `field "pace.minGapMs": ${pace.minGapMs} is above maxGapMs ${pace.maxGapMs}`
  // A silent Series rests up to two rests (docs/freshness.md); no plan may pass the ceiling.
  if (2 * pace.restMs > pace.ceilingMs)
    return `field "pace.ceilingMs": ${pace.ceilingMs} is below two rests (restMs ${pace.restMs}); a silent Series may rest two rests, and no check may wait past the ceiling`
  const familyKey = entry.family ?? (entry.selectors ? undefined : base?.family)
  if (entry.languages && !(familyKey && FAMILIES[familyKey].readsLanguages))
    return 'field "languages": only a Site of the mangadex family reads languages'
  const family = familyKey ? FAMILIES[familyKey] : undefined
  const adapter =
    family && (entry.family || entry.languages)
      ? family.adapter(entry.languages ? { languages: entry.languages } : {})
      : entry.selectors
        ? selectorAdapter(entry.selectors as Parameters<typeof selectorAdapter>[0])
        : base!.adapter
  const hosts = entry.hosts ?? base!.hosts
  if (entry.search) {
    const problem = searchTemplateProblem(entry.search, hosts)
    if (problem) return `field "search": ${problem}`
  }
  const idPattern: IdPattern | undefined = entry.idPattern ? linearPattern(entry.idPattern) : entry.family ? family?.idPattern : undefined
  const fetcher = entry.fetcher ?? base?.fetcher ?? 'http'
  return {
    key: entry.key,
    name: entry.name ?? base!.name,
    hosts,
    ...((entry.imageHosts ?? base?.imageHosts) ? { imageHosts: entry.imageHosts ?? base!.imageHosts } : {}),
    fetcher,
    fallback: entry.fallback ?? base?.fallback ?? 'none',
    adapter: entry.search ? { ...adapter, search: templateSearch(entry.search) } : adapter,
    family: familyKey,
    ...(idPattern || !base ? seriesRules(idPattern) : { seriesIdOf: base.seriesIdOf, canonicalUrl: base.canonicalUrl }),
    pace,
    origin: 'sites.json',
  }
}

/** Why a search template cannot be used on a Site of these hosts, or null: it must be a URL on the pin. */
function searchTemplateProblem(template: string, hosts: readonly string[]): string | null {
  const url = parseUrl(template.replaceAll('{query}', 'x'))
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return 'not an http(s) URL'
  if (!hosts.includes(url.host.toLowerCase())) return `its host ${url.host} is not on the Site's pin (${hosts.join(', ')})`
  return null
}

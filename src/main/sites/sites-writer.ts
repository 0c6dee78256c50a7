/**
 * Adds one Site to the owner's `<data>/sites.json` without disturbing the rest of it: the new entry is
 * spliced in after the last one, in the file's own indentation and line endings, so every other byte stays
 * as the owner wrote it. The write is atomic — a temporary file in the same directory, fsync, rename — so a
 * crash leaves the old file or the new one, never half of either (docs/adr/0028-add-a-site-from-one-url.md).
 * Refused, with nothing written: a sites.json that does not parse, a key or host another Site has, an entry
 * the loader would refuse.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Site } from './site'
import { SITES_FILE, checkSiteEntry, type SiteEntry } from './sites-file'

export type AddSiteResult = { ok: true; site: Site; file: string } | { ok: false; reason: string }

/** One add at a time per file, so two confirms in a row both land. */
const queues = new Map<string, Promise<unknown>>()

/**
 * Appends `entry` to `<dataDir>/sites.json` (creating the file if there is none) and returns the Site it
 * makes, validated by the same schema as loading. `running` are the Sites the app runs now: a key or a host
 * one of them already has is refused.
 */
export function addSiteEntry(dataDir: string, entry: SiteEntry, running: readonly Site[]): Promise<AddSiteResult> {
  const file = join(dataDir, SITES_FILE)
  const previous = queues.get(file) ?? Promise.resolve()
  const next = previous.then(
    () => addNow(file, entry, running),
    () => addNow(file, entry, running),
  )
  queues.set(file, next)
  void next.finally(() => {
    if (queues.get(file) === next) queues.delete(file)
  })
  return next
}

async function addNow(file: string, entry: SiteEntry, running: readonly Site[]): Promise<AddSiteResult> {
  const refuse = (reason: string): AddSiteResult => ({ ok: false, reason: `${SITES_FILE}: ${reason}; nothing was written` })
  const before = await readIfExists(file)
  let existing: unknown[] = []
  if (before !== null) {
    let json: unknown
    try {
      json = JSON.parse(before)
    } catch (error) {
      return refuse(`the file is not valid JSON (${(error as Error).message}); fix it by hand first`)
    }
    const sites = (json as { sites?: unknown } | null)?.sites
    if (typeof json !== 'object' || json === null || Array.isArray(json) || !Array.isArray(sites))
      return refuse('the file is not { "sites": [ … ] }; fix it by hand first')
    existing = sites
  }

  const key = entry.key
  if (running.some((site) => site.key === key) || existing.some((raw) => (raw as { key?: unknown } | null)?.key === key))
    return refuse(`a Site with the key "${key}" exists already`)
  const checked = checkSiteEntry(entry, new Map())
  if ('problems' in checked) return refuse(checked.problems.map((p) => p.replace(`${SITES_FILE}: `, '')).join('; '))
  for (const host of checked.site.hosts) {
    const owner = running.find((site) => site.hosts.includes(host))
    if (owner) return refuse(`the host ${host} is pinned by the Site "${owner.key}" already`)
  }

  const after = before === null ? freshFile(entry) : withEntry(before, entry)
  // The splice must read back as exactly the old entries plus the new one; anything else is not written.
  const expected = JSON.stringify([...existing, entry])
  if (after === null || JSON.stringify((JSON.parse(after) as { sites: unknown[] }).sites) !== expected)
    return refuse('the file could not be extended in place; add the entry by hand')

  try {
    await writeAtomically(file, after, before)
  } catch (error) {
    return refuse(`writing failed: ${(error as Error).message}`)
  }
  return { ok: true, site: checked.site, file }
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

function freshFile(entry: SiteEntry): string {
  const body = JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')
  return `{\n  "sites": [\n    ${body}\n  ]\n}\n`
}

/**
 * The text with `entry` spliced in as the last element of the top-level "sites" array, indented like the
 * element before it (or, in an empty array, one step in from the line of its bracket); null when the array
 * cannot be found.
 */
export function withEntry(text: string, entry: SiteEntry): string | null {
  const array = locateSitesArray(text)
  if (!array) return null
  const newline = text.includes('\r\n') ? '\r\n' : '\n'
  const unit = indentUnit(text)
  if (!text.includes('\n')) {
    const compact = JSON.stringify(entry)
    return array.lastEnd === null
      ? `${text.slice(0, array.open + 1)}${compact}${text.slice(array.close)}`
      : `${text.slice(0, array.lastEnd)}, ${compact}${text.slice(array.lastEnd)}`
  }
  const pretty = (indent: string) =>
    JSON.stringify(entry, null, unit)
      .split('\n')
      .join(newline + indent)
  if (array.lastEnd === null || array.lastStart === null) {
    const bracketIndent = leadingIndent(text, array.open)
    const inner = bracketIndent + unit
    return `${text.slice(0, array.open + 1)}${newline}${inner}${pretty(inner)}${newline}${bracketIndent}${text.slice(array.close)}`
  }
  const lineStart = text.lastIndexOf('\n', array.lastStart - 1) + 1
  const before = text.slice(lineStart, array.lastStart)
  if (!/^[ \t]*$/.test(before)) return `${text.slice(0, array.lastEnd)}, ${JSON.stringify(entry)}${text.slice(array.lastEnd)}`
  return `${text.slice(0, array.lastEnd)},${newline}${before}${pretty(before)}${text.slice(array.lastEnd)}`
}

/** The white space that opens the line holding `at`. */
function leadingIndent(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at) + 1
  return /^[ \t]*/.exec(text.slice(lineStart, at))![0]
}

/** The file's indentation step: the white space of its first indented line, else two spaces. */
function indentUnit(text: string): string {
  const indented = /\n([ \t]+)\S/.exec(text)
  return indented?.[1] ?? '  '
}

/**
 * Where the top-level "sites" array is in valid JSON text: its brackets, and the start and end of its last
 * element (null when it is empty). One pass over the text, strings skipped.
 */
function locateSitesArray(text: string): { open: number; close: number; lastStart: number | null; lastEnd: number | null } | null {
  let depth = 0
  let lastString = ''
  let found: { open: number; close: number; lastStart: number | null; lastEnd: number | null } | null = null
  let arrayOpen = -1
  let lastStart: number | null = null
  let lastEnd: number | null = null
  let expectValueOfSites = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === '"') {
      const start = i
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++
      if (arrayOpen !== -1 && depth === 2) {
        if (lastStart === null || lastEnd !== null) lastStart = start
        lastEnd = null
      }
      lastString = text.slice(start + 1, i)
      continue
    }
    if (/\s/.test(ch)) continue
    if (ch === ':') {
      expectValueOfSites = depth === 1 && lastString === 'sites'
      continue
    }
    if (arrayOpen !== -1 && depth === 2 && ch !== ']' && ch !== ',') {
      if (lastStart === null || lastEnd !== null) lastStart = i
      lastEnd = null
    }
    if (ch === '{' || ch === '[') {
      if (ch === '[' && expectValueOfSites) {
        arrayOpen = i
        lastStart = null
        lastEnd = null
      }
      expectValueOfSites = false
      depth++
    } else if (ch === '}' || ch === ']') {
      depth--
      if (ch === ']' && depth === 1 && arrayOpen !== -1) {
        found = { open: arrayOpen, close: i, lastStart, lastEnd: lastStart === null ? null : endOfLast(text, i) }
        arrayOpen = -1
      }
    } else if (ch === ',' && arrayOpen !== -1 && depth === 2) {
      lastEnd = i
    } else expectValueOfSites = false
  }
  return found
}

/** Just past the last non-white-space character before `close`. */
function endOfLast(text: string, close: number): number {
  let i = close - 1
  while (i >= 0 && /\s/.test(text[i]!)) i--
  return i + 1
}

/** Temp file in the same directory, written and fsynced, renamed over the file; the directory fsynced. */
async function writeAtomically(file: string, text: string, expectedBefore: string | null): Promise<void> {
  const dir = dirname(file)
  await mkdir(dir, { recursive: true })
  // The owner's alone, like everything in the data directory (store/private-files.ts); the umask can only
  // take bits away from 0600.
  const mode = 0o600
  const temp = join(dir, `.${SITES_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temp, 'wx', mode)
    try {
      await handle.writeFile(text, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    // The owner may have saved the file by hand since it was read: their edit wins, this add is refused.
    if ((await readIfExists(file)) !== expectedBefore) throw new Error('the file changed while the entry was being added; try again')
    await rename(temp, file)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
  await syncDirectory(dir)
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Some platforms cannot open or fsync a directory; the rename is still atomic there.
  }
}

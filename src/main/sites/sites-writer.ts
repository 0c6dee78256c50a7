/**
 * Adds one Site to the owner's `<data>/sites.json` without disturbing the rest of it: the new entry is
 * added after the last one by jsonc-parser's `modify`, laid out in the file's own indentation and line
 * endings, so every other byte — comments included — stays as the owner wrote it. The write is atomic — a temporary file in the same directory, fsync, rename — so a
 * crash leaves the old file or the new one, never half of either (docs/adr/0028-add-a-site-from-one-url.md).
 * Refused, with nothing written: a sites.json that does not parse, a key or host another Site has, an entry
 * the loader would refuse.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { applyEdits, findNodeAtLocation, format, modify, parseTree, type FormattingOptions } from 'jsonc-parser'
import type { Site } from './site'
import { SITES_FILE, checkSiteEntry, type SiteEntry } from './sites-file'
import { readSitesJson, withoutBom } from './sites-json'

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
    const read = readSitesJson(before)
    if (!read.ok) return refuse(`the file is not valid JSON (${read.error}); fix it by hand first`)
    const sites = (read.value as { sites?: unknown } | null)?.sites
    if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value) || !Array.isArray(sites))
      return refuse('the file is not { "sites": [ … ] }; fix it by hand first')
    if (read.twice.some((t) => t.path.length === 0 && t.name === 'sites'))
      return refuse('the file gives "sites" twice; keep one by hand first')
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
  // The edit must read back as exactly the old entries plus the new one; anything else is not written.
  const reread = after === null ? null : readSitesJson(after)
  if (
    after === null ||
    !reread?.ok ||
    JSON.stringify((reread.value as { sites: unknown[] }).sites) !== JSON.stringify([...existing, entry])
  )
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
 * The text with `entry` added as the last element of the top-level "sites" array (jsonc-parser's `modify`),
 * every other byte — comments, the owner's other entries, a byte order mark — as it was. Only the added
 * entry is laid out (`format` over its own range), in the file's indentation and line endings; a file or a
 * filled array written on one line gets it on that line. Null when there is no such array.
 */
export function withEntry(text: string, entry: SiteEntry): string | null {
  const body = withoutBom(text)
  const bom = text.slice(0, text.length - body.length)
  const root = parseTree(body)
  const array = root && findNodeAtLocation(root, ['sites'])
  if (array?.type !== 'array') return null
  const last = array.children?.at(-1)
  const oneLine = !body.slice(array.offset, array.offset + array.length).includes('\n')
  if (!body.includes('\n') || (oneLine && last))
    return bom + applyEdits(body, modify(body, ['sites', -1], entry, { isArrayInsertion: true }))
  if (!last) {
    // An empty array is laid out whole: its brackets on lines of their own, the entry between them.
    const added = applyEdits(body, modify(body, ['sites', -1], entry, { isArrayInsertion: true }))
    const range = { offset: array.offset, length: array.length + added.length - body.length }
    return bom + applyEdits(added, format(added, range, layoutOf(body)))
  }
  return bom + afterLast(body, last.offset + last.length, entry)
}

/**
 * `entry` added after the last entry, which ends at `end`, and laid out on lines of its own. Comments after
 * that entry on its line are the owner's notes on it: they stay there, after the comma.
 */
function afterLast(body: string, end: number, entry: SiteEntry): string {
  const note = /^(?:[ \t]*(?:\/\/[^\r\n]*|\/\*(?:(?!\*\/)[^\r\n])*\*\/))*/.exec(body.slice(end))![0]
  const plain = body.slice(0, end) + body.slice(end + note.length)
  const [edit] = modify(plain, ['sites', -1], entry, { isArrayInsertion: true })
  const added = applyEdits(plain, [edit!])
  const laidOut = applyEdits(added, format(added, { offset: edit!.offset, length: edit!.content.length }, layoutOf(plain)))
  // `modify` put the comma at `end`, and nothing before it moved.
  return laidOut.slice(0, end + 1) + note + laidOut.slice(end + 1)
}

/** The file's line ending and indentation step (its first indented line's white space, else two spaces). */
function layoutOf(text: string): FormattingOptions {
  const unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  '
  const tabs = unit.startsWith('\t')
  return { eol: text.includes('\r\n') ? '\r\n' : '\n', insertSpaces: !tabs, tabSize: tabs ? 1 : unit.length }
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

export type MovePinResult = { ok: true; hosts: string[]; file: string } | { ok: false; reason: string }

/**
 * Moves a running Site's pin to `host` (docs/adr/0112-a-permanent-redirect-is-a-proposal.md): `host` becomes the
 * first of its hosts in its sites.json entry, the others kept after it, so its older URLs still resolve and a
 * redirect from them to `host` is followed. A Site with no entry of its own (a built-in) gets one that overrides
 * its hosts only. Every other byte of the file stays; written atomically, one edit at a time per file. Refused,
 * with nothing written: a host another Site pins, a file that does not parse, an entry the loader would refuse.
 */
export function moveSitePin(dataDir: string, site: Site, host: string, running: readonly Site[]): Promise<MovePinResult> {
  const file = join(dataDir, SITES_FILE)
  const previous = queues.get(file) ?? Promise.resolve()
  const next = previous.then(
    () => moveNow(file, site, host.toLowerCase(), running),
    () => moveNow(file, site, host.toLowerCase(), running),
  )
  queues.set(file, next)
  void next.finally(() => {
    if (queues.get(file) === next) queues.delete(file)
  })
  return next
}

async function moveNow(file: string, site: Site, host: string, running: readonly Site[]): Promise<MovePinResult> {
  const refuse = (reason: string): MovePinResult => ({ ok: false, reason: `${SITES_FILE}: ${reason}; nothing was written` })
  const owner = running.find((other) => other.key !== site.key && other.hosts.includes(host))
  if (owner) return refuse(`the host ${host} is pinned by the Site "${owner.key}" already`)
  const before = await readIfExists(file)
  const read = before === null ? null : readSitesJson(before)
  if (read && !read.ok) return refuse(`the file is not valid JSON (${read.error}); fix it by hand first`)
  const sites = (read?.value as { sites?: unknown } | null | undefined)?.sites
  if (read && !Array.isArray(sites)) return refuse('the file is not { "sites": [ … ] }; fix it by hand first')
  const entries = (sites ?? []) as unknown[]
  const index = entries.findIndex((raw) => (raw as { key?: unknown } | null)?.key === site.key)
  const own = index >= 0 ? (entries[index] as { hosts?: unknown }) : undefined
  const current = Array.isArray(own?.hosts) ? (own.hosts as string[]) : [...site.hosts]
  const hosts = [host, ...current.filter((h) => h.toLowerCase() !== host)]
  const entry = index >= 0 ? { ...(entries[index] as SiteEntry), hosts } : { key: site.key, hosts }
  const checked = checkSiteEntry(entry, new Map([[site.key, site]]))
  if ('problems' in checked) return refuse(checked.problems.map((p) => p.replace(`${SITES_FILE}: `, '')).join('; '))

  let after: string | null
  if (before === null) after = freshFile(entry)
  else if (index < 0) after = withEntry(before, entry)
  else {
    const body = withoutBom(before)
    const edits = modify(body, ['sites', index, 'hosts'], hosts, { formattingOptions: layoutOf(body) })
    after = before.slice(0, before.length - body.length) + applyEdits(body, edits)
  }
  const expected = index >= 0 ? entries.map((raw, i) => (i === index ? entry : raw)) : [...entries, entry]
  const reread = after === null ? null : readSitesJson(after)
  if (after === null || !reread?.ok || JSON.stringify((reread.value as { sites: unknown[] }).sites) !== JSON.stringify(expected))
    return refuse('the file could not be changed in place; change the hosts by hand')
  try {
    await writeAtomically(file, after, before)
  } catch (error) {
    return refuse(`writing failed: ${(error as Error).message}`)
  }
  return { ok: true, hosts, file }
}

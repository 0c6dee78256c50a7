/**
 * Covers (docs/adr/0150-covers-are-a-cache-beside-the-database.md): each Series' cover image kept as a small file
 * in `<data>/covers/`, beside a few lines of JSON saying where it came from. A cache, not the owner's data: not in
 * the database nor its backups, and a deleted folder only costs one request per Series to fill again.
 *
 * The cover URL a check read is noted here (in memory); a URL already fetched (or tried and refused) is not wanted
 * again, so a cover costs one request per Series until its page names another image.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files'

export const COVERS_DIR = 'covers'
/** The largest cover kept: a page's cover is a thumbnail; more is not an image worth a Reader's data. */
export const MAX_COVER_BYTES = 512 * 1024
/** A cover URL that gave no image is tried again after this long, if a check still reads it. */
export const RETRY_FAILED_MS = 7 * 86_400_000

/** The image types a cover may be, told by its first bytes (never by the Site's Content-Type); no SVG (it runs script). */
export type CoverType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif'

export interface CoverRecord {
  site: string
  seriesId: string
  /** The cover URL fetched (or tried). */
  url: string
  /** The sniffed type of the file kept; '' when the fetch gave no image (then `reason` says why). */
  type: CoverType | ''
  bytes: number
  at: number
  reason?: string
}

export interface CoverKey {
  site: string
  seriesId: string
}

/** The type the first bytes of a file show, or null when they are no image a cover may be. */
export function sniffImage(bytes: Uint8Array): CoverType | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b)
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif'
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp'
  if (starts([0x66, 0x74, 0x79, 0x70], 4) && (starts([0x61, 0x76, 0x69, 0x66], 8) || starts([0x61, 0x76, 0x69, 0x73], 8)))
    return 'image/avif'
  return null
}

const keyOf = ({ site, seriesId }: CoverKey) => `${site}\n${seriesId}`

export class CoverStore {
  /** Records read so far (null: none on disk), by key. */
  readonly #records = new Map<string, CoverRecord | null>()
  /** Cover URLs checks read that differ from the record, by Site then key. */
  readonly #wanted = new Map<string, Map<string, { key: CoverKey; url: string; at: number }>>()
  #made = false

  constructor(readonly dir: string) {}

  #name(key: CoverKey): string {
    return createHash('sha256').update(keyOf(key)).digest('hex').slice(0, 32)
  }

  #ensureDir(): void {
    if (this.#made) return
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE })
    this.#made = true
  }

  /** What is kept for a Series: its record, or undefined for none. */
  record(key: CoverKey): CoverRecord | undefined {
    const id = keyOf(key)
    if (!this.#records.has(id)) this.#records.set(id, this.#readRecord(key))
    return this.#records.get(id) ?? undefined
  }

  #readRecord(key: CoverKey): CoverRecord | null {
    try {
      const record = JSON.parse(readFileSync(join(this.dir, `${this.#name(key)}.json`), 'utf8')) as CoverRecord
      return record.site === key.site && record.seriesId === key.seriesId ? record : null
    } catch {
      return null
    }
  }

  /**
   * A check read this cover URL: wanted when it is not the one kept, nor one tried in vain less than a week ago.
   * Returns whether it is wanted.
   */
  note(key: CoverKey, url: string | undefined, now: number): boolean {
    if (!url) return false
    const record = this.record(key)
    if (record?.url === url && (record.type !== '' || now - record.at < RETRY_FAILED_MS)) return false
    let site = this.#wanted.get(key.site)
    if (!site) this.#wanted.set(key.site, (site = new Map()))
    site.set(keyOf(key), { key, url, at: site.get(keyOf(key))?.at ?? now })
    return true
  }

  /** The next cover a Site's Lane should fetch, oldest noted first. */
  nextWanted(site: string): { key: CoverKey; url: string; at: number } | undefined {
    return this.#wanted.get(site)?.values().next().value
  }

  /** How many covers a Site's Lane has yet to fetch. */
  wantedCount(site: string): number {
    return this.#wanted.get(site)?.size ?? 0
  }

  /**
   * Keeps what fetching `url` gave: the image (its type sniffed by the caller) or the reason there is none. Either
   * way the URL is not wanted again until a page names another.
   */
  save(key: CoverKey, url: string, outcome: { bytes: Uint8Array; type: CoverType } | { reason: string }, at: number): void {
    this.#ensureDir()
    const name = this.#name(key)
    const record: CoverRecord =
      'bytes' in outcome
        ? { ...key, url, type: outcome.type, bytes: outcome.bytes.byteLength, at }
        : { ...key, url, type: '', bytes: 0, at, reason: outcome.reason.slice(0, 200) }
    if ('bytes' in outcome) writeAtomically(join(this.dir, `${name}.img`), outcome.bytes)
    else rmSync(join(this.dir, `${name}.img`), { force: true })
    writeAtomically(join(this.dir, `${name}.json`), Buffer.from(JSON.stringify(record)))
    this.#records.set(keyOf(key), record)
    this.forget(key)
  }

  /** No longer wanted (the Series is gone, or its cover was just kept). */
  forget(key: CoverKey): void {
    this.#wanted.get(key.site)?.delete(keyOf(key))
  }

  /** The image kept for a Series, or undefined. */
  image(key: CoverKey): { bytes: Buffer; type: CoverType } | undefined {
    const record = this.record(key)
    if (!record?.type) return undefined
    try {
      const bytes = readFileSync(join(this.dir, `${this.#name(key)}.img`))
      // The file is read back through the same sniff: a file changed on disk is never served as something else.
      return sniffImage(bytes) === record.type ? { bytes, type: record.type } : undefined
    } catch {
      return undefined
    }
  }

  /** Whether a Series has an image kept (for the cards: a placeholder otherwise). */
  has(key: CoverKey): boolean {
    return Boolean(this.record(key)?.type)
  }

  /** Deletes the covers of every Series `exists` says is gone, and stray files; returns how many covers went. */
  /** The Series that have a cover record on disk (the hourly prune asks the database about these alone). */
  keys(): CoverKey[] {
    let names: string[]
    try {
      names = readdirSync(this.dir)
    } catch {
      return []
    }
    const keys: CoverKey[] = []
    for (const file of names.filter((n) => n.endsWith('.json'))) {
      const record = readJson(join(this.dir, file))
      if (record && `${this.#name(record)}.json` === file) keys.push({ site: record.site, seriesId: record.seriesId })
    }
    return keys
  }

  prune(exists: (key: CoverKey) => boolean): number {
    let names: string[]
    try {
      names = readdirSync(this.dir)
    } catch {
      return 0
    }
    const kept = new Set<string>()
    let pruned = 0
    for (const file of names.filter((n) => n.endsWith('.json'))) {
      const name = file.slice(0, -'.json'.length)
      const record = readJson(join(this.dir, file))
      if (record && this.#name(record) === name && exists(record)) {
        kept.add(name)
        continue
      }
      if (record) this.#records.delete(keyOf(record))
      if (record) this.forget(record)
      pruned++
    }
    for (const file of names) if (!kept.has(file.replace(/\.(json|img|tmp)$/, ''))) rmSync(join(this.dir, file), { force: true })
    return pruned
  }
}

function readJson(file: string): CoverRecord | null {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<CoverRecord>
    return typeof value.site === 'string' && typeof value.seriesId === 'string' ? (value as CoverRecord) : null
  } catch {
    return null
  }
}

/** Writes a file whole or not at all (a crash mid-write leaves the previous one). */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.tmp`
  writeFileSync(tmp, bytes, { mode: PRIVATE_FILE_MODE })
  renameSync(tmp, file)
}

/**
 * The 100k library every scale bench reads: 100,000 Series on 6 Sites, 300,000 bookmarks held by 200 Readers,
 * generated from a fixed seed so every run (and every machine) measures the same rows. The app's own
 * migrations make the schema; the rows go in with bare prepared INSERTs in one transaction.
 *
 * Shape (at the `now` it is generated for):
 * - Each Site has ~16,667 Series, their pages at `${origin}/${site}/manga/${id}/` (bench/site-server.ts).
 * - 2 % are orphans (no Reader), 3 % Finished, 0.5 % have no URL, 50 are pending a Check now.
 * - Reader 1 ("big") holds exactly 5,000 bookmarks; 10 of them changed in the last hour (5 bookmarks written,
 *   5 Series whose Latest Chapter moved), nothing else of theirs since `since` (= now − 1 h).
 * - `busy`: check stamps spread over the last 72 minutes and 1 % never checked, so with the default rest
 *   (1 h) about 2,900 Series of each Site are due. `idle`: every stamp within the last 20 minutes and none
 *   forced, so nothing is due for the next 40.
 */
import { createHash } from 'node:crypto'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { openStore, STORE_FILE } from '../src/main/store/database'

export const LIBRARY_SITES = ['bench-a', 'bench-b', 'bench-c', 'bench-d', 'bench-e', 'bench-f'] as const
export const SERIES = 100_000
export const READERS = 200
export const BOOKMARKS = 300_000
export const BIG_READER_BOOKMARKS = 5_000
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

export interface LibraryOptions {
  /** The time the library is generated for (its stamps are relative to it). */
  now: number
  /** Where the Series pages are served, e.g. `http://127.0.0.1:4800`. */
  origin: string
  profile: 'busy' | 'idle'
  seed?: number
}

export interface Library {
  file: string
  /** Reader 1: 5,000 bookmarks, 10 of them changed since `since`. */
  bigReader: { id: number; token: string }
  since: number
  /** A token for reader n (1-based). */
  tokenOf(n: number): string
}

/** mulberry32: a small, fast, seedable PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = (
  'crimson blade north shadow moon sword king queen dragon tower sky hunter demon saint witch garden ' +
  'iron rose winter spring abyss knight return villain regress level solo god academy princess beast ' +
  'star silent river empire heavenly martial chef tale legend last first reborn duke lady heir wolf'
).split(' ')

const tokenOf = (n: number) => `bench-reader-token-${String(n).padStart(4, '0')}-0123456789abcdef`
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

/** The Latest Chapter of Series number `i`, the same in the library and on the page server. */
export function chapterOf(i: number): number {
  return 1 + ((i * 7919) % 300)
}

/** Generates the library into `file` (a new file). Takes a few seconds. */
export async function generateLibrary(file: string, options: LibraryOptions): Promise<Library> {
  const random = prng(options.seed ?? 20_240_615)
  const int = (n: number) => Math.floor(random() * n)
  const { now, origin } = options
  const since = now - HOUR
  await openStore(file, { now }).close()
  const db = new BetterSqlite3(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  db.pragma('foreign_keys = ON')

  const insertReader = db.prepare('INSERT INTO readers (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)')
  const insertSeries = db.prepare(
    `INSERT INTO series (site, series_id, title, series_url, latest_chapter, latest_chapter_label, latest_chapter_url,
       latest_source, latest_changed_at, latest_checked_at, latest_sighted_at, force_poll_at, finished_at, created_at,
       last_outcome, last_outcome_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'check', ?, ?, ?, ?, ?, ?, 'chapter', ?)`,
  )
  const insertBookmark = db.prepare(
    `INSERT INTO bookmarks (reader_id, site, series_id, status, progress, progress_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const STATUSES = ['reading', 'reading', 'reading', 'waiting', 'planned', 'dropped']

  db.transaction(() => {
    for (let r = 1; r <= READERS; r++) insertReader.run(r, r === 1 ? 'big' : `reader-${r}`, sha256(tokenOf(r)), now - 90 * DAY)

    // Reader counts per Series: orphans, then 1 + a geometric tail, scaled to exactly BOOKMARKS in all.
    const held: number[] = []
    const counts = new Array<number>(SERIES)
    for (let i = 0; i < SERIES; i++) {
      if (random() < 0.02) counts[i] = 0
      else {
        let extra = 0
        while (random() > 0.327 && extra < READERS - 2) extra++
        counts[i] = 1 + extra
        held.push(i)
      }
    }
    let total = counts.reduce((a, b) => a + b, 0)
    while (total !== BOOKMARKS) {
      const i = held[int(held.length)]!
      if (total < BOOKMARKS && counts[i]! < READERS) {
        counts[i]!++
        total++
      } else if (total > BOOKMARKS && counts[i]! > 1) {
        counts[i]!--
        total--
      }
    }
    // The big Reader holds 5,000 of the held Series; 10 of those changed since `since`.
    const big = new Set<number>()
    while (big.size < BIG_READER_BOOKMARKS) big.add(held[int(held.length)]!)
    const bigList = [...big]
    const movedSince = new Set(bigList.slice(0, 5))
    const writtenSince = new Set(bigList.slice(5, 10))

    for (let i = 0; i < SERIES; i++) {
      const site = LIBRARY_SITES[i % LIBRARY_SITES.length]!
      const id = `series-${String(i).padStart(6, '0')}`
      const title = `${WORDS[int(WORDS.length)]} ${WORDS[int(WORDS.length)]} ${WORDS[int(WORDS.length)]} ${1 + int(9)}`.replace(
        /^\w/,
        (c) => c.toUpperCase(),
      )
      const url = random() < 0.005 ? '' : `${origin}/${site}/manga/${id}/`
      const chapter = chapterOf(i)
      const changed = movedSince.has(i) ? since + int(HOUR) : random() < 0.1 ? 0 : now - 2 * HOUR - int(28 * DAY)
      let checked: number
      if (options.profile === 'idle') checked = now - int(20 * MIN)
      else checked = random() < 0.01 ? 0 : now - int(72 * MIN)
      const sighted = random() < 0.05 ? now - int(2 * HOUR) : 0
      const forced = options.profile === 'busy' && i % 2_000 === 7 ? checked + 1 + int(MIN) : 0
      const finished = random() < 0.03 ? now - int(90 * DAY) : 0
      insertSeries.run(
        site,
        id,
        title,
        url,
        chapter,
        `Chapter ${chapter}`,
        url ? `${url}chapter-${chapter}/` : '',
        changed,
        checked,
        sighted,
        forced,
        finished,
        now - 120 * DAY + int(30 * DAY),
        checked,
      )
      const readers = new Set<number>()
      if (big.has(i)) readers.add(1)
      while (readers.size < counts[i]!) readers.add(2 + int(READERS - 1))
      for (const r of readers) {
        const updated = r === 1 && writtenSince.has(i) ? since + int(HOUR) : now - 2 * HOUR - int(60 * DAY)
        const progress = random() < 0.2 ? null : Math.max(0, chapter - int(5))
        insertBookmark.run(r, site, id, STATUSES[int(STATUSES.length)], progress, progress === null ? 0 : updated, updated - DAY, updated)
      }
    }
  })()
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return { file, bigReader: { id: 1, token: tokenOf(1) }, since, tokenOf }
}

/** `sites.json` for the 6 Sites, every one a Madara Site on the bench's page server. */
export function writeLibrarySites(dataDir: string, origin: string, pace: Record<string, number> = {}): void {
  const host = new URL(origin).host
  writeFileSync(
    join(dataDir, 'sites.json'),
    JSON.stringify({
      sites: LIBRARY_SITES.map((key) => ({
        key,
        name: `Bench ${key.slice(-1).toUpperCase()}`,
        hosts: [host],
        family: 'madara',
        idPattern: `^/${key}/manga/([^/]+)`,
        ...(Object.keys(pace).length ? { pace } : {}),
      })),
    }),
  )
}

/**
 * Moves a library generated for another time and origin to `now` and `origin`: every stamp shifts by the
 * difference, every URL moves to the new origin. `idle` then re-stamps every Series within the last 20
 * minutes and clears every Check now, so nothing is due for the next 40.
 */
export function retargetLibrary(file: string, from: { now: number; origin: string }, to: LibraryOptions): void {
  const db = new BetterSqlite3(file)
  db.pragma('synchronous = OFF')
  const delta = to.now - from.now
  const shift = (column: string) => `${column} = CASE WHEN ${column} = 0 THEN 0 ELSE ${column} + ${delta} END`
  db.transaction(() => {
    db.prepare(
      `UPDATE series SET series_url = replace(series_url, ?, ?), latest_chapter_url = replace(latest_chapter_url, ?, ?),
         ${['latest_changed_at', 'latest_checked_at', 'latest_sighted_at', 'force_poll_at', 'finished_at', 'created_at', 'last_outcome_at'].map(shift).join(', ')}`,
    ).run(from.origin, to.origin, from.origin, to.origin)
    db.prepare(`UPDATE bookmarks SET ${['progress_at', 'created_at', 'updated_at'].map(shift).join(', ')}`).run()
    if (to.profile === 'idle') {
      db.prepare('UPDATE series SET latest_checked_at = ? - (rowid * 7919) % ?, force_poll_at = 0').run(to.now, 20 * MIN)
    }
  })()
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
}

/** The time and origin the shared library is generated for. */
export const LIBRARY_AT = { now: 1_750_000_000_000, origin: 'http://127.0.0.1:9' }

let pristine: Promise<{ file: string; library: Library }> | undefined

/** The busy library at LIBRARY_AT, generated once per `npm run bench`; never opened, only copied. */
function pristineLibrary(): Promise<{ file: string; library: Library }> {
  pristine ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mb-bench-100k-'))
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
    process.stderr.write('bench: generating the 100k library…\n')
    const file = join(dir, 'library.sqlite')
    return { file, library: await generateLibrary(file, { ...LIBRARY_AT, profile: 'busy' }) }
  })()
  return pristine
}

/**
 * A data directory holding a copy of the library, moved to `now` and `origin` (default: as generated). The
 * caller removes it.
 */
export async function libraryCopy(
  to: Partial<LibraryOptions> = {},
): Promise<{ dir: string; file: string; library: Library; remove(): void }> {
  const { file: source, library } = await pristineLibrary()
  const dir = mkdtempSync(join(tmpdir(), 'mb-bench-data-'))
  const file = join(dir, STORE_FILE)
  copyFileSync(source, file)
  const target = { ...LIBRARY_AT, profile: 'busy' as const, ...to }
  if (target.now !== LIBRARY_AT.now || target.origin !== LIBRARY_AT.origin || target.profile !== 'busy') {
    retargetLibrary(file, LIBRARY_AT, target)
  }
  return {
    dir,
    file,
    library: { ...library, file, since: library.since + (target.now - LIBRARY_AT.now) },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

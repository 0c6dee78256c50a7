/**
 * Test helpers: a real SQLite file in a fresh temporary directory, and terse seeding of rows.
 * Used only by tests.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, STORE_FILE, type Db, type Store } from '../store/database'
import { addReader } from '../store/readers'

export interface TestStore extends Store {
  readonly dir: string
  /** Closes the store and deletes its directory. */
  dispose(): Promise<void>
}

export function tempDir(prefix = 'mb-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export function openTestStore(now = 1_000): TestStore {
  const { dir, remove } = tempDir()
  const store = openStore(join(dir, STORE_FILE), { now })
  return {
    ...store,
    dir,
    dispose: async () => {
      await store.close()
      remove()
    },
  }
}

let readerSeq = 0

/** Adds a Reader with a unique name and a throwaway token hash; returns its id. */
export async function seedReader(db: Db, name = `reader-${++readerSeq}`): Promise<number> {
  const row = await addReader(db, { name, tokenHash: `hash-${name}-${readerSeq}`, now: 1 })
  return row.id
}

export interface SeedSeries {
  site?: string
  id: string
  url?: string
  title?: string
  checkedAt?: number
  sightedAt?: number
  forcedAt?: number
  finishedAt?: number
  latest?: number | null
  latestSource?: '' | 'check' | 'sighting'
  /** Reader ids holding it (a bookmark each). */
  readers?: number[]
  /**
   * Their Progress. Left out: nothing read (null), as a bookmark made before caught-up by default (migration 0009)
   * — a new bookmark would take the Latest Chapter.
   */
  progress?: number | null
}

/** Inserts a Series with exactly the given stamps and bookmarks. */
export async function seedSeries(db: Db, s: SeedSeries): Promise<void> {
  const site = s.site ?? 'a'
  await db
    .insertInto('series')
    .values({
      site,
      series_id: s.id,
      title: s.title ?? s.id,
      series_url: s.url ?? `https://${site}.example/manga/${s.id}`,
      latest_chapter: s.latest ?? null,
      latest_source: s.latestSource ?? (s.latest == null ? '' : 'check'),
      latest_checked_at: s.checkedAt ?? 0,
      latest_sighted_at: s.sightedAt ?? 0,
      force_poll_at: s.forcedAt ?? 0,
      finished_at: s.finishedAt ?? 0,
      created_at: 1,
    })
    .execute()
  for (const readerId of s.readers ?? []) {
    await db
      .insertInto('bookmarks')
      .values({ reader_id: readerId, site, series_id: s.id, progress: null, created_at: 1, updated_at: 1 })
      .execute()
  }
  await db
    .updateTable('bookmarks')
    .set({ progress: s.progress ?? null })
    .where('site', '=', site)
    .where('series_id', '=', s.id)
    .execute()
}

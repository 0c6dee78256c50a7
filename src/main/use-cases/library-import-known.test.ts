/**
 * A real Mihon library imported whole (issue 30): a backup of manga spread over Known Sites of every family (5 on each)
 * the table holds resolves every entry by its source id — no mapping — and the preview names the Sites the
 * import adds; one confirm writes them to sites.json, starts them, and writes every bookmark. Against a real
 * SQLite file and a real data folder; no request is sent.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ImportJobView } from '../../shared/admin-api'
import { sourceId } from '../library/mihon/sources'
import { BUILT_IN_SITES } from '../sites/builtin'
import { SITE_FAMILIES } from '../../shared/site-families'
import { KNOWN_SITES, knownSiteEntry } from '../sites/known-sites'
import { createRegistry, type SiteRegistry } from '../sites/registry'
import { checkSiteEntry, loadSites } from '../sites/sites-file'
import type { Site } from '../sites/site'
import { FakeClock } from '../testing/clock'
import { knownSourcesBackup, realLibraryBackup, sourceIdOf } from '../testing/known-backup'
import { tachibk } from '../testing/library-files'
import { openTestStore, seedReader, tempDir, type TestStore } from '../testing/store'
import { ImportJobs, mapSource, type LibraryDeps } from './library-import'

let store: TestStore
let data: { dir: string; remove(): void }
let registry: SiteRegistry
let started: Site[]
let deps: LibraryDeps
let aiko: number
const fetches = vi.fn()

beforeEach(async () => {
  store = openTestStore()
  data = tempDir()
  registry = createRegistry(BUILT_IN_SITES)
  started = []
  deps = {
    db: store.db,
    registry,
    clock: new FakeClock(),
    dataDir: data.dir,
    addSite: async (site) => {
      registry.add(site)
      started.push(site)
    },
  }
  aiko = await seedReader(store.db, 'Aiko')
  fetches.mockReset()
  vi.stubGlobal('fetch', fetches)
})
afterEach(() => {
  vi.unstubAllGlobals()
  store.dispose()
  data.remove()
})

async function until(jobs: ImportJobs, id: string, phase: ImportJobView['phase']): Promise<ImportJobView> {
  return vi.waitFor(
    () => {
      const job = jobs.get(id)
      if (job.phase !== phase) throw new Error(`still ${job.phase}: ${job.error}`)
      return job
    },
    { timeout: 10_000, interval: 5 },
  )
}

async function preview(jobs: ImportJobs, bytes: Buffer): Promise<ImportJobView> {
  const { id } = await jobs.start({ readerId: aiko, fileName: 'library.tachibk', bytes })
  return until(jobs, id, 'previewed')
}

describe('a Mihon backup over Known Sites', () => {
  it('resolves all entries (5 on a Site of each family) with no mapping, lists the Sites it adds, and one confirm adds them and every bookmark', async () => {
    const familySites = KNOWN_SITES.sites.filter((s) => s.family)
    const families = new Set(familySites.map((s) => s.family)).size
    const entries = 5 * families
    const { backup, sites } = knownSourcesBackup(entries, families)
    expect(new Set(sites.map((s) => s.family))).toEqual(new Set(familySites.map((s) => s.family)))
    const jobs = new ImportJobs(deps)
    const job = await preview(jobs, tachibk(backup))
    const p = job.preview!
    expect(p.unknownSources).toEqual([])
    expect(p.skipped).toEqual([])
    expect(p.totals).toMatchObject({ add: entries, newSeries: entries, skipped: 0 })
    expect(p.sitesToAdd.map((s) => `${s.name} (${s.family})`).sort()).toEqual(
      sites.map((s) => `${s.name} (${SITE_FAMILIES[s.family!].name})`).sort(),
    )
    expect(p.sitesToAdd.every((s) => s.count === 5)).toBe(true)
    // Nothing is written before the confirm: no Site, no row.
    expect(registry.sites).toHaveLength(BUILT_IN_SITES.length)
    expect(await store.db.selectFrom('bookmarks').selectAll().execute()).toEqual([])

    jobs.confirm(job.id)
    const done = await until(jobs, job.id, 'done')
    expect(done.result).toMatchObject({ bookmarksAdded: entries, seriesAdded: entries, skipped: 0 })
    expect(started.map((s) => s.name).sort()).toEqual(sites.map((s) => s.name).sort())
    // sites.json holds them, and loads back as the same Sites.
    const loaded = loadSites(data.dir, BUILT_IN_SITES)
    expect(loaded.problems).toEqual([])
    expect(loaded.sites.map((s) => s.key).sort()).toEqual(registry.sites.map((s) => s.key).sort())
    const series = await store.db.selectFrom('series').select(['site', 'series_url']).execute()
    for (const known of sites) {
      const rows = series.filter((s) => new URL(s.series_url).host === new URL(known.baseUrl).host)
      expect(rows).toHaveLength(5)
    }
    const progress = await store.db.selectFrom('bookmarks').select('progress').execute()
    expect(progress.every((b) => b.progress !== null && b.progress >= 3)).toBe(true)
    expect(fetches).not.toHaveBeenCalled()

    // The same backup again: the Sites run now, nothing is proposed, every bookmark is present.
    const again = await preview(jobs, tachibk(backup))
    expect(again.preview).toMatchObject({ sitesToAdd: [], totals: { add: 0, present: entries } })
  })

  it('a real library of 300 manga over the table: every readable entry resolves with no mapping, every other source is named', async () => {
    const library = realLibraryBackup()
    const readable = [...library.readable.values()].reduce((a, b) => a + b, 0)
    const unreadable = [...library.unreadable.values()].reduce((a, b) => a + b.count, 0)
    expect([readable, unreadable, library.elsewhere]).toEqual([240, 60, 120])
    const jobs = new ImportJobs(deps)
    const p = (await preview(jobs, tachibk(library.backup))).preview!
    expect(p.totals).toMatchObject({ add: 240, newSeries: 240, skipped: 60 })
    expect(p.skipped.map((s) => [s.reason, s.count])).toEqual([['not-readable', 60]])
    expect(p.unknownHosts).toEqual([])
    expect(p.sitesToAdd.map((s) => s.key).sort()).toEqual(library.sites.map((s) => s.key).sort())
    const bySource = new Map(p.sources.map((s) => [s.sourceId, s]))
    expect(bySource.size).toBe(library.readable.size + library.unreadable.size)
    for (const [id, count] of library.readable) expect(bySource.get(id)).toMatchObject({ outcome: 'site-to-add', count, resolved: count })
    for (const [id, { name, count }] of library.unreadable)
      expect(bySource.get(id)).toMatchObject({ outcome: 'not-readable', name, count, resolved: 0 })
    const moved = new Map<string, number>()
    for (const s of p.sources) for (const m of s.moved) moved.set(m.to, (moved.get(m.to) ?? 0) + m.count)
    const expected = new Map<string, number>()
    for (const [key, n] of library.moved) {
      const host = new URL(library.sites.find((s) => s.key === key)!.baseUrl).host
      expected.set(host, (expected.get(host) ?? 0) + n)
    }
    expect(moved).toEqual(expected)
    expect(bySource.get('1024627298672457456')!.moved).toEqual([
      expect.objectContaining({ from: 'chapmanganato.com', to: 'www.natomanga.com' }),
    ])
    expect(fetches).not.toHaveBeenCalled()
  })

  it('old Tachiyomi JSON backups (versions 2 and 1) import: read off the thread, resolved by the same ids, written on one confirm', async () => {
    const id = '1024627298672457456'
    const v2 = `{"version":2,"mangas":[{"manga":["https://chapmanganato.com/manga/solo","Solo",${id},0,0],"chapters":[{"u":"https://chapmanganato.com/manga/solo/chapter-7","r":1}]}],"extensions":["${id}:Manganelo"]}`
    const v1 = `{"mangas":[{"manga":{"url":"/manga/night","title":"Night","source":${id}},"chapters":[{"url":"/manga/night/c2","read":true,"chapter_number":2}]}]}`
    const jobs = new ImportJobs(deps)
    for (const [text, outcome] of [
      [v2, 'site-to-add'],
      [v1, 'site'],
    ] as const) {
      const { id: job } = await jobs.start({ readerId: aiko, fileName: 'tachiyomi.json', bytes: Buffer.from(text) })
      const p = (await until(jobs, job, 'previewed')).preview!
      expect(p.format).toBe('tachiyomi')
      expect(p.sources).toEqual([expect.objectContaining({ sourceId: id, name: 'Manganato', outcome, count: 1, resolved: 1 })])
      jobs.confirm(job)
      await until(jobs, job, 'done')
    }
    const rows = await store.db
      .selectFrom('bookmarks')
      .innerJoin('series', (j) => j.onRef('series.site', '=', 'bookmarks.site').onRef('series.series_id', '=', 'bookmarks.series_id'))
      .select(['series.series_url', 'bookmarks.progress'])
      .orderBy('series.series_url')
      .execute()
    expect(rows).toEqual([
      { series_url: 'https://www.natomanga.com/manga/night', progress: 2 },
      { series_url: 'https://www.natomanga.com/manga/solo', progress: 7 },
    ])
    expect(fetches).not.toHaveBeenCalled()
  })

  it('a list of links on hosts no Site has: the preview says what the table knows of each host, with no request', async () => {
    const jobs = new ImportJobs(deps)
    const text = ['https://www.manganato.gg/manga/x', 'https://asurascans.com/manga/y', 'https://nowhere.example/z'].join('\n')
    const { id } = await jobs.start({ readerId: aiko, fileName: 'links.txt', bytes: Buffer.from(text) })
    const p = (await until(jobs, id, 'previewed')).preview!
    expect(p.unknownHosts).toEqual([
      { host: 'asurascans.com', count: 1, known: 'Asura Scans: no family reads this site yet' },
      { host: 'nowhere.example', count: 1 },
      { host: 'www.manganato.gg', count: 1, known: 'Manganato, a MangaBox site: Add a Site adds it' },
    ])
    expect(fetches).not.toHaveBeenCalled()
  })

  it('reads a source on the Site the owner already runs for its host, and adds none', async () => {
    const known = KNOWN_SITES.sites.find((s) => s.family === 'mangathemesia')!
    const own = checkSiteEntry({ ...knownSiteEntry(known, new Set()), key: 'my-own', name: 'Mine' }, new Map())
    if (!('site' in own)) throw new Error(own.problems.join())
    registry.add(own.site)
    const bytes = tachibk({ manga: [{ source: sourceIdOf(known), url: '/manga/solo/', title: 'Solo' }] })
    const p = (await preview(new ImportJobs(deps), bytes)).preview!
    expect(p).toMatchObject({ sitesToAdd: [], totals: { add: 1 } })
    expect(p.sites.map((s) => s.site)).toEqual(['my-own'])
  })

  it("an owner's mapping of a known source wins over the table", async () => {
    const known = KNOWN_SITES.sites.find((s) => s.family === 'madara')!
    const id = sourceIdOf(known)
    await mapSource(deps, { sourceId: id, sourceName: known.name, site: 'mangadex' })
    const bytes = tachibk({ manga: [{ source: id, url: '/title/0b3a1e5c-1b1f-4f3e-9d1c-3a1b2c3d4e5f', title: 'Dex' }] })
    const p = (await preview(new ImportJobs(deps), bytes)).preview!
    expect(p.sitesToAdd).toEqual([])
    expect(p.mappings.map((m) => m.site)).toEqual(['mangadex'])
  })

  it('a source whose extension bumped its version is known by its own id and by the ids of its older versions', async () => {
    const bumped = KNOWN_SITES.sources.find((s) => s.site && (s.versionId ?? 1) >= 2)!
    const known = KNOWN_SITES.sites.find((s) => s.key === bumped.site)!
    for (const id of [bumped.id, sourceId(bumped.name, bumped.lang, 1)]) {
      const bytes = tachibk({ manga: [{ source: id, url: '/manga/a/', title: 'A' }] })
      const p = (await preview(new ImportJobs(deps), bytes)).preview!
      expect(p.sitesToAdd.map((s) => s.name)).toEqual([known.name])
    }
  })

  it('a Site written meanwhile under the same key stops the confirm with a reason, and nothing of the import is written', async () => {
    const { backup, sites } = knownSourcesBackup(4, 2)
    const jobs = new ImportJobs(deps)
    const job = await preview(jobs, tachibk(backup))
    // The owner adds the first Site's key by hand, for another host, before confirming.
    const clash = join(data.dir, 'sites.json')
    const entry = { key: knownSiteEntry(sites[0]!, new Set()).key, name: 'Other', hosts: ['other.example'], family: 'madara' }
    await import('node:fs/promises').then((fs) => fs.writeFile(clash, JSON.stringify({ sites: [entry] })))
    jobs.confirm(job.id)
    const failed = await until(jobs, job.id, 'failed')
    expect(failed.error).toMatch(/exists already/)
    expect(await store.db.selectFrom('bookmarks').selectAll().execute()).toEqual([])
    expect(JSON.parse(readFileSync(clash, 'utf8')).sites).toEqual([entry])
  })
})

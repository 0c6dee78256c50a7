import { open, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { openStore, STORE_FILE } from '../store/database'
import { MANGADEX_EN, netscapeBookmarks, tachibk } from '../testing/library-files'
import { tempDir } from '../testing/store'
import { runExportCommand } from './export'
import { runImportCommand } from './import'
import { runReaderCommand } from './reader'
import { LONGEST_PAUSE_MS } from '../../shared/domain'
import type { ExportDocument } from '../../shared/export-format'
import type { Db } from '../store/database'
import { pausedLanes, pauseLane } from '../store/lanes'

async function withStore<T>(dir: string, use: (db: Db) => Promise<T>): Promise<T> {
  const store = openStore(join(dir, STORE_FILE), { now: 1_700_000_000_000 })
  try {
    return await use(store.db)
  } finally {
    await store.close()
  }
}

// A source the Known Sites table does not know (the backup names it).
const ASURA = '1234567890123456789'
let fixture: FixtureSite
beforeAll(async () => {
  fixture = await startFixtureSite()
})
afterAll(() => fixture.close())

const dirs: Array<{ dir: string; remove(): void }> = []
afterEach(() => dirs.splice(0).forEach((d) => d.remove()))
function dataDir() {
  const d = tempDir()
  dirs.push(d)
  return d.dir
}

async function run(command: typeof runImportCommand | typeof runExportCommand, ...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await command(
    argv,
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    { now: () => 1_700_000_000_000, sites: fixtureSites(fixture.host) },
  )
  return { code, out: out.join('\n'), err: err.join('\n') }
}

async function count(dir: string, table: 'bookmarks' | 'series' | 'readers') {
  const store = openStore(join(dir, STORE_FILE), { now: 1 })
  try {
    return (
      await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n
  } finally {
    await store.close()
  }
}

describe('npm run import', () => {
  it('prints the preview; --dry-run writes nothing; without it the bookmarks are written; no request is sent', async () => {
    const dir = dataDir()
    await runReaderCommand(['add', 'Aiko', '--data', dir], { out: () => {}, err: () => {} })
    const file = join(dir, 'bookmarks.html')
    await writeFile(
      file,
      netscapeBookmarks([
        { title: 'Tower', url: `${fixture.origin}/madara/manga/tower/` },
        { title: 'News', url: 'https://news.example/' },
      ]),
    )
    const dry = await run(runImportCommand, file, '--reader', 'Aiko', '--data', dir, '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.out).toContain(`Import of ${file} (a browser's bookmarks file) for Reader "Aiko": 2 entries read.`)
    expect(dry.out).toMatch(/Fixture Scans \(Madara\)\s+1\s+0\s+0\s+1\s+0/)
    expect(dry.out).toContain('Hosts no Site has: news.example × 1')
    expect(dry.out).toContain('Dry run: nothing was written.')
    expect(await count(dir, 'bookmarks')).toBe(0)

    const real = await run(runImportCommand, file, '--reader', 'Aiko', '--data', dir)
    expect(real.code).toBe(0)
    expect(real.out).toMatch(/Imported: 1 bookmarks and 1 Series added/)
    expect(await count(dir, 'bookmarks')).toBe(1)
    expect(fixture.hits).toEqual([])
  })

  it('--map names the Site of an unknown backup source, and remembers it', async () => {
    const dir = dataDir()
    await runReaderCommand(['add', 'Aiko', '--data', dir], { out: () => {}, err: () => {} })
    const file = join(dir, 'library.tachibk')
    await writeFile(
      file,
      tachibk({
        manga: [
          { source: ASURA, url: '/madara/manga/solo/', title: 'Solo', read: [3] },
          { source: MANGADEX_EN, url: '/manga/a96676e5-8ae2-425e-b549-7f15dd34a6d8', title: 'Komi' },
        ],
        sources: [{ name: 'Asura Scans', sourceId: ASURA }],
      }),
    )
    const unmapped = await run(runImportCommand, file, '--reader', 'Aiko', '--data', dir, '--dry-run')
    expect(unmapped.out).toMatch(new RegExp(`${ASURA}\\s+Asura Scans: 1 manga, e\\.g\\. /madara/manga/solo/`))
    // The fixture Sites have no MangaDex on mangadex.org: that manga's host is unknown here.
    expect(unmapped.out).toContain('Hosts no Site has: mangadex.org × 1')
    // Every source of the backup, named, with what becomes of its manga (these fixture Sites have no MangaDex).
    expect(unmapped.out).toContain('Backup sources: 2')
    expect(unmapped.out).toContain('  Asura Scans: 1 manga — not a source of the extension repository (its site may have closed)')
    expect(unmapped.out).toContain('  MangaDex (MangaDex): 1 manga — read on the Site mangadex; 1 not read (see Skipped)')

    const mapped = await run(
      runImportCommand,
      file,
      '--reader',
      'Aiko',
      '--data',
      dir,
      '--map',
      `${ASURA}=${fixture.origin}/madara/manga/x/`,
    )
    expect(mapped.code).toBe(0)
    expect(mapped.err).toContain(`source ${ASURA} (Asura Scans) is mapped to fixture-madara on ${fixture.origin}, remembered`)
    expect(mapped.out).toMatch(/Imported: 1 bookmarks and 1 Series added/)

    const later = await run(runImportCommand, file, '--reader', 'Aiko', '--data', dir, '--dry-run')
    expect(later.out).toContain(`Source Asura Scans (${ASURA}) is read as Fixture Scans (Madara) on ${fixture.origin}.`)
    expect(later.out).not.toContain('Backup sources with no Site')
  })

  it('a 2 GB file is refused by its size, before it is read', async () => {
    const dir = dataDir()
    await runReaderCommand(['add', 'Aiko', '--data', dir], { out: () => {}, err: () => {} })
    const file = join(dir, 'huge.tachibk')
    // A sparse file: 2 GiB long, nothing on disk.
    const handle = await open(file, 'w')
    await handle.truncate(2 * 1024 ** 3)
    await handle.close()
    const r = await run(runImportCommand, file, '--reader', 'Aiko', '--data', dir)
    expect(r).toMatchObject({
      code: 1,
      err: 'import: huge.tachibk: 2,147,483,648 bytes; an import reads files up to 64 MiB (67,108,864 bytes)',
    })
  })

  it.each([
    [[], 2, /usage/],
    [['a.txt', 'b.txt'], 2, /usage/],
    [['a.txt', '--map', 'nope'], 2, /--map nope: give SOURCE_ID=SITE or SOURCE_ID=URL/],
    [['missing.txt', '--reader', 'Nobody'], 1, /no Reader "Nobody"/],
  ])('refuses %j', async (argv, code, message) => {
    const r = await run(runImportCommand, ...argv, '--data', dataDir())
    expect(r.code).toBe(code)
    expect(r.err).toMatch(message)
  })

  it('a list of URLs needs a Reader', async () => {
    const dir = dataDir()
    const file = join(dir, 'list.txt')
    await writeFile(file, `${fixture.origin}/madara/manga/tower/\n`)
    const r = await run(runImportCommand, file, '--data', dir)
    expect(r).toMatchObject({ code: 1, err: expect.stringMatching(/choose the Reader/) })
  })
})

describe('npm run export', () => {
  it('--out writes one document that npm run import restores into an empty data directory', async () => {
    const dir = dataDir()
    // Added before the import's now: a time after it would be brought back to it (an import clamps times to now).
    await runReaderCommand(['add', 'Aiko', '--data', dir], { out: () => {}, err: () => {} }, process.env, 1_600_000_000_000)
    const list = join(dir, 'list.txt')
    await writeFile(list, `${fixture.origin}/madara/manga/tower/\n${fixture.origin}/themesia/manga/bloom/\n`)
    await run(runImportCommand, list, '--reader', 'Aiko', '--data', dir)
    const out = join(dir, 'library.json')
    // An earlier run's half-written document, made under the usual umask: the export is 0600 all the same.
    const umask = process.umask(0o022)
    await writeFile(`${out}.partial`, 'half')
    const exported = await run(runExportCommand, '--data', dir, '--out', out).finally(() => process.umask(umask))
    expect(exported).toMatchObject({ code: 0, err: `export: 2 Series, 2 bookmarks of 1 Readers written to ${out}` })
    expect((await stat(out)).mode & 0o777).toBe(0o600)

    const empty = dataDir()
    const restored = await run(runImportCommand, out, '--data', empty)
    expect(restored.code).toBe(0)
    expect(restored.out).toMatch(/Reader "Aiko" created\. Token, shown once:\n[A-Za-z0-9_-]{43}/)
    const again = await run(runExportCommand, '--data', empty)
    const first = JSON.parse(await readFile(out, 'utf8'))
    expect(JSON.parse(again.out)).toEqual(first)
  })
  it('records Lane pauses, and a restore pauses those Lanes again (a pause never outlasts the longest the app sets, nor shortens a longer one)', async () => {
    const NOW = 1_700_000_000_000
    const dir = dataDir()
    await runReaderCommand(['add', 'Aiko', '--data', dir], { out: () => {}, err: () => {} }, process.env, 1_600_000_000_000)
    const list = join(dir, 'list.txt')
    await writeFile(list, `${fixture.origin}/madara/manga/tower/\n`)
    await run(runImportCommand, list, '--reader', 'Aiko', '--data', dir)
    const paused = { 'fixture-madara': NOW + 3_600_000, 'fixture-themesia': NOW + 60_000 }
    await withStore(dir, async (db) => {
      for (const [site, until] of Object.entries(paused)) await pauseLane(db, site, until, NOW)
      await pauseLane(db, 'fixture-mangadex', NOW - 5, NOW - 10) // ended by the export's now: not recorded
    })
    const out = join(dir, 'library.json')
    await run(runExportCommand, '--data', dir, '--out', out)
    const doc = JSON.parse(await readFile(out, 'utf8')) as ExportDocument
    expect(doc.sites.filter((s) => s.pausedUntil).map((s) => [s.key, s.pausedUntil])).toEqual(Object.entries(paused))

    const empty = dataDir()
    // A Lane paused longer here already keeps its own pause.
    await withStore(empty, (db) => pauseLane(db, 'fixture-themesia', NOW + 7_200_000, NOW))
    const restored = await run(runImportCommand, out, '--data', empty)
    expect(restored.out).toContain('1 Lanes paused again, as the export recorded them.')
    expect(await withStore(empty, (db) => pausedLanes(db, NOW))).toEqual([
      expect.objectContaining({ site: 'fixture-madara', paused_until: NOW + 3_600_000 }),
      expect.objectContaining({ site: 'fixture-themesia', paused_until: NOW + 7_200_000 }),
    ])
    // A document pausing a Lane for a year (a stranger's file) pauses it at most the longest the app sets.
    const year = { ...doc, sites: doc.sites.map((s) => ({ ...s, pausedUntil: NOW + 365 * 86_400_000 })) }
    await writeFile(out, JSON.stringify(year))
    const third = dataDir()
    await run(runImportCommand, out, '--data', third)
    expect((await withStore(third, (db) => pausedLanes(db, NOW))).map((l) => l.paused_until)).toEqual([
      NOW + LONGEST_PAUSE_MS,
      NOW + LONGEST_PAUSE_MS,
    ])
  })
})

import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import { backupDatabase, backupName, backupsToKeep, backupTime, listBackups, pruneBackups } from './backups'

const DAY = 86_400_000
const NOW = Date.UTC(2026, 2, 31, 4, 0, 0)

describe('backup names', () => {
  it('carry their time, sortable, with no colon; anything else is not a backup', () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5, 6)
    expect(backupName(at)).toBe('manga-bookmark-2026-01-02T03-04-05-006Z.sqlite')
    expect(backupTime(backupName(at))).toBe(at)
    expect(backupTime('manga-bookmark.sqlite')).toBeNull()
    expect(backupTime(`${backupName(at)}.partial`)).toBeNull()
  })
})

describe('retention', () => {
  const daily = (days: number) => Array.from({ length: days }, (_, d) => ({ file: `d${d}`, at: NOW - d * DAY }))
  const kept = (list: Array<{ file: string; at: number }>) =>
    [...backupsToKeep(list, NOW)].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))
  it.each([
    ['three backups: all of them', daily(3), ['d0', 'd1', 'd2']],
    ['a week of dailies: all seven', daily(7), ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6']],
    // 2026-03-31 is a Tuesday and weeks are counted from the epoch, a Thursday: d6 (Wednesday) is the newest of
    // the week before this one, then d13, d20 and d27; d34 is more than a month old.
    [
      'sixty dailies: the last 7 and the newest of each week within a month',
      daily(60),
      ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd13', 'd20', 'd27'],
    ],
  ])('%s', (_name, list, expected) => {
    expect(kept(list)).toEqual(expected)
  })

  it('a week, once over, keeps the same backup whatever day retention runs', () => {
    const list = Array.from({ length: 60 }, (_, d) => ({ file: `d${d}`, at: NOW - d * DAY }))
    const weekly = (now: number) => [
      ...backupsToKeep(
        list.filter((b) => b.at <= now),
        now,
      ),
    ]
    // The backup kept for an old week on one day is still kept the next days (while within the month).
    for (let day = 0; day < 10; day++) expect(weekly(NOW - day * DAY)).toContain('d20')
  })
})

describe('a backup', () => {
  it.beforeEach(async ({ store }) => {
    const reader = await seedReader(store.db, 'aiko')
    await seedSeries(store.db, { id: 's1', readers: [reader], latest: 12 })
  })

  it('is a whole, checked copy of the open database, made while it stays open', async ({ store: s }) => {
    const dir = join(s.dir, 'backups')
    const made = await backupDatabase(s.sqlite, dir, NOW)
    expect(made).toMatchObject({ file: join(dir, backupName(NOW)), at: NOW })
    expect(readdirSync(dir)).toEqual([backupName(NOW)])
    const copy = new BetterSqlite3(made.file, { readonly: true })
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(copy.prepare('SELECT series_id, latest_chapter FROM series').all()).toEqual([{ series_id: 's1', latest_chapter: 12 }])
    copy.close()
    // The store still takes writes.
    await seedReader(s.db, 'bo')
  })

  // Stryker's vitest runner runs tests in worker threads, where process.umask cannot be set: skipped there.
  it.skipIf(process.env['MB_MUTATION_RUN'] === '1')(
    'is 0600 under the usual umask 022, as every file of the library is',
    async ({ store: s }) => {
      const umask = process.umask(0o022)
      try {
        const made = await backupDatabase(s.sqlite, join(s.dir, 'backups'), NOW)
        expect(statSync(made.file).mode & 0o777).toBe(0o600)
      } finally {
        process.umask(umask)
      }
    },
  )

  it('that cannot be written leaves no file behind and says where it failed', async ({ makeDir, store: s }) => {
    const blocker = makeDir('mb-backup-blocked-')
    // A file where the backups folder should be: the folder cannot be made.
    writeFileSync(join(blocker, 'backups'), 'not a folder')
    await expect(backupDatabase(s.sqlite, join(blocker, 'backups'), NOW)).rejects.toThrow(/^store: backup into .* failed: /)
    expect(readdirSync(blocker)).toEqual(['backups'])
  })

  it('pruning deletes what retention does not keep, and copies left half-made', async ({ store: s }) => {
    const dir = join(s.dir, 'backups')
    for (let d = 0; d < 12; d++) await backupDatabase(s.sqlite, dir, NOW - d * DAY)
    writeFileSync(join(dir, `${backupName(NOW + 1)}.partial`), 'half')
    const removed = pruneBackups(dir, NOW)
    // d7…d11 are neither among the 7 newest nor the newest of their week (d6 is).
    expect(removed).toHaveLength(5 + 1)
    expect(listBackups(dir).map((b) => (NOW - b.at) / DAY)).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(existsSync(join(dir, `${backupName(NOW + 1)}.partial`))).toBe(false)
  })
})

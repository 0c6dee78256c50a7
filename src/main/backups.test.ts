/**
 * Backups end to end (docs/adr/0048-backups.md): the daily schedule and its retention on a fake clock; "Back up
 * now" through the admin contract; `npm run backup` while the app runs; and a restore exactly as the README
 * says — the backup copied into a fresh data directory, the app started there, everything present.
 */
import { copyFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { FIRST_BACKUP_DELAY_MS } from './backup-schedule'
import { runBackupCommand } from './cli/backup'
import { startFixtureSite } from './demo/fixture-site'
import { fixtureSites } from './demo/fixture-sites'
import { BACKUP_DIR, listBackups } from './store/backups'
import { STORE_FILE } from './store/database'
import { describe, expect, it } from './testing/app-fixtures'
import { FakeClock } from './testing/clock'

const DAY = 86_400_000

describe('the daily backup', () => {
  it('is made a minute after the start and then once a day; retention keeps the last 7 and one per week for a month', async ({
    dataDir: data,
    startTestCore,
  }) => {
    const clock = new FakeClock(Date.UTC(2026, 2, 1, 3, 0, 0))
    const started = clock.now()
    // The file is looked at once a year here: only the backup schedule sleeps on the fake clock.
    await startTestCore({ dataDir: data, clock, storageCheckMs: 365 * DAY })
    const backups = () => listBackups(join(data, BACKUP_DIR))
    // A backup is real I/O: while one is written, the schedule has no timer and the test waits in real time;
    // otherwise it moves the fake clock to the schedule's next wake.
    const next = async () => {
      const newest = backups()[0]?.at ?? 0
      const realStart = Date.now()
      while ((backups()[0]?.at ?? 0) <= newest) {
        if (Date.now() - realStart > 15_000) throw new Error('no backup was made')
        const wake = clock.nextTimerAt
        if (wake !== undefined && wake - clock.monotonic() < 300 * DAY) await clock.runQuiet(wake - clock.monotonic())
        else await new Promise((resolve) => setTimeout(resolve, 2))
      }
    }
    await next()
    expect(backups().map((b) => b.at - started)).toEqual([FIRST_BACKUP_DELAY_MS])
    await next()
    expect(backups().map((b) => b.at - started)).toEqual([FIRST_BACKUP_DELAY_MS + DAY, FIRST_BACKUP_DELAY_MS])
    for (let day = 2; day < 45; day++) await next()
    const ages = backups().map((b) => Math.round((clock.now() - b.at) / DAY))
    expect(ages.slice(0, 7)).toEqual([0, 1, 2, 3, 4, 5, 6])
    // Then one per week, none older than a month.
    const weekly = ages.slice(7)
    expect(weekly.length).toBeGreaterThanOrEqual(3)
    expect(weekly.every((age) => age <= 31)).toBe(true)
    expect(weekly.slice(1).map((age, i) => age - weekly[i]!)).toEqual(weekly.slice(1).map(() => 7))
  })
})

describe('restore', () => {
  it('a backup copied into a fresh data directory starts with every Reader, token, bookmark, Progress, Sighting and setting', async ({
    makeDir,
    defer,
    startTestApp,
  }) => {
    // The fixture site on the first app's clock; each app on a fake clock of its own.
    const clock = new FakeClock()
    const fixture = await startFixtureSite({ now: () => clock.now() })
    defer(() => fixture.close())
    const start = (dataDir: string, appClock = new FakeClock()) =>
      startTestApp({ dataDir, clock: appClock, sites: fixtureSites(fixture.host), lanes: false })
    const original = makeDir('mb-original-')
    const app = await start(original, clock)
    const reader = (await app.admin.call('addReader', { name: 'aiko' })) as { ok: true; value: { token: string; reader: { id: number } } }
    const token = reader.value.token
    for (const slug of ['one', 'two'])
      await app.admin.call('addBookmark', { readerId: reader.value.reader.id, url: `${fixture.origin}/madara/manga/${slug}/` })
    const call = (origin: string, method: string, path: string, body?: unknown) =>
      fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }))
    expect((await call(app.origin, 'PATCH', '/api/v1/bookmarks/fixture-madara/one', { progress: 12, progressAt: 1_000 })).status).toBe(200)
    expect((await call(app.origin, 'POST', '/api/v1/sightings', { site: 'fixture-madara', seriesId: 'two', chapter: 40 })).status).toBe(202)
    await app.admin.call('updateSettings', { notifications: false })
    await app.admin.call('pauseLane', { site: 'fixture-themesia', duration: '24h' })

    const backedUp = (await app.admin.call('backupNow', {})) as { ok: true; value: { lastBackup: { file: string } } }
    expect(backedUp.ok).toBe(true)
    const backup = backedUp.value.lastBackup.file
    // While the app runs, `npm run backup` makes one too.
    const lines: string[] = []
    expect(await runBackupCommand(['--data', original], { out: (l) => lines.push(l), err: () => undefined })).toBe(0)
    expect(existsSync(lines[0]!)).toBe(true)
    // Written after the backup: not in it.
    await call(app.origin, 'PATCH', '/api/v1/bookmarks/fixture-madara/one', { progress: 13, progressAt: 2_000 })

    // The README's steps: a fresh data directory, the backup copied in as the database, start.
    const fresh = makeDir('mb-restored-')
    copyFileSync(backup, join(fresh, STORE_FILE))
    const restored = await start(fresh)
    const bookmarks = await call(restored.origin, 'GET', '/api/v1/bookmarks')
    expect(bookmarks.status).toBe(200)
    const rows = bookmarks.json.bookmarks as Array<{ seriesId: string; progress: number | null }>
    // 'two' was never read (no Lane runs here) and a Sighting far above nothing sets no Latest Chapter
    // (docs/adr/0081), so it has no Progress yet: caught up only at its first Latest Chapter (migration 0009).
    expect(rows.map((b) => [b.seriesId, b.progress]).sort()).toEqual([
      ['one', 12],
      ['two', null],
    ])
    const detail = (await restored.admin.call('seriesDetail', { site: 'fixture-madara', seriesId: 'two' })) as {
      value: { sightings: Array<{ chapter: number; readerName: string }> }
    }
    expect(detail.value.sightings).toMatchObject([{ chapter: 40, readerName: 'aiko' }])
    const settings = (await restored.admin.call('settings', {})) as { value: { settings: { notifications: boolean } } }
    expect(settings.value.settings.notifications).toBe(false)
    const lanes = (await restored.admin.call('lanes', {})) as { value: Array<{ site: string; pausedUntil: number }> }
    expect(lanes.value.find((l) => l.site === 'fixture-themesia')!.pausedUntil).toBeGreaterThan(0)
    expect((await restored.admin.call('overview', {})) as { value: { storage: { problem: unknown } } }).toMatchObject({
      value: { storage: { problem: null } },
    })
  })

  it('npm run backup says what is wrong when there is no database', async ({ dataDir: empty }) => {
    const errors: string[] = []
    expect(await runBackupCommand(['--data', empty], { out: () => undefined, err: (l) => errors.push(l) })).toBe(1)
    expect(errors[0]).toBe(`backup: no database at ${join(empty, STORE_FILE)}; give the data directory with --data`)
    expect(await runBackupCommand(['--nope'], { out: () => undefined, err: (l) => errors.push(l) })).toBe(2)
  })
})

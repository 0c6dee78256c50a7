import { afterEach, describe, expect, it } from 'vitest'
import { startHeadlessShell, type HeadlessShell } from '../headless/shell'
import { silentLog } from '../log'
import { latestPassPerSite } from '../store/passes'
import { listReaders } from '../store/readers'
import { addBookmark } from '../store/bookmarks'
import { addSeries } from '../store/series'
import { readDemoState } from './demo-state'
import { FakeClock } from '../testing/clock'
import { tempDir } from '../testing/store'

let shell: HeadlessShell | undefined
const dirs: Array<{ remove(): void }> = []
afterEach(async () => {
  await shell?.stop()
  shell = undefined
  dirs.splice(0).forEach((d) => d.remove())
})

describe('the demo', () => {
  it('seeds a catalogue in its own database and its Lanes work within seconds, with no internet', async () => {
    const d = tempDir()
    dirs.push(d)
    const clock = new FakeClock()
    shell = await startHeadlessShell({ dataDir: d.dir, port: 0, log: silentLog, clock, demo: true })
    expect(shell.dataFile).toBe(`${d.dir}/demo/manga-bookmark.sqlite`)
    expect(shell.demoReaders.map((r) => r.name)).toEqual(['Aiko', 'Ben'])
    expect(shell.demoReaders.every((r) => r.token.length >= 43)).toBe(true)
    const db = shell.core.store.db
    const series = await db.selectFrom('series').select(['site']).execute()
    expect(series.length).toBeGreaterThanOrEqual(12)
    expect(new Set(series.map((s) => s.site)).size).toBeGreaterThanOrEqual(5)

    await clock.runFor(20_000)
    const passes = await latestPassPerSite(db)
    const bySite = Object.fromEntries(passes.map((p) => [p.site, p]))
    expect(bySite['fixture-madara']).toMatchObject({ skip: '' })
    expect(bySite['fixture-madara']!.checked).toBeGreaterThan(0)
    expect(bySite['fixture-refusing']?.skip).toBe('refusing')
    // No browser in this test: the challenge Site says why it declined.
    expect(bySite['fixture-challenge']?.skip).toBe('no-fetcher')
  })

  it("keeps the owner's database apart and seeds only once", async () => {
    const d = tempDir()
    dirs.push(d)
    const clock = new FakeClock()
    shell = await startHeadlessShell({ dataDir: d.dir, port: 0, log: silentLog, clock, demo: true, lanes: false })
    await shell.stop()
    shell = await startHeadlessShell({ dataDir: d.dir, port: 0, log: silentLog, clock, demo: true, lanes: false })
    expect(shell.demoReaders).toEqual([])
    expect((await listReaders(shell.core.store.db)).map((r) => r.name)).toEqual(['Aiko', 'Ben'])
  })

  it("keeps its Sites' port, chapters and titles across a restart: no chapter published twice, every link still opens", async () => {
    const d = tempDir()
    dirs.push(d)
    const clock = new FakeClock()
    shell = await startHeadlessShell({ dataDir: d.dir, port: 0, log: silentLog, clock, demo: true })
    await clock.runFor(5 * 60_000)
    const db = () => shell!.core.store.db
    const before = await db()
      .selectFrom('series')
      .select(['site', 'series_id', 'title', 'latest_chapter', 'latest_chapter_url'])
      .orderBy('series_id')
      .execute()
    const state = readDemoState(`${d.dir}/demo`)
    expect(state.port).toBeGreaterThan(0)
    expect(Object.keys(state.publishedAt).length).toBeGreaterThan(0)
    await shell.stop()

    shell = await startHeadlessShell({ dataDir: d.dir, port: 0, log: silentLog, clock, demo: true })
    await clock.runFor(90_000)
    const after = await db()
      .selectFrom('series')
      .select(['site', 'series_id', 'title', 'latest_chapter', 'latest_chapter_url'])
      .orderBy('series_id')
      .execute()
    for (const was of before) {
      const now = after.find((s) => s.site === was.site && s.series_id === was.series_id)!
      // Same title (the MangaDex one too, whichever of its pages is read first), never a chapter back.
      expect(now.title).toBe(was.title)
      expect(now.latest_chapter ?? 0).toBeGreaterThanOrEqual(was.latest_chapter ?? 0)
      if (was.latest_chapter_url)
        expect([was.latest_chapter_url, (await fetch(was.latest_chapter_url)).status]).toEqual([was.latest_chapter_url, 200])
    }
    expect(after.find((s) => s.site === 'fixture-mangadex')!.title).toBe('Komi Can T Communicate')
    const kept = readDemoState(`${d.dir}/demo`)
    expect(kept.port).toBe(state.port)
    // The Sites start where they were: every Series at the chapter it had reached, or past it.
    for (const [key, was] of Object.entries(state.series)) expect(kept.series[key]!.latest).toBeGreaterThanOrEqual(was.latest)
  })

  it('gives a Series a Reader just bookmarked its next chapter within two minutes', async () => {
    const d = tempDir()
    dirs.push(d)
    const clock = new FakeClock()
    shell = await startHeadlessShell({ dataDir: d.dir, port: 0, log: silentLog, clock, demo: true })
    await clock.runFor(30_000)
    const db = shell.core.store.db
    const [, ben] = await listReaders(db)
    const key = { site: 'fixture-themesia', seriesId: 'brand-new-tale' }
    const latest = async () =>
      (await db.selectFrom('series').select(['latest_chapter']).where('series_id', '=', key.seriesId).executeTakeFirstOrThrow())
        .latest_chapter
    const bookmarkedAt = clock.now()
    await addSeries(db, {
      ...key,
      seriesUrl: `${shell.demoOrigin}/themesia/manga/brand-new-tale/`,
      title: 'Brand New Tale',
      now: bookmarkedAt,
    })
    await addBookmark(db, { ...key, readerId: ben!.id, now: bookmarkedAt })
    // Its first check reads where it stands; the next chapter is published after it, and read within two minutes.
    while ((await latest()) === null) await clock.runFor(1_000)
    const first = (await latest())!
    await clock.runFor(bookmarkedAt + 120_000 - clock.now())
    expect(await latest()).toBe(first + 1)
  })
})

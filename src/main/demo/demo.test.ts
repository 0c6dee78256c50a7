import { afterEach, describe, expect, it } from 'vitest'
import { startHeadlessShell, type HeadlessShell } from '../headless/shell'
import { silentLog } from '../log'
import { latestPassPerSite } from '../store/passes'
import { listReaders } from '../store/readers'
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
})

/**
 * Lanes on a full disk (a real tmpfs filled to its last byte; only the clock is fake): no request goes out
 * while no check stamp can be written, every pass still ends, and its row is written — with its own times,
 * in order — as soon as the store takes writes again (docs/adr/0045-storage-faults.md).
 */
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { FetchResult } from '../fetch/fetcher'
import { silentLog } from '../log'
import { openStore, STORE_FILE, type Store } from '../store/database'
import { recentPasses } from '../store/passes'
import { FakeClock } from '../testing/clock'
import { chapterPage, testSite } from '../testing/fakes'
import { mountSmallTmpfs, type SmallTmpfs } from '../testing/faults'
import { seedReader, seedSeries } from '../testing/store'
import { startLanes, type Lanes } from './lane'
import { UnwrittenPasses, type PassResult } from './pass'

const MIN = 60_000
const tmpfs = mountSmallTmpfs(4 * 1024 * 1024)
const mounted = 'dir' in tmpfs ? (tmpfs as SmallTmpfs) : null
const skip = 'skip' in tmpfs ? tmpfs.skip : ''
afterAll(() => mounted?.unmount())

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  mounted?.free()
})

describe.skipIf(!mounted)(`a Lane on a full disk${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('sends nothing while it cannot stamp, ends every pass, and writes the held rows with their own times once it can', async () => {
    const clock = new FakeClock()
    const store: Store = openStore(join(mounted!.dir, `lane-${Date.now()}`, STORE_FILE), { now: clock.now() })
    cleanups.push(() => store.close())
    const alice = await seedReader(store.db, 'alice')
    for (const id of ['s0', 's1']) await seedSeries(store.db, { id, readers: [alice] })
    const requests: number[] = []
    const http = {
      kind: 'http' as const,
      async fetch(): Promise<FetchResult> {
        requests.push(clock.now())
        return chapterPage(7)
      },
    }
    const results: PassResult[] = []
    const site = testSite('a', { pace: { restMs: 20 * MIN, minGapMs: 1_000, maxPassMs: 60 * MIN, idleRequeryMs: 5 * MIN } })
    const lanes: Lanes = await startLanes({
      db: store.db,
      sites: [site],
      fetchers: { http },
      clock,
      log: silentLog,
      onPass: (_s, r) => results.push(r),
    })
    cleanups.push(() => lanes.stop())
    await clock.runQuiet(30 * MIN)
    const before = (await recentPasses(store.db, 'a', 1000)).length
    expect(before).toBeGreaterThan(0)

    mounted!.fill()
    const fullAt = clock.now()
    const requestsBefore = requests.length
    results.length = 0
    await clock.runQuiet(60 * MIN)
    expect(requests.length, 'no request while no check stamp can be written').toBe(requestsBefore)
    expect(results.length, 'passes still end').toBeGreaterThanOrEqual(10)
    expect(results.every((r) => r.row === null && r.unwritten)).toBe(true)
    const held = results.map((r) => r.unwritten!)
    // The passes with Series due say what happened: one check, an error, the pass ended — never a stall.
    const working = held.filter((p) => p.due > 0)
    expect(working.length).toBeGreaterThan(5)
    expect(working.every((p) => p.skip === '' && p.checked === 1 && p.errors === 1)).toBe(true)
    expect(store.health.fault()).toMatchObject({ kind: 'full' })
    expect((await recentPasses(store.db, 'a', 1000)).length).toBe(before)

    mounted!.free()
    await clock.runQuiet(30 * MIN)
    const after = (await recentPasses(store.db, 'a', 1000)).reverse()
    const written = after.slice(before)
    // Every held row is there, in order, with the times of its own pass, before the rows of later passes.
    expect(written.slice(0, held.length).map((r) => [r.started_at, r.ended_at, r.skip, r.errors])).toEqual(
      held.map((p) => [p.started_at, p.ended_at, p.skip, p.errors]),
    )
    expect(written[0]!.started_at).toBeGreaterThanOrEqual(fullAt)
    expect(written.length).toBeGreaterThan(held.length)
    expect(requests.length).toBeGreaterThan(requestsBefore)
    expect(store.health.fault()).toBeNull()
  })
})

describe('the rows a Lane holds', () => {
  it('keep the first and the newest when more than the limit are held', () => {
    const unwritten = new UnwrittenPasses(3)
    const row = (n: number) => ({ site: 'a', started_at: n }) as Parameters<UnwrittenPasses['hold']>[0]
    for (const n of [1, 2, 3, 4, 5]) unwritten.hold(row(n))
    expect(unwritten.rows.map((r) => r.started_at)).toEqual([1, 4, 5])
    expect(unwritten.dropped).toBe(2)
    unwritten.clear()
    expect([unwritten.rows.length, unwritten.dropped]).toEqual([0, 0])
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type SeedSeries, type TestStore } from '../testing/store'
import { dueFigures, dueSeries, eligibleCount } from './due'

const HOUR = 3_600_000
const NOW = 1_000 * HOUR
const REST = HOUR
const CEILING = 24 * HOUR
const cutoffs = { restCutoff: NOW - REST, ceilingCutoff: NOW - CEILING }

let store: TestStore
let alice: number
let bob: number

beforeEach(async () => {
  store = openTestStore()
  alice = await seedReader(store.db, 'alice')
  bob = await seedReader(store.db, 'bob')
})
afterEach(() => store.dispose())

const due = async () => (await dueSeries(store.db, 'a', cutoffs)).map((s) => s.series_id)

/**
 * One Series per case, each built so that removing one clause of the due query flips its answer.
 * `readers` is filled in with alice (and bob where two are needed).
 */
const cases: Array<[name: string, series: Omit<SeedSeries, 'id'> & { two?: boolean; none?: boolean }, isDue: boolean]> = [
  ['never checked, never sighted, one Reader: due', {}, true],
  ['checked within the rest: not due (rest cutoff)', { checkedAt: NOW - 10 * 60_000 }, false],
  [
    'checked within the rest but forced: due (force overrides the rest cutoff)',
    { checkedAt: NOW - 10 * 60_000, forcedAt: NOW - 60_000 },
    true,
  ],
  [
    'force already served (force stamp before the check stamp): not due',
    { checkedAt: NOW - 10 * 60_000, forcedAt: NOW - 20 * 60_000 },
    false,
  ],
  ['one Reader, sighted within the rest, checked 2h ago: deferred', { checkedAt: NOW - 2 * HOUR, sightedAt: NOW - 10 * 60_000 }, false],
  [
    'two Readers, sighted within the rest: due (deferral is for one Reader)',
    { checkedAt: NOW - 2 * HOUR, sightedAt: NOW - 10 * 60_000, two: true },
    true,
  ],
  [
    'one Reader, sighted recently, checked past the ceiling: due (ceiling)',
    { checkedAt: NOW - 25 * HOUR, sightedAt: NOW - 10 * 60_000 },
    true,
  ],
  [
    'one Reader, sighted recently, forced: due (force overrides the deferral)',
    { checkedAt: NOW - 2 * HOUR, sightedAt: NOW - 10 * 60_000, forcedAt: NOW - 1 },
    true,
  ],
  ['one Reader, sighted before the rest window, checked 2h ago: due', { checkedAt: NOW - 2 * HOUR, sightedAt: NOW - 3 * HOUR }, true],
  ['Finished: not due', { checkedAt: NOW - 48 * HOUR, finishedAt: NOW - HOUR }, false],
  [
    'Finished and forced: due (force overrides the Finished gate)',
    { checkedAt: NOW - 48 * HOUR, finishedAt: NOW - HOUR, forcedAt: NOW - 1 },
    true,
  ],
  ['no series_url: not due', { url: '' }, false],
  ['no series_url and forced: still not due', { url: '', forcedAt: NOW - 1 }, false],
  ['orphan (no Reader): not due', { none: true }, false],
  ['orphan and forced: still not due', { none: true, forcedAt: NOW - 1 }, false],
  ['another Site: not due here', { site: 'b' }, false],
]

describe('due query', () => {
  it.each(cases)('%s', async (_name, spec, isDue) => {
    const readers = spec.none ? [] : spec.two ? [alice, bob] : [alice]
    await seedSeries(store.db, { ...spec, id: 'x', readers })
    expect(await due()).toEqual(isDue ? ['x'] : [])
  })

  it('orders forced first, then by Reader count, then by oldest check', async () => {
    await seedSeries(store.db, { id: 'old-one-reader', checkedAt: NOW - 5 * HOUR, readers: [alice] })
    await seedSeries(store.db, { id: 'older-one-reader', checkedAt: NOW - 9 * HOUR, readers: [alice] })
    await seedSeries(store.db, { id: 'two-readers', checkedAt: NOW - 2 * HOUR, readers: [alice, bob] })
    await seedSeries(store.db, { id: 'forced-recent', checkedAt: NOW - 60_000, forcedAt: NOW - 1, readers: [alice] })
    expect(await due()).toEqual(['forced-recent', 'two-readers', 'older-one-reader', 'old-one-reader'])
  })

  it('reports the Reader count and the forced flag of each row', async () => {
    await seedSeries(store.db, { id: 'x', forcedAt: NOW, readers: [alice, bob] })
    const [row] = await dueSeries(store.db, 'a', cutoffs)
    expect(row).toMatchObject({ series_id: 'x', reader_count: 2, forced: 1 })
  })
})

describe('eligible count', () => {
  it('counts Series with a URL, a Reader and not Finished', async () => {
    await seedSeries(store.db, { id: 'eligible-1', readers: [alice] })
    await seedSeries(store.db, { id: 'eligible-2', readers: [alice, bob], checkedAt: NOW - 60_000 })
    await seedSeries(store.db, { id: 'no-url', url: '', readers: [alice] })
    await seedSeries(store.db, { id: 'orphan' })
    await seedSeries(store.db, { id: 'finished', finishedAt: 5, readers: [alice] })
    await seedSeries(store.db, { id: 'other-site', site: 'b', readers: [alice] })
    expect(await eligibleCount(store.db, 'a')).toBe(2)
  })

  it('ignores force: a forced Finished Series is due but not eligible', async () => {
    await seedSeries(store.db, { id: 'eligible', readers: [alice] })
    await seedSeries(store.db, { id: 'finished-forced', finishedAt: 5, forcedAt: NOW, readers: [alice] })
    expect(await due()).toContain('finished-forced')
    expect(await eligibleCount(store.db, 'a')).toBe(1)
  })
})

describe('the due query read in part', () => {
  beforeEach(async () => {
    // Every kind of Series the due query tells apart, many times over, with Reader counts and stamps that tie.
    await store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 300; i++) {
        await seedSeries(trx, {
          id: `s${String(i).padStart(3, '0')}`,
          checkedAt: i % 13 === 0 ? 0 : NOW - ((i * 37) % 5) * HOUR,
          ...(i % 11 === 0 ? { sightedAt: NOW - 60_000 } : {}),
          ...(i % 17 === 0 ? { forcedAt: NOW } : {}),
          ...(i % 19 === 0 ? { finishedAt: 5 } : {}),
          ...(i % 23 === 0 ? { url: '' } : {}),
          readers: i % 29 === 0 ? [] : i % 3 === 0 ? [alice, bob] : [alice],
        })
      }
    })
  })

  it('the due figure counts what the whole due query returns: how many, how many forced, the oldest stamp', async () => {
    const all = await dueSeries(store.db, 'a', cutoffs)
    expect(all.length).toBeGreaterThan(50)
    expect(await dueFigures(store.db, 'a', cutoffs)).toEqual({
      due: all.length,
      forced: all.filter((s) => s.forced).length,
      oldestCheckedAt: Math.min(...all.map((s) => s.latest_checked_at)),
    })
    expect(await dueFigures(store.db, 'b', cutoffs)).toEqual({ due: 0, forced: 0, oldestCheckedAt: 0 })
  })

  it.each([1, 2, 7, 40, 1000])('a pass reading %i gets the first rows of the whole due query, by either read', async (limit) => {
    const all = (await dueSeries(store.db, 'a', cutoffs)).map((s) => s.series_id)
    const figures = await dueFigures(store.db, 'a', cutoffs)
    const ids = async (f?: { due: number; forced: number }) => (await dueSeries(store.db, 'a', cutoffs, limit, f)).map((s) => s.series_id)
    expect(await ids(figures)).toEqual(all.slice(0, limit))
    // The figures only choose between two reads of the same rows: the ordered walk or the sorted range.
    expect(await ids({ due: 100_000, forced: figures.forced })).toEqual(all.slice(0, limit))
    expect(await ids()).toEqual(all.slice(0, limit))
  })
})

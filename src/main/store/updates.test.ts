/**
 * The Updates page and the Overview's count: what arrived, read from the Latest Chapter history the checks and
 * Sightings write. Real SQLite file.
 */
import { describe, expect, test } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import { recordCheckResult } from './series'
import { recordSighting } from './sightings'
import { newChapterCount, newChapterUpdates } from './updates'

let alice: number
const found = (chapter: number) => ({ chapter, label: `Chapter ${chapter}`, url: `https://a.example/c/${chapter}` })
/** `check(series, chapter, now)`: a check of a Series that found this chapter. */
const it = test.extend(
  'check',
  ({ store }) =>
    (seriesId: string, chapter: number, now: number) =>
      recordCheckResult(store.db, { site: 'a', seriesId, found: found(chapter), now }),
)

it.beforeEach(async ({ store }) => {
  alice = await seedReader(store.db, 'alice')
  await seedSeries(store.db, { id: 'x', title: 'Ex', readers: [alice] })
  await seedSeries(store.db, { id: 'y', title: 'Why', readers: [alice] })
})

describe('the Updates list', () => {
  it("lists a check's moves past a known chapter, newest first; a first read, a Sighting's raise and a correction are not New Chapters", async ({
    store,
    check,
  }) => {
    await check('x', 10, 100) // the first read: no New Chapter
    await check('y', 3, 110) // the first read
    await check('x', 11, 200) // New Chapter
    await recordSighting(store.db, { site: 'a', seriesId: 'y', readerId: alice, chapter: 5, sightedAt: 250, now: 250 }) // a Sighting's raise
    await check('y', 6, 300) // New Chapter, past the checked 3 (and the sighted 5)
    await check('x', 12, 400) // New Chapter
    const updates = await newChapterUpdates(store.db, { limit: 10 })
    expect(updates.map((u) => [u.series_id, u.title, u.chapter, u.previous, u.at])).toEqual([
      ['x', 'Ex', 12, 11, 400],
      ['y', 'Why', 6, 3, 300],
      ['x', 'Ex', 11, 10, 200],
    ])
    expect(updates[0]).toMatchObject({ site: 'a', label: 'Chapter 12' })
  })

  it('pages: at most `limit`, and the next page starts before the last row shown', async ({ store, check }) => {
    await check('x', 1, 100)
    for (let n = 2; n <= 6; n++) await check('x', n, 100 * n)
    const first = await newChapterUpdates(store.db, { limit: 2 })
    expect(first.map((u) => u.chapter)).toEqual([6, 5])
    const next = await newChapterUpdates(store.db, { limit: 2, before: first.at(-1)!.id })
    expect(next.map((u) => u.chapter)).toEqual([4, 3])
    const last = await newChapterUpdates(store.db, { limit: 2, before: next.at(-1)!.id })
    expect(last.map((u) => u.chapter)).toEqual([2])
    expect(await newChapterUpdates(store.db, { limit: 2, before: last.at(-1)!.id })).toEqual([])
  })
})

describe("the Overview's count of New Chapters", () => {
  it('counts the Series that moved forward at or after a time; none when nothing did', async ({ store, check }) => {
    expect(await newChapterCount(store.db, 1)).toBe(0)
    await check('x', 10, 100)
    await check('x', 11, 200)
    await check('y', 3, 150)
    await check('y', 4, 300)
    expect(await newChapterCount(store.db, 200)).toBe(2)
    expect(await newChapterCount(store.db, 201)).toBe(1)
    expect(await newChapterCount(store.db, 301)).toBe(0)
  })
})

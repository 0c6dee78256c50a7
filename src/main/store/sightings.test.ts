import { describe, expect, test } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import { latestChapterHistory, requireSeries } from './series'
import { pruneOutstandingSightings } from './maintenance'
import { lastSightingId, recordSighting, seriesSightings, SIGHTING_MAX_LEAD } from './sightings'

const key = { site: 'a', seriesId: 's' }

/** `sight(reader, chapter, at)`: a Sighting of the Series; `history()`: its Latest Chapter's history. */
const it = test
  .extend(
    'sight',
    ({ store }) =>
      (readerId: number, chapter: number, at: number) =>
        recordSighting(store.db, { ...key, readerId, chapter, sightedAt: at, now: at }),
  )
  .extend(
    'history',
    ({ store }) =>
      async () =>
        (await latestChapterHistory(store.db, key)).map((h) => ({ chapter: h.chapter, source: h.source, at: h.at })),
  )

let aiko: number
let bo: number
it.beforeEach(async ({ store }) => {
  aiko = await seedReader(store.db, 'aiko')
  bo = await seedReader(store.db, 'bo')
})

describe('a Sighting', () => {
  it('raises a higher chapter provisionally: no label or link of its own, and a history row', async ({ store, sight, history }) => {
    await seedSeries(store.db, { id: 's', latest: 5, readers: [aiko] })
    await store.db.updateTable('series').set({ latest_chapter_label: 'Chapter 5', latest_chapter_url: 'https://a.example/c/5' }).execute()
    expect((await sight(aiko, 6, 100)).raised).toBe(true)
    expect(await requireSeries(store.db, key)).toMatchObject({
      latest_chapter: 6,
      latest_chapter_label: '',
      latest_chapter_url: '',
      latest_source: 'sighting',
      latest_changed_at: 100,
      latest_sighted_at: 100,
    })
    expect(await history()).toEqual([{ chapter: 6, source: 'sighting', at: 100 }])
  })

  it('on a Series with nothing known raises even chapter 0', async ({ store, sight, history }) => {
    await seedSeries(store.db, { id: 's', readers: [aiko] })
    expect((await sight(aiko, 0, 100)).raised).toBe(true)
    expect(await requireSeries(store.db, key)).toMatchObject({ latest_chapter: 0, latest_source: 'sighting' })
    expect(await history()).toEqual([{ chapter: 0, source: 'sighting', at: 100 }])
  })

  it('of the Latest Chapter or lower raises nothing and writes no history, but is stamped', async ({ store, sight, history }) => {
    await seedSeries(store.db, { id: 's', latest: 5, readers: [aiko] })
    expect((await sight(aiko, 5, 100)).raised).toBe(false)
    expect(await requireSeries(store.db, key)).toMatchObject({
      latest_chapter: 5,
      latest_source: 'check',
      latest_changed_at: 0,
      latest_sighted_at: 100,
    })
    expect(await history()).toEqual([])
  })

  it('of a Series that does not exist is not-found, and nothing is recorded', async ({ store, sight }) => {
    await expect(sight(aiko, 3, 100)).rejects.toMatchObject({ code: 'not-found' })
    expect(await store.db.selectFrom('sightings').selectAll().execute()).toEqual([])
  })
})

describe("a Series' Sightings", () => {
  it('the newest is the one a check judges up to; none is 0', async ({ store, sight }) => {
    await seedSeries(store.db, { id: 's', readers: [aiko, bo] })
    await seedSeries(store.db, { id: 't', readers: [aiko] })
    expect(await lastSightingId(store.db, key)).toBe(0)
    const first = await sight(aiko, 3, 100)
    const second = await sight(bo, 4, 200)
    await recordSighting(store.db, { site: 'a', seriesId: 't', readerId: aiko, chapter: 1, sightedAt: 300, now: 300 })
    expect(second.sighting.id).toBeGreaterThan(first.sighting.id)
    expect(await lastSightingId(store.db, key)).toBe(second.sighting.id)
  })

  it('are listed newest first with the name of the Reader who reported each', async ({ store, sight }) => {
    await seedSeries(store.db, { id: 's', readers: [aiko, bo] })
    await seedSeries(store.db, { id: 't', readers: [aiko] })
    await sight(aiko, 3, 100)
    await sight(bo, 4, 200)
    await recordSighting(store.db, { site: 'a', seriesId: 't', readerId: aiko, chapter: 1, sightedAt: 300, now: 300 })
    expect((await seriesSightings(store.db, key)).map((g) => [g.reader_name, g.chapter, g.verdict])).toEqual([
      ['bo', 4, ''],
      ['aiko', 3, ''],
    ])
    expect(await seriesSightings(store.db, key, 1)).toHaveLength(1)
  })
})

describe('a Sighting cannot mislead the other Readers (docs/adr/0081-one-reader-bounded.md)', () => {
  it(`more than ${SIGHTING_MAX_LEAD} chapters above the Latest Chapter is held for a check: recorded, shown to nobody`, async ({
    store,
    sight,
    history,
  }) => {
    await seedSeries(store.db, { id: 's', latest: 12, readers: [aiko, bo] })
    expect(await sight(aiko, 99_999, 100)).toMatchObject({ raised: false, held: true })
    expect(await requireSeries(store.db, key)).toMatchObject({ latest_chapter: 12, latest_source: 'check', latest_sighted_at: 100 })
    expect(await history()).toEqual([])
    expect((await seriesSightings(store.db, key)).map((g) => [g.chapter, g.verdict])).toEqual([[99_999, '']])
    // At the bound it raises.
    expect(await sight(bo, 12 + SIGHTING_MAX_LEAD, 200)).toMatchObject({ raised: true, held: false })
  })

  it('is bounded from the chapter a check last found: 100 Sightings in steps of the bound never walk it up', async ({ store, sight }) => {
    await seedSeries(store.db, { id: 's', latest: 998, readers: [aiko, bo] })
    for (let n = 1; n <= 100; n++) await sight(n % 2 ? aiko : bo, 998 + n * SIGHTING_MAX_LEAD, 100 + n)
    expect(await requireSeries(store.db, key)).toMatchObject({
      latest_chapter: 998 + SIGHTING_MAX_LEAD,
      latest_source: 'sighting',
      checked_chapter: 998,
    })
    // Within the bound of the checked chapter a later Sighting still raises (and a lower one leaves it).
    await sight(aiko, 1_005, 300)
    await sight(bo, 1_007, 301)
    expect((await requireSeries(store.db, key)).latest_chapter).toBe(998 + SIGHTING_MAX_LEAD)
    await sight(bo, 999, 302)
    expect((await requireSeries(store.db, key)).latest_chapter).toBe(998 + SIGHTING_MAX_LEAD)
  })

  it('on a Series with nothing known, Sightings in steps stay within the bound of nothing', async ({ store, sight }) => {
    await seedSeries(store.db, { id: 's', readers: [aiko, bo] })
    for (let n = 1; n <= 10; n++) await sight(n % 2 ? aiko : bo, n * SIGHTING_MAX_LEAD, 100 + n)
    expect(await requireSeries(store.db, key)).toMatchObject({ latest_chapter: SIGHTING_MAX_LEAD, checked_chapter: null })
  })

  it('on a Series with nothing known, a far chapter is held as well', async ({ store, sight }) => {
    await seedSeries(store.db, { id: 's', readers: [aiko] })
    expect(await sight(aiko, 5_000, 100)).toMatchObject({ raised: false, held: true })
    expect((await requireSeries(store.db, key)).latest_chapter).toBeNull()
  })

  it("a Reader's new Sighting replaces their outstanding one: a Reader leaves at most one per bookmark waiting", async ({
    store,
    sight,
  }) => {
    await seedSeries(store.db, { id: 's', latest: 5, readers: [aiko, bo] })
    for (let at = 1; at <= 50; at++) await sight(aiko, 6, at)
    await sight(bo, 7, 60)
    expect((await seriesSightings(store.db, key)).map((g) => [g.reader_name, g.chapter, g.sighted_at])).toEqual([
      ['bo', 7, 60],
      ['aiko', 6, 50],
    ])
  })

  it('one no check judged goes after the retention; a judged one is not touched by it', async ({ store, sight }) => {
    await seedSeries(store.db, { id: 's', latest: 5, readers: [aiko, bo] })
    await sight(aiko, 6, 100)
    await sight(bo, 7, 900)
    await store.db.updateTable('sightings').set({ verdict: 'confirmed', judged_at: 100 }).where('reader_id', '=', aiko).execute()
    await sight(aiko, 8, 200)
    expect(await pruneOutstandingSightings(store.db, 500)).toBe(1)
    expect((await seriesSightings(store.db, key)).map((g) => [g.reader_name, g.chapter, g.verdict])).toEqual([
      ['bo', 7, ''],
      ['aiko', 6, 'confirmed'],
    ])
  })
})

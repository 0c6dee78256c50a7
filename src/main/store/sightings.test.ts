import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { latestChapterHistory, requireSeries } from './series'
import { lastSightingId, recordSighting, seriesSightings } from './sightings'

const key = { site: 'a', seriesId: 's' }

let store: TestStore
let aiko: number
let bo: number
beforeEach(async () => {
  store = openTestStore()
  aiko = await seedReader(store.db, 'aiko')
  bo = await seedReader(store.db, 'bo')
})
afterEach(() => store.dispose())

const sight = (readerId: number, chapter: number, at: number) =>
  recordSighting(store.db, { ...key, readerId, chapter, sightedAt: at, now: at })
const history = async () => (await latestChapterHistory(store.db, key)).map((h) => ({ chapter: h.chapter, source: h.source, at: h.at }))

describe('a Sighting', () => {
  it('raises a higher chapter provisionally: no label or link of its own, and a history row', async () => {
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

  it('on a Series with nothing known raises even chapter 0', async () => {
    await seedSeries(store.db, { id: 's', readers: [aiko] })
    expect((await sight(aiko, 0, 100)).raised).toBe(true)
    expect(await requireSeries(store.db, key)).toMatchObject({ latest_chapter: 0, latest_source: 'sighting' })
    expect(await history()).toEqual([{ chapter: 0, source: 'sighting', at: 100 }])
  })

  it('of the Latest Chapter or lower raises nothing and writes no history, but is stamped', async () => {
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

  it('of a Series that does not exist is not-found, and nothing is recorded', async () => {
    await expect(sight(aiko, 3, 100)).rejects.toMatchObject({ code: 'not-found' })
    expect(await store.db.selectFrom('sightings').selectAll().execute()).toEqual([])
  })
})

describe("a Series' Sightings", () => {
  it('the newest is the one a check judges up to; none is 0', async () => {
    await seedSeries(store.db, { id: 's', readers: [aiko, bo] })
    await seedSeries(store.db, { id: 't', readers: [aiko] })
    expect(await lastSightingId(store.db, key)).toBe(0)
    const first = await sight(aiko, 3, 100)
    const second = await sight(bo, 4, 200)
    await recordSighting(store.db, { site: 'a', seriesId: 't', readerId: aiko, chapter: 1, sightedAt: 300, now: 300 })
    expect(second.sighting.id).toBeGreaterThan(first.sighting.id)
    expect(await lastSightingId(store.db, key)).toBe(second.sighting.id)
  })

  it('are listed newest first with the name of the Reader who reported each', async () => {
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

/**
 * The admin contract says why (docs/adr/0055-series-say-why.md): each Series row carries what it waits for —
 * its Lane's pause, its Site's refusal, its next check — the Overview counts the New Chapters, the Updates page
 * lists them newest first, and a new token comes with the address a Reader opens. The real app on a real
 * store, no Lanes running.
 */
import { recordRefusal } from '../store/lanes'
import { markLatestChecked, recordCheckOutcome, recordCheckResult } from '../store/series'
import { recordSighting } from '../store/sightings'
import { describe, expect, fileAppTest as it } from '../testing/app-fixtures'
import { seedReader, seedSeries } from '../testing/store'

const MIN = 60_000
const HOUR = 60 * MIN

describe('what a Series waits for', () => {
  it('a Check now on a refusing Site says the Site refuses until when, and that the check will wait', async ({ app, clock, db }) => {
    const reader = await seedReader(db)
    await seedSeries(db, { site: 'fixture-refusing', id: 'grump', readers: [reader], checkedAt: clock.now() - 5 * MIN })
    await recordRefusal(db, 'fixture-refusing', clock.now() + 15 * MIN)
    const row = await app.api.forceSeriesPoll({ site: 'fixture-refusing', seriesId: 'grump' })
    expect(row.pending).toBe(true)
    expect(row.waiting).toEqual({ kind: 'refusing', until: clock.now() + 15 * MIN })
  })

  it('a paused Lane, and a Series checked within its rest, say so in the list', async ({ app, clock, db }) => {
    const reader = await seedReader(db)
    await seedSeries(db, {
      site: 'fixture-madara',
      id: 'calm',
      readers: [reader, await seedReader(db)],
      checkedAt: clock.now() - 10 * MIN,
    })
    await seedSeries(db, { site: 'fixture-themesia', id: 'held', readers: [reader], checkedAt: clock.now() - 10 * MIN })
    await app.api.pauseLane({ site: 'fixture-themesia', duration: '1h' })
    const page = await app.api.listSeries({ search: 'l' })
    const waiting = Object.fromEntries(page.rows.map((r) => [r.seriesId, r.waiting]))
    expect(waiting.calm).toEqual({ kind: 'next-check', at: clock.now() + 50 * MIN })
    expect(waiting.held).toEqual({ kind: 'paused', until: clock.now() + HOUR })
    await app.api.resumeLane({ site: 'fixture-themesia' })
    expect((await app.api.seriesDetail({ site: 'fixture-themesia', seriesId: 'held' })).row.waiting.kind).toBe('next-check')
  })

  it('a browser Site with no browser waits for one', async ({ app, db }) => {
    const reader = await seedReader(db)
    await seedSeries(db, { site: 'fixture-challenge', id: 'cloud', readers: [reader] })
    expect((await app.api.seriesDetail({ site: 'fixture-challenge', seriesId: 'cloud' })).row.waiting).toEqual({ kind: 'no-fetcher' })
  })

  it('a failed check keeps its outcome and reason on the row', async ({ app, clock, db }) => {
    const reader = await seedReader(db)
    await seedSeries(db, { site: 'fixture-madara', id: 'sick', readers: [reader] })
    const key = { site: 'fixture-madara', seriesId: 'sick' }
    await markLatestChecked(db, key, clock.now())
    await recordCheckOutcome(db, key, { outcome: 'error', reason: 'HTTP 503', at: clock.now() })
    const row = (await app.api.seriesDetail(key)).row
    expect(row).toMatchObject({ lastOutcome: 'error', lastError: 'HTTP 503', latestChapter: null })
  })
})

describe('New Chapters', () => {
  it('the Updates page lists moves past a known chapter, newest first, in pages — not first reads, Sightings or corrections', async ({
    app,
    clock,
    db,
  }) => {
    const reader = await seedReader(db)
    const key = { site: 'fixture-webtoons', seriesId: '77' }
    await seedSeries(db, { site: key.site, id: key.seriesId, title: 'Seventy Seven', readers: [reader] })
    const found = (chapter: number) => ({ chapter, label: `Episode ${chapter}`, url: '' })
    const before = (await app.api.updates({})).items.length
    await recordCheckResult(db, { ...key, found: found(10), now: clock.now() })
    await recordCheckResult(db, { ...key, found: found(11), now: clock.now() + 1 })
    await recordSighting(db, { ...key, readerId: reader, chapter: 14, sightedAt: clock.now() + 2, now: clock.now() + 2 })
    // The check finds the checked 11 again: the raise is corrected, no New Chapter (above 11 would be one).
    await recordCheckResult(db, { ...key, found: found(11), now: clock.now() + 3 })
    await recordCheckResult(db, { ...key, found: found(13), now: clock.now() + 4 })

    const all = await app.api.updates({})
    expect(all.items.length - before).toBe(2)
    expect(all.items.slice(0, 2).map((u) => [u.title, u.chapter, u.previous, u.siteName])).toEqual([
      ['Seventy Seven', 13, 11, 'Fixture Toons'],
      ['Seventy Seven', 11, 10, 'Fixture Toons'],
    ])
    const first = await app.api.updates({ limit: 1 })
    expect(first.items.map((u) => u.chapter)).toEqual([13])
    const second = await app.api.updates({ limit: 1, before: first.next! })
    expect(second.items.map((u) => u.chapter)).toEqual([11])
  })

  it('the Overview counts the Series whose Latest Chapter moved forward within a day', async ({ app, clock, db }) => {
    const start = (await app.api.overview()).counts.newChapters
    const reader = await seedReader(db)
    const key = { site: 'fixture-webtoons', seriesId: '88' }
    await seedSeries(db, { site: key.site, id: key.seriesId, readers: [reader], latest: 4 })
    await recordCheckResult(db, { ...key, found: { chapter: 5, label: '', url: '' }, now: clock.now() })
    expect((await app.api.overview()).counts.newChapters).toBe(start + 1)
    await clock.advance(25 * HOUR)
    expect((await app.api.overview()).counts.newChapters).toBe(0)
  })
})

describe('a new token', () => {
  it('comes with the address to open, and the address with a one-time code to scan (not the token)', async ({ app }) => {
    const issued = await app.api.addReader({ name: 'Scanner' })
    expect(issued.address.url).toBe(`http://127.0.0.1:${app.port}/`)
    expect(issued.address.signInUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${app.port}/#code=[A-Za-z0-9_-]{43}$`))
    expect(issued.address.signInUrl).not.toContain(issued.token)
    expect(issued.address.reachableFromOtherDevices).toBe(false)
  })
})

/**
 * Sync across clock steps (docs/adr/0092-sync-across-clock-steps.md), on the real server on a loopback port and
 * a real SQLite file, with the server's wall clock stepped: a `since` later than the server's now is answered in
 * full, and Progress stamped ahead of a slow server is taken at the server's now.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

const HOUR = 3_600_000
let s: TestSyncServer
beforeEach(async () => {
  s = await startTestSyncServer()
  for (const slug of ['one', 'two']) {
    await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: `${s.fixture.origin}/madara/manga/${slug}/` })
  }
  // Both Series read in the background first, so their reads touch no bookmark during a test.
  const read = async () => (await s.store.db.selectFrom('series').where('title', '!=', '').selectAll().execute()).length
  for (let i = 0; i < 200 && (await read()) < 2; i++) {
    await s.clock.advance(10_000)
    await new Promise((done) => setTimeout(done, 10))
  }
  expect(await read()).toBe(2)
})
afterEach(() => s.close())

const ids = (r: { json: { bookmarks: Array<{ seriesId: string }> } }) => r.json.bookmarks.map((b) => b.seriesId).sort()
const patch = (body: object, slug = 'one') => s.call(s.alice.token, 'PATCH', `/api/v1/bookmarks/fixture-madara/${slug}`, body)

describe('a since later than the server’s now (its clock ran fast, then was set back)', () => {
  it('is answered with every bookmark and full: true, so a change made after the correction is seen at once', async () => {
    s.clock.stepWall(2 * HOUR)
    const fast = (await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')).json.now as number
    s.clock.stepWall(-2 * HOUR)
    await s.clock.advance(60_000)
    await patch({ status: 'waiting' })
    await s.clock.advance(1_000)
    const r = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${fast}`)
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ full: true, now: s.clock.now() })
    expect(ids(r)).toEqual(['one', 'two'])
    expect(r.json.bookmarks.find((b: { seriesId: string }) => b.seriesId === 'one').status).toBe('waiting')
    // The next sync passes the corrected now: only changes again, no full list.
    await s.clock.advance(1_000)
    await patch({ status: 'dropped' }, 'two')
    const next = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${r.json.now}`)
    expect(next.json.full).toBeUndefined()
    expect(ids(next)).toEqual(['two'])
  })
  it('a since equal to the server’s now is still answered with changes only', async () => {
    await s.clock.advance(1_000)
    const r = await s.call(s.alice.token, 'GET', `/api/v1/bookmarks?since=${s.clock.now()}`)
    expect(r.json).toEqual({ bookmarks: [], now: s.clock.now(), deleted: [] })
  })
})

describe('Progress stamped ahead of a slow server', () => {
  it('is accepted and stored at the server’s now, not refused', async () => {
    s.clock.stepWall(-2 * HOUR)
    const device = s.clock.now() + 2 * HOUR
    const r = await patch({ progress: 5, progressAt: device })
    expect(r.status).toBe(200)
    expect(r.json.bookmark).toMatchObject({ progress: 5, progressAt: s.clock.now() })
  })
  it('two devices ahead of it: the later arrival wins, and a write stamped before the server’s now keeps its place', async () => {
    s.clock.stepWall(-2 * HOUR)
    await patch({ progress: 5, progressAt: s.clock.now() + 2 * HOUR })
    await s.clock.advance(1_000)
    const second = await patch({ progress: 7, progressAt: s.clock.now() + 2 * HOUR })
    expect(second.json.bookmark).toMatchObject({ progress: 7, progressAt: s.clock.now() })
    // A late write the device stamped an hour before the server's now is older than both: it changes nothing.
    await s.clock.advance(1_000)
    const late = await patch({ progress: 3, progressAt: s.clock.now() - HOUR })
    expect(late.json.bookmark).toMatchObject({ progress: 7 })
  })
  it('a stamp a fast server stored ahead of its corrected clock gives way to the next write, then the latest wins again', async () => {
    s.clock.stepWall(2 * HOUR)
    await patch({ progress: 5 })
    const storedAhead = s.clock.now()
    s.clock.stepWall(-2 * HOUR)
    await s.clock.advance(1_000)
    // Without the rule this write (stamped an hour and 59 minutes before the stored one) changed nothing for 2 h.
    const next = await patch({ progress: 6, progressAt: s.clock.now() - 1_000 })
    expect(next.json.bookmark).toMatchObject({ progress: 6, progressAt: s.clock.now() - 1_000 })
    expect(storedAhead).toBeGreaterThan(s.clock.now())
    // From here the stored stamp is behind the clock, and a late write loses as ever.
    const late = await patch({ progress: 4, progressAt: s.clock.now() - 5_000 })
    expect(late.json.bookmark).toMatchObject({ progress: 6 })
  })
})

describe('Progress without progressAt while the server runs two days fast (docs/adr/0121-…)', () => {
  const DAY = 24 * HOUR
  it('is applied, and a later write a device stamps with the right time still wins over it', async () => {
    const right = () => s.clock.now() - 2 * DAY
    // The phone has synced before, with the right time.
    expect((await patch({ progress: 1, progressAt: s.clock.now() }, 'two')).json.bookmark).toMatchObject({ progress: 1 })
    s.clock.stepWall(2 * DAY)
    await s.clock.advance(60_000)
    const unstamped = await patch({ progress: 5 })
    expect(unstamped.status).toBe(200)
    expect(unstamped.json.bookmark.progress).toBe(5)
    // Stamped from the devices' time, not two days ahead of it.
    expect(unstamped.json.bookmark.progressAt).toBeLessThanOrEqual(right())
    await s.clock.advance(60_000)
    const phone = await patch({ progress: 6, progressAt: right() })
    expect(phone.json.bookmark).toMatchObject({ progress: 6, progressAt: right() })
    // Without a time, a write is the latest by arrival: it takes, stamped past the stamp it replaces.
    const again = await patch({ progress: 7 })
    expect(again.json.bookmark).toMatchObject({ progress: 7, progressAt: right() + 1 })
    // A replay the phone stamped before is older than both: it changes nothing.
    expect((await patch({ progress: 2, progressAt: right() - HOUR })).json.bookmark).toMatchObject({ progress: 7 })
    const read = await s.call(s.alice.token, 'GET', '/api/v1/bookmarks')
    expect(read.json.bookmarks.find((b: { seriesId: string }) => b.seriesId === 'one')).toMatchObject({ progress: 7 })
  })

  it('with no device time known yet, is stamped just past the stamp it replaces, so any timed write after it wins', async () => {
    s.clock.stepWall(2 * DAY)
    expect((await patch({ progress: 5 })).json.bookmark).toMatchObject({ progress: 5, progressAt: 1 })
    const phone = await patch({ progress: 6, progressAt: s.clock.now() - 2 * DAY })
    expect(phone.json.bookmark.progress).toBe(6)
  })
})

describe('a Sighting stamped ahead of a slow server', () => {
  it('is recorded at the server’s now', async () => {
    s.clock.stepWall(-2 * HOUR)
    const r = await s.call(s.alice.token, 'POST', '/api/v1/sightings', {
      site: 'fixture-madara',
      seriesId: 'one',
      chapter: 1,
      at: s.clock.now() + 2 * HOUR,
    })
    expect(r.status).toBe(202)
    expect(r.json.sighting.sightedAt).toBe(s.clock.now())
  })
})

/** The per-Reader bookmark cap (docs/adr/0081-one-reader-bounded.md), through the real sync endpoint. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../shared/settings-defaults'
import { writeSettings } from '../store/settings'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer
beforeEach(async () => {
  s = await startTestSyncServer()
})
afterEach(() => s.close())

const add = (token: string, slug: string) =>
  s.call(token, 'POST', '/api/v1/bookmarks', { url: `${s.fixture.origin}/madara/manga/${slug}/` })
const count = async (token: string) => (await s.call(token, 'GET', '/api/v1/bookmarks')).json.bookmarks.length

describe('a Reader holds at most the bookmarks the owner allows', () => {
  it('2,000 unless the owner says otherwise', () => {
    expect(DEFAULT_SETTINGS.bookmarksPerReader).toBe(2_000)
  })

  it('past the cap a new bookmark is refused with why, and no Series is made; one held already still answers; others are not limited', async () => {
    await writeSettings(s.store.db, { bookmarksPerReader: 2 })
    expect((await add(s.alice.token, 'one')).status).toBe(202)
    expect((await add(s.alice.token, 'two')).status).toBe(202)
    const refused = await add(s.alice.token, 'made-up-three')
    expect(refused).toMatchObject({
      status: 422,
      json: { error: { code: 'invalid', message: expect.stringContaining('you hold 2 bookmarks, the most a Reader may hold here') } },
    })
    expect(await s.store.db.selectFrom('series').select('series_id').where('series_id', '=', 'made-up-three').execute()).toEqual([])
    expect((await add(s.alice.token, 'one')).status).toBe(200)
    expect(await count(s.alice.token)).toBe(2)
    expect((await add(s.bob.token, 'made-up-three')).status).toBe(202)
    // The owner raises it: the Reader may add again.
    await writeSettings(s.store.db, { bookmarksPerReader: 3 })
    expect((await add(s.alice.token, 'made-up-three')).status).toBe(201)
    expect(await count(s.alice.token)).toBe(3)
  })
})

/**
 * Covers and the household's shelf in the sync API (docs/adr/0152-the-households-shelf.md), over real HTTP with
 * a real store and the fixture site: what a Reader sees, what they may not, and that following from the shelf
 * sends nothing to the Site.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { coverPng } from '../demo/cover-images'
import { writeSettings } from '../store/settings'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let server: TestSyncServer
beforeEach(async () => {
  server = await startTestSyncServer()
})
afterEach(() => server.close())

/** Alice bookmarks a fixture Series (read once from the fixture site); returns its key. */
async function aliceFollows(slug: string) {
  const url = `${server.fixture.origin}/madara/manga/${slug}/`
  const added = await server.call(server.alice.token, 'POST', '/api/v1/bookmarks', { url })
  await server.acquired(server.alice.token)
  return { site: added.json.bookmark.site as string, seriesId: added.json.bookmark.seriesId as string }
}

describe('the shelf', () => {
  it("shows another Reader the household's Series with titles and covers, never Alice's progress", async () => {
    const key = await aliceFollows('solo-lantern')
    await server.call(server.alice.token, 'PATCH', `/api/v1/bookmarks/${key.site}/${key.seriesId}`, { progress: 3 })
    server.covers.save(key, 'http://x/cover.png', { bytes: coverPng('a'), type: 'image/png' }, 1)
    const shelf = await server.call(server.bob.token, 'GET', '/api/v1/shelf')
    expect(shelf.status).toBe(200)
    expect(shelf.json.series).toEqual([
      expect.objectContaining({ site: key.site, seriesId: key.seriesId, title: 'Solo Lantern', cover: true, following: false }),
    ])
    expect(JSON.stringify(shelf.json)).not.toMatch(/progress|alice/i)
  })

  it('following from the shelf adds the bookmark and sends nothing to the Site', async () => {
    const key = await aliceFollows('tower-climber')
    const hits = server.fixture.hits.length
    const followed = await server.call(server.bob.token, 'POST', '/api/v1/shelf/follow', key)
    expect(followed.status).toBe(201)
    const again = await server.call(server.bob.token, 'POST', '/api/v1/shelf/follow', key)
    expect(again.status).toBe(200)
    const bobs = await server.call(server.bob.token, 'GET', '/api/v1/bookmarks')
    expect(bobs.json.bookmarks.map((b: { seriesId: string }) => b.seriesId)).toEqual([key.seriesId])
    expect(bobs.json.bookmarks[0].series.latestChapter).toBeGreaterThan(0)
    expect(server.fixture.hits.length).toBe(hits)
    const shelf = await server.call(server.bob.token, 'GET', '/api/v1/shelf')
    expect(shelf.json.series[0].following).toBe(true)
  })

  it('a Series nobody holds is not on the shelf and cannot be followed from it; bad input changes nothing', async () => {
    const key = await aliceFollows('gone-soon')
    await server.call(server.alice.token, 'DELETE', `/api/v1/bookmarks/${key.site}/${key.seriesId}`)
    expect((await server.call(server.bob.token, 'GET', '/api/v1/shelf')).json.series).toEqual([])
    expect((await server.call(server.bob.token, 'POST', '/api/v1/shelf/follow', key)).status).toBe(404)
    expect((await server.call(server.bob.token, 'POST', '/api/v1/shelf/follow', { ...key, extra: 1 })).status).toBe(422)
    expect((await server.call(server.bob.token, 'POST', '/api/v1/shelf/follow', { site: key.site })).status).toBe(422)
    expect((await server.call(null, 'GET', '/api/v1/shelf')).status).toBe(401)
    expect((await server.call(server.bob.token, 'GET', '/api/v1/bookmarks')).json.bookmarks).toEqual([])
  })

  it('the owner can turn it off: the shelf, following from it and its covers are refused', async () => {
    const key = await aliceFollows('quiet-house')
    server.covers.save(key, 'http://x/cover.png', { bytes: coverPng('a'), type: 'image/png' }, 1)
    await writeSettings(server.store.db, { shelf: false })
    expect((await server.call(server.bob.token, 'GET', '/api/v1/shelf')).status).toBe(403)
    expect((await server.call(server.bob.token, 'POST', '/api/v1/shelf/follow', key)).status).toBe(403)
    expect((await server.call(server.bob.token, 'GET', `/api/v1/covers/${key.site}/${key.seriesId}`)).status).toBe(404)
    // Alice still sees her own Series' cover.
    expect((await server.call(server.alice.token, 'GET', `/api/v1/covers/${key.site}/${key.seriesId}`)).status).toBe(200)
  })
})

describe('a cover', () => {
  it('is served with its sniffed type, nosniff and no script, to a Reader with a token only', async () => {
    const key = await aliceFollows('bright-cover')
    const path = `/api/v1/covers/${key.site}/${key.seriesId}`
    expect((await server.call(server.alice.token, 'GET', path)).status).toBe(404)
    const png = coverPng('bright')
    server.covers.save(key, 'http://x/cover.png', { bytes: png, type: 'image/png' }, 1)
    expect((await server.call(null, 'GET', path)).status).toBe(401)
    const response = await fetch(`${server.origin}${path}`, { headers: { authorization: `Bearer ${server.alice.token}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true)
  })

  it('a file changed on disk into something else is not served', async () => {
    const key = await aliceFollows('swapped-cover')
    server.covers.save(key, 'http://x/cover.png', { bytes: coverPng('s'), type: 'image/png' }, 1)
    const { readdirSync, writeFileSync } = await import('node:fs')
    const img = readdirSync(server.covers.dir).find((f) => f.endsWith('.img'))!
    writeFileSync(`${server.covers.dir}/${img}`, '<html><script>alert(1)</script>')
    expect((await server.call(server.alice.token, 'GET', `/api/v1/covers/${key.site}/${key.seriesId}`)).status).toBe(404)
  })
})

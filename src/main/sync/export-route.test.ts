/** GET /api/v1/export: a Reader downloads their own bookmarks, as an export document or CSV, and no one else's. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseExportDocument } from '../library/export-format'
import { parseUrlList } from '../library/url-list'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer
beforeAll(async () => {
  s = await startTestSyncServer()
  const add = (token: string, path: string) => s.call(token, 'POST', '/api/v1/bookmarks', { url: `${s.fixture.origin}${path}` })
  await add(s.alice.token, '/madara/manga/tower/')
  await add(s.alice.token, '/themesia/manga/iron-bloom/')
  await add(s.bob.token, '/madara/manga/bakery/')
  await s.call(s.alice.token, 'PATCH', '/api/v1/bookmarks/fixture-madara/tower', { progress: 3, progressAt: s.clock.now() - 10 })
  await s.acquired(s.alice.token)
})
/** A bookmark with no Progress given starts caught up: its Series' Latest Chapter (migration 0009). */
const ironBloomLatest = () => s.fixture.series('/themesia/manga/iron-bloom/').latest
afterAll(() => s.close())

describe("a Reader's download of their own bookmarks", () => {
  it("JSON: an export document with their bookmarks, the Series and Sites they point at, and nobody else's", async () => {
    const r = await s.call(s.alice.token, 'GET', '/api/v1/export')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="manga-bookmarks-alice-\d{4}-\d{2}-\d{2}\.json"$/)
    expect(r.json).toMatchObject({ format: 'manga-bookmark-library', version: 1 })
    expect(r.json.readers).toHaveLength(1)
    expect(r.json.readers[0].name).toBe('alice')
    expect(r.json.readers[0].bookmarks).toHaveLength(2)
    expect(r.json.readers[0].bookmarks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ site: 'fixture-themesia', seriesId: 'iron-bloom', progress: ironBloomLatest() }),
        expect.objectContaining({ site: 'fixture-madara', seriesId: 'tower', progress: 3 }),
      ]),
    )
    expect(r.json.series.map((x: { seriesId: string }) => x.seriesId).sort()).toEqual(['iron-bloom', 'tower'])
    expect(r.json.sites.map((x: { key: string }) => x.key)).toEqual(['fixture-madara', 'fixture-themesia'])
    expect(JSON.stringify(r.json)).not.toContain('bakery')
    expect(JSON.stringify(r.json)).not.toContain(s.alice.token)
    // It reads back as an import.
    expect(parseExportDocument(JSON.stringify(r.json)).entries).toHaveLength(2)
  })

  it('CSV: one row per bookmark, columns an import reads back', async () => {
    const response = await fetch(`${s.origin}/api/v1/export?format=csv`, { headers: { authorization: `Bearer ${s.alice.token}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const text = await response.text()
    expect(text.split('\r\n')[0]).toBe('site,seriesId,title,url,status,progress,progressAt,latestChapter')
    const entries = parseUrlList(text).entries
    expect(entries.map((e) => [e.target, e.progress])).toEqual(
      expect.arrayContaining([
        [{ kind: 'url', url: `${s.fixture.origin}/madara/manga/tower/` }, 3],
        [{ kind: 'url', url: `${s.fixture.origin}/themesia/manga/iron-bloom/` }, ironBloomLatest()],
      ]),
    )
    expect(entries).toHaveLength(2)
  })

  it('needs a token; a bad format is a 422', async () => {
    expect((await s.call(null, 'GET', '/api/v1/export')).status).toBe(401)
    expect((await s.call(s.alice.token, 'GET', '/api/v1/export?format=xml')).status).toBe(422)
  })
})

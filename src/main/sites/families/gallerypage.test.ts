/** A gallery page on pages of our own (Masonry's, Akuma's and 3Hentai's shapes): the gallery is its one chapter. */
import { describe, expect, it } from 'vitest'
import { seriesRules, type AdapterStep } from '../site'
import { GALLERYPAGE_ID_PATTERN, galleryPageAdapter } from './gallerypage'

const read = (body: string, series: string): AdapterStep =>
  galleryPageAdapter().read({ url: series, status: 200, contentType: 'text/html', body }, new URL(series))

const MASONRY = `<html><head><meta property="og:title" content="Sunset Walk"></head><body>
  <div id="content"><p>A walk at sunset.</p></div><p class="link-btn"><a href="/model/ann/">Ann</a></p>
  <ul class="list-gallery"><li><a href="https://cdn.example/1.jpg"><img src="https://cdn.example/t1.jpg"></a></li></ul>
</body></html>`
const AKUMA = `<html><body><h1 class="entry-title">"Rainy Day Notes"</h1><img class="img-thumbnail" src="/c.jpg">
  <div class="date"><span class="value"><time>2026-01-02</time></span></div></body></html>`
const PANDA = `<html><head><title>Lantern Festival | Panda Backup</title></head><body><div class="gallery">
  <img src="/static/images/archive/thumb.jpg"></div><h5>Archive</h5></body></html>`
const THREE = `<html><body><div id="main-info"><h1>Paper Cranes [English]</h1></div><div id="main-cover"><img src="/c.jpg"></div>
  <time datetime="2026-01-02T00:00:00Z">2 Jan</time></body></html>`

describe('a gallery page', () => {
  it('the series_id is the whole path (up to 8 segments); the home page is no Series', () => {
    const rules = seriesRules(GALLERYPAGE_ID_PATTERN)
    expect(rules.seriesIdOf(new URL('https://www.elitebabes.com/sunset-walk-12345/'))).toBe('sunset-walk-12345')
    expect(rules.seriesIdOf(new URL('https://akuma.moe/g/AbC12'))).toBe('g/AbC12')
    expect(rules.seriesIdOf(new URL('https://3hentai.net/d/123456'))).toBe('d/123456')
    expect(rules.seriesIdOf(new URL('https://3hentai.net/'))).toBeNull()
    expect(rules.seriesIdOf(new URL(`https://3hentai.net/${'a/'.repeat(9)}b`))).toBeNull()
    expect(galleryPageAdapter().recipe).toEqual({ family: 'gallerypage' })
    expect(galleryPageAdapter().request(new URL('https://akuma.moe/g/AbC12'))).toEqual({ url: 'https://akuma.moe/g/AbC12', method: 'GET' })
  })

  it('each shape: the gallery is chapter 1 at the Series page, titled by h1, .entry-title or og:title', () => {
    expect(read(MASONRY, 'https://www.elitebabes.com/sunset-walk-12345/?x=1')).toEqual({
      kind: 'parsed',
      result: { title: 'Sunset Walk', chapters: [{ number: 1, label: 'Gallery', url: 'https://www.elitebabes.com/sunset-walk-12345/' }] },
    })
    expect(read(AKUMA, 'https://akuma.moe/g/AbC12')).toMatchObject({
      result: { title: '"Rainy Day Notes"', chapters: [{ number: 1, url: 'https://akuma.moe/g/AbC12' }] },
    })
    expect(read(THREE, 'https://3hentai.net/d/123456')).toMatchObject({
      result: { title: 'Paper Cranes [English]', chapters: [{ number: 1, url: 'https://3hentai.net/d/123456' }] },
    })
  })

  it("Panda Chaika's shape: without h1 or og:title, the document's <title> names the gallery", () => {
    expect(read(PANDA, 'https://panda.chaika.moe/archive/98765/')).toEqual({
      kind: 'parsed',
      result: {
        title: 'Lantern Festival | Panda Backup',
        chapters: [{ number: 1, label: 'Gallery', url: 'https://panda.chaika.moe/archive/98765/' }],
      },
    })
  })

  it('a page without a title or without an image, or the home page, has no chapter', () => {
    expect(read('<html><body><h1>Not found</h1><p>This gallery was removed.</p></body></html>', 'https://akuma.moe/g/gone')).toEqual({
      kind: 'parsed',
      result: { title: 'Not found', chapters: [] },
    })
    expect(read('<html><body><img src="/x.jpg"></body></html>', 'https://akuma.moe/g/x')).toMatchObject({ result: { chapters: [] } })
    expect(read(THREE, 'https://3hentai.net/')).toMatchObject({ result: { chapters: [] } })
  })
})

/** GalleryAdults on a page of our own: one gallery is one chapter, present only when the page is a gallery. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_TITLE } from '../html'
import { seriesRules, type ParsedSeries } from '../site'
import { GALLERYADULTS_ID_PATTERN, galleryAdultsAdapter } from './galleryadults'

const SERIES = 'https://gallery.example/gallery/1234567/'
const stored = readFileSync(join(__dirname, '..', 'testdata', 'galleryadults.html'), 'utf8')

function read(body: string, url = SERIES): ParsedSeries {
  const step = galleryAdultsAdapter().read({ url, status: 200, contentType: 'text/html', body }, new URL(url))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

describe('GalleryAdults', () => {
  it('the series_id is the gallery id, after /gallery/ or /g/; a page of a gallery names it; a tag page is none', () => {
    const rules = seriesRules(GALLERYADULTS_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('1234567')
    expect(rules.seriesIdOf(new URL('https://asm.example/g/998/'))).toBe('998')
    expect(rules.canonicalUrl!(new URL('https://gallery.example/gallery/1234567/3/'))).toBe(SERIES)
    expect(rules.seriesIdOf(new URL('https://gallery.example/tag/lanterns/'))).toBeNull()
    expect(galleryAdultsAdapter().request(new URL(SERIES))).toEqual({ url: SERIES, method: 'GET' })
  })

  it('a gallery page is one chapter, the gallery at its own URL, with its title', () => {
    expect(read(stored)).toEqual({ title: 'Summer Lanterns', chapters: [{ number: 1, label: 'Gallery', url: SERIES }] })
    expect(read(stored.replace('id="gallery_id"', 'id="other"'), 'https://asm.example/g/998/?ref=x').chapters).toEqual([
      { number: 1, label: 'Gallery', url: 'https://asm.example/g/998/' },
    ])
  })

  it('a page that is no gallery (no pages loader: removed, a notice) has no chapter', () => {
    expect(read('<h1>Gallery not found</h1>')).toEqual({ title: 'Gallery not found', chapters: [] })
    expect(read(stored.replace('id="load_pages"', 'id="x"')).chapters).toEqual([])
  })

  it('a hostile 5 MB page (an unclosed title, blocks nested 3,000 deep, 850 loaders of 6,000 characters) reads in well under a second, bounded', () => {
    const body =
      '<input id="load_pages" value="1"><input id="gallery_id" value="1">' +
      '<div><span>'.repeat(3_000) +
      '</span></div>'.repeat(3_000) +
      `<div>${`<input id="load_id" value="${'9'.repeat(3_000)}"><h2>${'ch '.repeat(1_000)}</h2>`.repeat(850)}</div>` +
      `<h1>Hostile ${'w '.repeat(200_000)}`
    const started = performance.now()
    const result = read(body)
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(result.chapters).toEqual([{ number: 1, label: 'Gallery', url: SERIES }])
    expect(result.title!.length).toBeLessThanOrEqual(MAX_TITLE)
  })
})

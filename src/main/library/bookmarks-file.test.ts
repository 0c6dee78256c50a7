import { describe, expect, it } from 'vitest'
import { IMPORT_MAX_ENTRIES } from '../../shared/library'
import { nestedBookmarks, netscapeBookmarks } from '../testing/library-files'
import { BOOKMARKS_MAX_DEPTH, isBookmarksFile, parseBookmarksFile } from './bookmarks-file'

describe("a browser's bookmarks file", () => {
  const file = netscapeBookmarks([
    {
      folder: 'Manga',
      items: [
        { title: 'Tower & "Climber" <1>', url: 'https://a.example/manga/tower/' },
        { folder: 'Dropped', items: [{ title: 'Bakery', url: 'https://a.example/manga/bakery/' }] },
        { folder: 'Plan to Read', items: [{ folder: 'Shonen', items: [{ title: 'Blade', url: 'https://a.example/manga/blade/' }] }] },
      ],
    },
    { title: 'A bookmarklet', url: 'javascript:alert(1)' },
    { title: 'Firefox smart folder', url: 'place:sort=8' },
    { title: 'News', url: 'https://news.example/today' },
  ])

  it('is recognised by its doctype', () => {
    expect(isBookmarksFile(file)).toBe(true)
    expect(isBookmarksFile('https://a.example/manga/x/\n')).toBe(false)
  })

  it('without its doctype, by a <DL> and a link tag; a file of unclosed <A tags is judged in one scan', () => {
    expect(isBookmarksFile('<DL><p><DT><A\nADD_DATE="1" HREF="https://a.example/manga/x/">X</A>')).toBe(true)
    expect(isBookmarksFile('<DL><p><DT><A ADD_DATE="1">X</A> HREF=')).toBe(false)
    const hostile = `<DL>${'<A '.repeat(21_845)}`
    let best = Infinity
    for (let run = 0; run < 3; run++) {
      const started = performance.now()
      expect(isBookmarksFile(hostile)).toBe(false)
      best = Math.min(best, performance.now() - started)
    }
    // The regular expression this replaced took about 1.5 s on it.
    expect(best).toBeLessThan(100)
  })

  it('every http(s) link is an entry, titled as the browser escaped it; the innermost folder naming a status gives it', () => {
    const parsed = parseBookmarksFile(file)
    expect(parsed.format).toBe('bookmarks')
    expect(parsed.entries.map((e) => [e.target, e.title, e.status])).toEqual([
      [{ kind: 'url', url: 'https://a.example/manga/tower/' }, 'Tower & "Climber" <1>', undefined],
      [{ kind: 'url', url: 'https://a.example/manga/bakery/' }, 'Bakery', 'dropped'],
      [{ kind: 'url', url: 'https://a.example/manga/blade/' }, 'Blade', 'planned'],
      [{ kind: 'url', url: 'https://news.example/today' }, 'News', undefined],
    ])
  })

  it(`a file of 100,000 links is refused (at most ${IMPORT_MAX_ENTRIES})`, () => {
    const links = Array.from({ length: 100_000 }, (_, i) => ({ title: `L${i}`, url: `https://a.example/manga/s${i}/` }))
    expect(() => parseBookmarksFile(netscapeBookmarks(links))).toThrow(
      'bookmarks file: 100,000 links; an import takes at most 50,000 (export one folder instead)',
    )
  })
})

describe('a hostile bookmarks file is read in one pass', () => {
  // The file that froze the app for a minute (2,000 nested folders, 5,000 links, 360 KB), at ten times the
  // size: the DOM walk visited every enclosing folder and every earlier sibling per link, and never ended here.
  it('20,000 nested folders and 50,000 links: every link read, each with its innermost status', () => {
    const text = nestedBookmarks(20_000, IMPORT_MAX_ENTRIES)
    expect(text.length).toBeGreaterThan(3_000_000)
    const parsed = parseBookmarksFile(text)
    expect(parsed.entries).toHaveLength(IMPORT_MAX_ENTRIES)
    expect(parsed.entries.at(-1)).toEqual({
      ref: `link ${IMPORT_MAX_ENTRIES}`,
      target: { kind: 'url', url: `https://a.example/manga/s${IMPORT_MAX_ENTRIES - 1}/` },
      title: `Series ${IMPORT_MAX_ENTRIES - 1}`,
      status: 'dropped',
    })
    expect(parsed.entries[0]!.status).toBeUndefined()
  })

  it('a status folder far out still gives the status of links deep inside it', () => {
    const parsed = parseBookmarksFile(`<DL><p><DT><H3>On hold</H3><DL><p>${nestedBookmarks(5_000, 10, 'Shonen')}</DL>`)
    expect(parsed.entries).toHaveLength(10)
    expect(new Set(parsed.entries.map((e) => e.status))).toEqual(new Set(['waiting']))
  })

  it(`folders nested deeper than ${BOOKMARKS_MAX_DEPTH.toLocaleString('en')} are refused`, () => {
    expect(() => parseBookmarksFile('<DL>'.repeat(BOOKMARKS_MAX_DEPTH + 1))).toThrow(
      'bookmarks file: folders nested more than 100,000 deep',
    )
  })

  it('quoted either way or bare, an unclosed link, numeric references, and tags inside a title', () => {
    const parsed = parseBookmarksFile(
      `<DL><p><DT><A HREF='https://a.example/manga/a/'>A &#38; &#x42;</A><DT><A href=https://a.example/manga/b/>B <b>bold</b> &unknown;` +
        `<DT><A HREF="https://a.example/manga/c/">C`,
    )
    expect(parsed.entries.map((e) => [e.ref, e.target, e.title])).toEqual([
      ['link 1', { kind: 'url', url: 'https://a.example/manga/a/' }, 'A & B'],
      ['link 2', { kind: 'url', url: 'https://a.example/manga/b/' }, 'B bold &unknown;'],
      ['link 3', { kind: 'url', url: 'https://a.example/manga/c/' }, 'C'],
    ])
  })
})

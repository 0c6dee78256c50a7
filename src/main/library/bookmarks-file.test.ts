import { describe, expect, it } from 'vitest'
import { IMPORT_MAX_ENTRIES } from '../../shared/library'
import { netscapeBookmarks } from '../testing/library-files'
import { isBookmarksFile, parseBookmarksFile } from './bookmarks-file'

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

/**
 * A browser's bookmarks export: the Netscape bookmark file every browser writes (`<DT><A HREF=…>` links in
 * `<DL>` folders headed by `<H3>`). Every link becomes an entry; the innermost folder that names a status
 * ("Dropped", "Plan to read") gives the bookmark's status.
 */
import { load } from 'cheerio'
import { IMPORT_MAX_ENTRIES, statusFromLabel } from '../../shared/library'
import type { ImportEntry, ParsedLibrary } from './entries'
import { ImportError } from './errors'

/** Whether a text looks like a Netscape bookmark file. */
export function isBookmarksFile(text: string): boolean {
  const head = text.slice(0, 4096)
  return /<!DOCTYPE\s+NETSCAPE-Bookmark-file/i.test(head) || (/<DL\b/i.test(head) && hasLinkTag(text.slice(0, 65536)))
}

/**
 * Whether an `<A …>` tag carries `HREF=`. Tag by tag, each character looked at once: `/<A\s[^>]*HREF=/i`
 * restarted its scan at every `<A ` and took seconds on a file of them with no `>`.
 */
function hasLinkTag(text: string): boolean {
  for (const tag of text.split('>')) {
    const at = tag.search(/<a\s/i)
    if (at !== -1 && /href=/i.test(tag.slice(at + 3))) return true
  }
  return false
}

export function parseBookmarksFile(text: string): ParsedLibrary {
  // Counted before the document is built, so a file of 100,000 links is refused without parsing it.
  const links = text.match(/<a\s/gi)?.length ?? 0
  if (links > IMPORT_MAX_ENTRIES) {
    throw new ImportError(
      `bookmarks file: ${links.toLocaleString('en')} links; an import takes at most ${IMPORT_MAX_ENTRIES.toLocaleString('en')} (export one folder instead)`,
    )
  }
  const $ = load(text)
  const entries: ImportEntry[] = []
  $('a[href]').each((index, element) => {
    const link = $(element)
    const href = (link.attr('href') ?? '').trim()
    if (!/^https?:\/\//i.test(href)) return
    // The folders holding the link, innermost first: each <DL> is headed by the <H3> before it.
    const folders = link
      .parents('dl')
      .toArray()
      .map((dl) => $(dl).prevAll('h3').first().text().trim())
      .filter(Boolean)
    const status = folders.map(statusFromLabel).find((s) => s !== undefined)
    entries.push({
      ref: `link ${index + 1}`,
      target: { kind: 'url', url: href },
      title: link.text().trim().slice(0, 500),
      ...(status ? { status } : {}),
    })
  })
  return { format: 'bookmarks', entries, sourceNames: new Map(), unreadable: [] }
}

/**
 * A browser's bookmarks export: the Netscape bookmark file every browser writes (`<DT><A HREF=…>` links in
 * `<DL>` folders headed by `<H3>`). Every link becomes an entry; the innermost folder that names a status
 * ("Dropped", "Plan to read") gives the bookmark's status.
 *
 * Read in one pass over the tags, linear in the file whatever its shape: the open folders are a stack, and each
 * holds the status its innermost status-naming folder gives, so a link costs the same at any depth. (The DOM
 * walk this replaced visited every enclosing folder and every earlier sibling per link: 2,000 nested folders
 * and 5,000 links took a minute.) No tree is built, so a deep file needs no deep recursion either.
 */
import { IMPORT_MAX_ENTRIES, statusFromLabel } from '../../shared/library'
import type { BookmarkStatus } from '../../shared/sync-schemas'
import type { ImportEntry, ParsedLibrary } from './entries'
import { ImportError } from './errors'

/** The deepest folder nesting a bookmarks file may have (a browser's own exporter stops far below this). */
export const BOOKMARKS_MAX_DEPTH = 100_000
/** A title or folder name is read up to this many characters; the rest of a longer text is not kept. */
const TEXT_CAP = 2_000
/** A tag longer than this is not a link a browser wrote (its URL would be refused anyway). */
const TAG_CAP = 16_384

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
  // Counted before the file is read, so a file of 100,000 links is refused without reading it.
  const links = text.match(/<a\s/gi)?.length ?? 0
  if (links > IMPORT_MAX_ENTRIES) {
    throw new ImportError(
      `bookmarks file: ${links.toLocaleString('en')} links; an import takes at most ${IMPORT_MAX_ENTRIES.toLocaleString('en')} (export one folder instead)`,
    )
  }
  const entries: ImportEntry[] = []
  const scan = new BookmarksScan()
  // Each piece is one tag and the text after it: every character is looked at a bounded number of times.
  const pieces = text.split('<')
  scan.text(pieces[0]!)
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i]!
    const end = piece.indexOf('>')
    if (end === -1 || end > TAG_CAP) {
      scan.text(piece)
      continue
    }
    const link = scan.tag(piece.slice(0, end))
    if (link && /^https?:\/\//i.test(link.href)) entries.push(entryOf(link))
    scan.text(piece.slice(end + 1))
  }
  const last = scan.tag('/a')
  if (last && /^https?:\/\//i.test(last.href)) entries.push(entryOf(last))
  return { format: 'bookmarks', entries, sourceNames: new Map(), unreadable: [] }
}

function entryOf(link: ScannedLink): ImportEntry {
  return {
    ref: `link ${link.index}`,
    target: { kind: 'url', url: link.href },
    title: link.title.slice(0, 500),
    status: link.status,
  }
}

interface ScannedLink {
  index: number
  href: string
  title: string
  status: BookmarkStatus | undefined
}

/** The state of one pass over a bookmarks file: the open folders, and the heading or link being read. */
class BookmarksScan {
  /** Per open `<DL>`, the status its innermost status-naming folder gives (undefined: none does). */
  readonly #statuses: Array<BookmarkStatus | undefined> = []
  #heading: string | null = null
  #folderName = ''
  #link: { index: number; href: string; title: string } | null = null
  #links = 0

  text(raw: string): void {
    if (this.#heading !== null && this.#heading.length < TEXT_CAP) this.#heading += raw.slice(0, TEXT_CAP)
    if (this.#link && this.#link.title.length < TEXT_CAP) this.#link.title += raw.slice(0, TEXT_CAP)
  }

  /** Takes one tag (what is between `<` and `>`); answers the link a `</A>` ends. */
  tag(tag: string): ScannedLink | undefined {
    const name = /^(\/?)([a-z][a-z0-9]*)/i.exec(tag)
    if (!name) return undefined
    const closing = name[1] === '/'
    switch (name[2]!.toLowerCase()) {
      case 'h3':
        if (closing) this.#folderName = this.#heading === null ? '' : decodeEntities(this.#heading).trim()
        this.#heading = closing ? null : ''
        return undefined
      case 'dl':
        if (closing) this.#statuses.pop()
        else this.#openFolder()
        return undefined
      case 'a':
        if (!closing) {
          // A link left open ends where the next one starts.
          const open = this.#endLink()
          this.#link = { index: ++this.#links, href: decodeEntities(hrefOf(tag)).trim(), title: '' }
          return open
        }
        return this.#endLink()
      default:
        return undefined
    }
  }

  #openFolder(): void {
    if (this.#statuses.length >= BOOKMARKS_MAX_DEPTH) {
      throw new ImportError(`bookmarks file: folders nested more than ${BOOKMARKS_MAX_DEPTH.toLocaleString('en')} deep`)
    }
    const outer = this.#statuses.at(-1)
    this.#statuses.push((this.#folderName ? statusFromLabel(this.#folderName) : undefined) ?? outer)
    this.#folderName = ''
  }

  #endLink(): ScannedLink | undefined {
    const link = this.#link
    this.#link = null
    if (!link) return undefined
    return { index: link.index, href: link.href, title: decodeEntities(link.title).trim(), status: this.#statuses.at(-1) }
  }
}

/** The `HREF` attribute of a tag, as written (quoted either way or bare). */
function hrefOf(tag: string): string {
  const match = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag)
  return match?.[1] ?? match?.[2] ?? match?.[3] ?? ''
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/**
 * The text a browser's exporter escaped, unescaped: the five entities it writes (`&amp; &lt; &gt; &quot; &#39;`),
 * `&nbsp;` and numeric references. Any other `&name;` is kept as written.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole
  })
}

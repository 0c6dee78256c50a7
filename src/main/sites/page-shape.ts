/**
 * How deep a page's elements can nest, read in one pass over its text without building it, so that a page small
 * and shallow enough is read on the calling thread and any other in the worker (page-reader.ts,
 * docs/adr/0206-small-pages-read-inline.md). What makes a page costly to read is depth (a descendant selector
 * walks every ancestor: rows nested in each other cost the square of their depth); a page's size bounds the rest.
 *
 * The figure is never less than the depth htmlparser2 (html.ts) builds: tags, attribute values, comments and raw
 * text are delimited as its tokenizer does; every start tag of an element that can hold others counts; an end tag
 * closes the nearest open element it names and all above it, as the parser's does; a start tag closes the one
 * on top only where the parser always does (a `<li>` on an open `<li>`, a `<div>` on an open `<p>`…), and an
 * element the parser closes by itself in SVG (`<path/>`) stays open here: more, never less.
 */

/** Elements that never hold others: a subset of htmlparser2's void elements. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'keygen',
])
/** Text up to their end tag, no element in it (htmlparser2's special tags). */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp'])
const P = ['p']
/** What a start tag closes while it is on top: a subset of htmlparser2's `openImpliesClose`. */
const CLOSES: Record<string, readonly string[]> = {
  li: ['li'],
  option: ['option'],
  tr: ['tr', 'th', 'td'],
  th: ['th'],
  td: ['thead', 'th', 'td'],
  dd: ['dd', 'dt'],
  dt: ['dd', 'dt'],
  ...Object.fromEntries(
    ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'ul', 'ol', 'table', 'section', 'article', 'header', 'footer', 'nav', 'form'].map(
      (name) => [name, P],
    ),
  ),
}

/** The tokenizer's white space (not JavaScript's `\s`, which takes more): space, tab, LF, FF, CR. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 12 || c === 13
}

/** A letter that may begin a tag's name (ASCII only, as the tokenizer reads it). */
function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
}

const SLASH = 47
const GT = 62
const EQ = 61

/**
 * The deepest nesting of `html`'s elements, or `limit + 1` as soon as it passes `limit` (the scan stops there).
 * Linear in the text: one pass over its character codes, a `<` found by `indexOf`, no regular expression and no
 * string made but each tag's name.
 */
export function nestingDepth(html: string, limit: number): number {
  const open: string[] = []
  let deepest = 0
  for (let at = html.indexOf('<'); at !== -1;) {
    const next = html.charCodeAt(at + 1)
    if (isLetter(next)) {
      const nameEnd = nameEndAt(html, at + 1)
      const start = nameOf(html, at + 1, nameEnd)
      const closes = CLOSES[start]
      while (closes && open.length && closes.includes(open[open.length - 1]!)) open.pop()
      // A depth past the limit stops the scan.
      if (open.length + 1 > deepest && (deepest = open.length + 1) > limit) return limit + 1
      const after = attributesEndAt(html, nameEnd)
      if (VOID.has(start)) at = html.indexOf('<', after)
      else if (RAW_TEXT.has(start)) at = rawTextEndAt(html, start, after)
      else {
        open.push(start)
        at = html.indexOf('<', after)
      }
    } else if (next === SLASH && isLetter(html.charCodeAt(at + 2))) {
      const nameEnd = nameEndAt(html, at + 2)
      const end = nameOf(html, at + 2, nameEnd)
      // (`</br>` and a `</p>` with none open make an element there.)
      if ((end === 'br' || end === 'p') && open.length + 1 > deepest && (deepest = open.length + 1) > limit) return limit + 1
      const index = open.lastIndexOf(end)
      if (index !== -1) open.length = index
      at = nextTagAfter(html, '>', nameEnd)
    } else if (html.startsWith('<!--', at)) {
      // A comment may end in its own opening (`<!-->`), as the tokenizer reads it.
      at = nextTagAfter(html, '-->', at + 2)
    } else if (html.startsWith('<![CDATA[', at)) {
      at = nextTagAfter(html, ']]>', at + 9)
    } else if (next === 33 || next === 63 || next === SLASH) {
      // Any other `<!`, `<?`, or `</` not followed by a letter: to its `>`.
      at = nextTagAfter(html, '>', at + 2)
    } else {
      at = html.indexOf('<', at + 1)
    }
  }
  return deepest
}

/** Where a tag's name that begins at `from` ends: at white space, `/`, `>` or the end of the text. */
function nameEndAt(html: string, from: number): number {
  let i = from
  for (let c = html.charCodeAt(i); i < html.length && !isSpace(c) && c !== SLASH && c !== GT; c = html.charCodeAt(++i));
  return i
}

/** A tag's name, lowercased as the parser does (only a name with other than `a`–`z`, digits and `-` needs it). */
function nameOf(html: string, from: number, to: number): string {
  const name = html.slice(from, to)
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i)
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45)) return name.toLowerCase()
  }
  return name
}

/** The next `<` after the next `to` found from `from` (past its end), or -1. */
function nextTagAfter(html: string, to: string, from: number): number {
  const found = html.indexOf(to, from)
  return found === -1 ? -1 : html.indexOf('<', found + to.length)
}

/**
 * Where the rest of a start tag ends (at its `>`, or the end of the text): attribute names, values quoted or not,
 * slashes and white space, read as the tokenizer reads them — a quoted value runs to its closing quote whatever it
 * holds; an unclosed one runs as an unquoted value does, to white space or `>`.
 */
function attributesEndAt(html: string, from: number): number {
  const n = html.length
  let i = from
  while (i < n) {
    const c = html.charCodeAt(i)
    if (isSpace(c) || c === SLASH) {
      i++
      continue
    }
    if (c === GT) return i
    // A name (after a stray `=`, itself a name's start), then maybe `=` and a value, white space either side.
    const began = i
    if (c === EQ) i++
    for (let d = html.charCodeAt(i); i < n && !isSpace(d) && d !== SLASH && d !== GT && d !== EQ; d = html.charCodeAt(++i));
    let j = i
    while (j < n && isSpace(html.charCodeAt(j))) j++
    if (j < n && html.charCodeAt(j) === EQ) i = valueEndAt(html, j + 1)
    if (i === began) return i
  }
  return n
}

/** Where an attribute's value that follows its `=` (and any white space) at `from` ends. */
function valueEndAt(html: string, from: number): number {
  const n = html.length
  let i = from
  while (i < n && isSpace(html.charCodeAt(i))) i++
  const quote = html.charCodeAt(i)
  if (quote === 34 || quote === 39) {
    const close = html.indexOf(quote === 34 ? '"' : "'", i + 1)
    if (close !== -1) return close + 1
  }
  for (let c = html.charCodeAt(i); i < n && !isSpace(c) && c !== GT; c = html.charCodeAt(++i));
  return i
}

/**
 * Where a raw text element's text ends: at its end tag (`</script` then white space or `>`, any case, read next
 * as an end tag), or -1 at the end of the text.
 */
function rawTextEndAt(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at !== -1; at = html.indexOf('</', at + 1)) {
    let k = 0
    // ASCII case folding: the names are letters a–z.
    while (k < name.length && (html.charCodeAt(at + 2 + k) | 0x20) === name.charCodeAt(k)) k++
    if (k === name.length && (isSpace(html.charCodeAt(at + 2 + k)) || html.charCodeAt(at + 2 + k) === GT)) return at
  }
  return -1
}

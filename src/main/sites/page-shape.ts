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

/** The tokenizer's white space (not JavaScript's `\s`, which takes more). */
const SPACE = '[ \\t\\n\\r\\f]'
// A start tag's name, an end tag's, a comment, a CDATA section, any other `<!`, `<?` or `</` not followed by a letter.
const TAG = new RegExp(`<([a-zA-Z][^ \\t\\n\\r\\f/>]*)|</([a-zA-Z][^ \\t\\n\\r\\f/>]*)|<!--|<!\\[CDATA\\[|<[!?]|</`, 'g')
/** The rest of a start tag: attribute names, values (quoted or not), slashes, up to its `>`. */
const ATTRIBUTES = new RegExp(`(?:${SPACE}|/|=?[^ \\t\\n\\r\\f/>=]*(?:${SPACE}*=${SPACE}*(?:"[^"]*"|'[^']*'|[^ \\t\\n\\r\\f>]*))?)*`, 'y')

/**
 * The deepest nesting of `html`'s elements, or `limit + 1` as soon as it passes `limit` (the scan stops there).
 * Linear in the text.
 */
export function nestingDepth(html: string, limit: number): number {
  const open: string[] = []
  let deepest = 0
  TAG.lastIndex = 0
  for (let m = TAG.exec(html); m; m = TAG.exec(html)) {
    const start = m[1]?.toLowerCase()
    const end = m[2]?.toLowerCase()
    if (start !== undefined) {
      ATTRIBUTES.lastIndex = TAG.lastIndex
      ATTRIBUTES.exec(html)
      TAG.lastIndex = ATTRIBUTES.lastIndex
      const closes = CLOSES[start]
      while (closes && open.length && closes.includes(open[open.length - 1]!)) open.pop()
      if (open.length + 1 > deepest && (deepest = open.length + 1) > limit) return limit + 1
      if (VOID.has(start)) continue
      if (RAW_TEXT.has(start)) skipTo(html, new RegExp(`</${start}[ \\t\\n\\r\\f>]`, 'gi'), true)
      else open.push(start)
    } else if (end !== undefined) {
      // (`</br>` and a `</p>` with none open make an element there.)
      if ((end === 'br' || end === 'p') && open.length + 1 > deepest && (deepest = open.length + 1) > limit) return limit + 1
      const at = open.lastIndexOf(end)
      if (at !== -1) open.length = at
      skipTo(html, />/g)
    } else {
      // A comment may end in its own opening (`<!-->`), as the tokenizer reads it.
      if (m[0] === '<!--') TAG.lastIndex = m.index + 2
      skipTo(html, m[0] === '<!--' ? /-->/g : m[0] === '<![CDATA[' ? /]]>/g : />/g)
    }
  }
  return deepest
}

/** Moves the scan past the next match of `to` (to its start, `atStart`: an end tag read as one), or to the end. */
function skipTo(html: string, to: RegExp, atStart = false): void {
  to.lastIndex = TAG.lastIndex
  const found = to.exec(html)
  TAG.lastIndex = found ? (atStart ? found.index : to.lastIndex) : html.length
}

/**
 * Helpers shared by the HTML adapters. Every adapter's output is bounded (docs/adr/0026-bounded-adapters.md):
 * a title at most `MAX_TITLE` characters, a label at most `MAX_LABEL`, white space collapsed in both, a URL
 * at most `MAX_URL`, and at most `MAX_ROWS` chapter rows read per page.
 */
import { load, type CheerioAPI } from 'cheerio/slim'
import type { AnyNode, Element } from 'domhandler'
import { MAX_PARSED_LABEL, collapseWhitespace, isSpace } from '../../shared/chapter-number'
import { plainHttpUrl } from './plain-url'
import type { Chapter } from './site'

export type Doc = CheerioAPI

export const MAX_TITLE = 300
export const MAX_LABEL = 200
export const MAX_URL = 2_048
/** A release date's text is short; more is not read. */
export const MAX_DATE = 64
/** Chapter rows an adapter reads from one page: the first half and the last half of longer lists. */
export const MAX_ROWS = 5_000

/**
 * The page's DOM. htmlparser2 (through cheerio's slim entry) rather than parse5: it is about 2.5 times as
 * fast on big pages, and the chapter lists adapters read are plain enough for it (docs/adr/0026-…).
 */
export function loadHtml(body: string): Doc {
  return load(body)
}

/** Collapses white space and cuts to `max` characters; '' for nothing. */
export function cleanText(text: string | undefined, max = MAX_LABEL): string {
  return collapseWhitespace(text ?? '', max)
}

/** An absolute http(s) URL for an href, or '' when it is missing, too long or of another scheme. */
export function absoluteHref(href: string | undefined, base: string): string {
  if (!href || href.length > MAX_URL) return ''
  // Most rows link a URL as the parser writes it: no parse (plain-url.ts).
  if (plainHttpUrl(href)) return href
  try {
    const url = new URL(href, base)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.href.length <= MAX_URL ? url.href : ''
  } catch {
    return ''
  }
}

const SKIPPED = new Set(['script', 'style', 'template', 'noscript', 'select', 'button'])
const BLOCKS = new Set(['address', 'article', 'aside', 'blockquote', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer'])
for (const name of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'section', 'table'])
  BLOCKS.add(name)
for (const name of ['tbody', 'td', 'th', 'thead', 'tr', 'ul']) BLOCKS.add(name)
const BLOCK_END = Symbol('block end')
/**
 * Elements one walk visits at most: far more than any title or row holds, and a bound on hostile markup
 * (thousands of rows nested in each other would otherwise make each row's walk cover all the rest).
 */
export const MAX_WALK = 256

function isElement(node: AnyNode): node is Element {
  return node.type === 'tag'
}

/**
 * The text of a node as a reader sees it: a `<br>` or a block boundary is a space, scripts and styles are
 * not text, elements `skip` names are left out (a title's badge, a row's date), white space is collapsed, and
 * the walk stops once `max` characters are kept — an unclosed `<h1>` swallowing a 4 MB page costs no more
 * than its first `max` characters. At most `MAX_WALK` nodes are visited.
 */
export function readableText(root: AnyNode | undefined, max: number, skip?: (element: Element) => boolean): string {
  if (!root) return ''
  let out = ''
  let gap = false
  let visits = 0
  const stack: Array<AnyNode | typeof BLOCK_END> = [root]
  while (stack.length > 0 && out.length < max && visits++ < MAX_WALK) {
    const node = stack.pop()!
    if (node === BLOCK_END) {
      gap = true
      continue
    }
    if (node.type === 'text') {
      const data = node.data
      if (/\s/.test(data.charAt(0))) gap = true
      const piece = collapseWhitespace(data, max)
      if (piece) {
        out += (gap && out ? ' ' : '') + piece
        gap = false
      }
      if (/\s/.test(data.charAt(data.length - 1))) gap = true
      continue
    }
    if (!isElement(node) && node.type !== 'root') continue
    if (isElement(node)) {
      if (SKIPPED.has(node.name) || skip?.(node)) continue
      if (node.name === 'br') {
        gap = true
        continue
      }
      if (BLOCKS.has(node.name) && node !== root) {
        gap = true
        stack.push(BLOCK_END)
      }
    }
    pushChildren(stack, node as Element, MAX_WALK - visits)
  }
  return collapseWhitespace(out, max)
}

/** The elements a selector selects, in document order. */
export function selectAll($: Doc, selector: string): Element[] {
  return $(selector).toArray().filter(isElement)
}

/** Whether an element carries a class. */
export function hasClass(element: Element, name: string): boolean {
  const classes = element.attribs['class']
  if (classes === undefined) return false
  // Asked of every element a walk visits: no string made. The name stands between white space or the ends.
  for (let at = classes.indexOf(name); at !== -1; at = classes.indexOf(name, at + 1)) {
    const end = at + name.length
    if ((at === 0 || isSpace(classes.charCodeAt(at - 1))) && (end === classes.length || isSpace(classes.charCodeAt(end)))) return true
  }
  return false
}

/**
 * The first element under `root` (depth first, `root` excluded) that `match` accepts, not entering what
 * `skip` names; at most `MAX_WALK` nodes are visited.
 */
export function findFirst(root: AnyNode, match: (element: Element) => boolean, skip?: (element: Element) => boolean): Element | undefined {
  const stack: AnyNode[] = []
  pushChildren(stack, root as Element, MAX_WALK)
  let visits = 0
  while (stack.length > 0 && visits++ < MAX_WALK) {
    const node = stack.pop()!
    if (!isElement(node)) continue
    if (skip?.(node)) continue
    if (match(node)) return node
    pushChildren(stack, node, MAX_WALK - visits)
  }
  return undefined
}

/** Pushes a node's first `budget` children, first child on top; a walk never pays for children it cannot visit. */
function pushChildren(stack: unknown[], node: Pick<Element, 'children'>, budget: number): void {
  const children = node.children ?? []
  for (let i = Math.min(children.length, budget) - 1; i >= 0; i--) stack.push(children[i]!)
}

/**
 * The first non-empty title among selectors (its `skip`ped parts left out), else the page's og:title, else
 * undefined. At most `MAX_TITLE` characters, white space collapsed, a `<br>` read as a space.
 */
export function titleOf($: Doc, selectors: readonly string[], skip?: (element: Element) => boolean): string | undefined {
  for (const selector of selectors) {
    const text = readableText($(selector).get(0), MAX_TITLE, skip)
    if (text) return text
  }
  const og = cleanText($('meta[property="og:title"]').attr('content'), MAX_TITLE)
  return og || undefined
}

/** A row's label as read (long enough for the parser) and as kept (at most `MAX_LABEL`). */
export function labelOf(root: AnyNode | undefined, skip?: (element: Element) => boolean): { text: string; label: string } {
  const text = readableText(root, MAX_PARSED_LABEL, skip)
  return { text, label: collapseWhitespace(text, MAX_LABEL) }
}

/** At most `MAX_ROWS` rows: all of a shorter list; else its first and last halves, so either order keeps its newest. */
export function boundedRows<T>(rows: readonly T[]): T[] {
  if (rows.length <= MAX_ROWS) return [...rows]
  const half = MAX_ROWS / 2
  return [...rows.slice(0, half), ...rows.slice(rows.length - half)]
}

/** Keeps chapters with a number; the same number twice keeps the first seen. */
export function distinctChapters(chapters: Array<Chapter | null>): Chapter[] {
  const seen = new Set<number>()
  const out: Chapter[] = []
  for (const chapter of chapters) {
    if (!chapter || seen.has(chapter.number)) continue
    seen.add(chapter.number)
    out.push(chapter)
  }
  return out
}

/** The image attributes a cover element may carry its URL in, lazy loaders' first (their `src` is a placeholder). */
const IMAGE_ATTRIBUTES = ['data-src', 'data-lazy-src', 'data-original', 'src', 'content', 'href'] as const

/**
 * The Series' cover: the first of `selectors` that names an image (an `<img>` itself or the first one inside it; a
 * lazy loader's `data-src` before its placeholder `src`; the first candidate of a `srcset`), else the page's
 * `og:image`; an absolute http(s) URL, or undefined. Only read here, never fetched (lanes/covers.ts fetches it).
 * One pass over the page for all the selectors together; `og:image` is looked for among the first `MAX_WALK`
 * nodes only (the head), so a page without either costs no scan of a long body.
 */
export function coverOf($: Doc, selectors: readonly string[], base: string): string | undefined {
  const found = selectors.length ? selectAll($, selectors.join(', ')) : []
  for (const selector of selectors) {
    const element = found.find((el) => $(el).is(selector))
    if (!element) continue
    const image = element.name === 'img' ? element : findFirst(element, (el) => el.name === 'img')
    const url = image && imageUrlOf(image, base)
    if (url) return url
  }
  const root = $.root().get(0)
  const og = root && findFirst(root, (el) => el.name === 'meta' && el.attribs['property'] === 'og:image')
  return absoluteHref(og?.attribs['content']?.trim(), base) || undefined
}

function imageUrlOf(element: Element, base: string): string {
  for (const name of IMAGE_ATTRIBUTES) {
    const url = absoluteHref(element.attribs[name]?.trim(), base)
    if (url && !url.startsWith('data:')) return url
  }
  const srcset = element.attribs['srcset'] ?? element.attribs['data-srcset']
  return absoluteHref(srcset?.trim().split(/\s+/)[0], base)
}

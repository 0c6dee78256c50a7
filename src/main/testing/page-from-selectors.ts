/**
 * A small Series page built from a selector entry's own selectors (tests only): the title where `title` selects,
 * and one row per chapter where `chapter` selects, its name where `name` selects inside it and its link where
 * `link` does. Enough CSS for the selectors the derivation keeps: tags, ids, classes, attributes (`=`, `^=`,
 * `*=`, `$=`, present), `:not(…)` (left unmet), `:has(…)`, `:contains(…)`, the first-of kinds, and the
 * descendant, child and sibling combinators. Anything else throws: a selector the page cannot be built for.
 */
import type { Selectors } from '../sites/families/selectors'

interface Compound {
  tag?: string
  id?: string
  classes: string[]
  attrs: Array<[string, string]>
  /** The attributes a link's own `href` must still meet: `*=` and `$=` (a query keeps the path as it is). */
  hrefMust?: { op: '*=' | '$='; value: string }
  has: string[]
  text?: string
}

type Combinator = ' ' | '>' | '+' | '~'
interface Step {
  combinator: Combinator
  compound: Compound
}

/** The first alternative of a selector list. */
function firstAlternative(selector: string): string {
  let depth = 0
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!
    if (c === '(' || c === '[') depth++
    else if (c === ')' || c === ']') depth--
    else if (c === ',' && depth === 0) return selector.slice(0, i)
  }
  return selector
}

/** `:is(a, b)` is its first alternative. */
const unwrapIs = (selector: string) => selector.replace(/:is\(([^()]*)\)/g, (_, inner: string) => firstAlternative(inner))

export function parseSelector(selector: string): Step[] {
  const text = unwrapIs(firstAlternative(selector)).trim()
  const steps: Step[] = []
  let combinator: Combinator = ' '
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === ' ') {
      i++
      continue
    }
    if (c === '>' || c === '+' || c === '~') {
      combinator = c
      i++
      continue
    }
    const end = compoundEnd(text, i)
    steps.push({ combinator, compound: parseCompound(text.slice(i, end)) })
    combinator = ' '
    i = end
  }
  return steps
}

function compoundEnd(text: string, from: number): number {
  let depth = 0
  for (let i = from; i < text.length; i++) {
    const c = text[i]!
    if (c === '(' || c === '[') depth++
    else if (c === ')' || c === ']') depth--
    else if (depth === 0 && ' >+~'.includes(c)) return i
  }
  return text.length
}

function parseCompound(text: string): Compound {
  const compound: Compound = { classes: [], attrs: [], has: [] }
  let rest = text
  const tag = /^([a-zA-Z][\w-]*|\*)/.exec(rest)
  if (tag) {
    if (tag[1] !== '*') compound.tag = tag[1]!.toLowerCase()
    rest = rest.slice(tag[0].length)
  }
  while (rest) {
    const id = /^#([\w-]+)/.exec(rest)
    const cls = /^\.([\w-]+)/.exec(rest)
    const attr = /^\[\s*([\w-:]+)\s*(?:([~^$*|]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]*)))?\s*\]/.exec(rest)
    const pseudo = /^:([\w-]+)(?:\(((?:[^()]|\([^()]*\))*)\))?/.exec(rest)
    const m = id ?? cls ?? attr ?? pseudo
    if (!m) throw new Error(`cannot build a page for "${text}"`)
    if (id) compound.id = id[1]
    else if (cls) compound.classes.push(cls[1]!)
    else if (attr) {
      const value = attr[3] ?? attr[4] ?? attr[5] ?? ''
      compound.attrs.push([attr[1]!, value])
      if (attr[1] === 'href' && (attr[2] === '*=' || attr[2] === '$=') && value) compound.hrefMust = { op: attr[2], value }
    } else pseudoOf(compound, pseudo![1]!, pseudo![2])
    rest = rest.slice(m[0].length)
  }
  return compound
}

function pseudoOf(compound: Compound, name: string, argument: string | undefined): void {
  if (name === 'not' || ['first-of-type', 'first-child', 'only-child', 'only-of-type', 'last-child', 'last-of-type'].includes(name)) return
  if (name === 'has') compound.has.push(argument!.trim())
  else if (name === 'contains') compound.text = argument!.replace(/^["']|["']$/g, '')
  else throw new Error(`cannot build a page for :${name}`)
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')

/** The parents HTML parsing needs around table parts (a `<tr>` outside a table is dropped). */
function withTableParents(steps: Step[], outer?: string): Step[] {
  const out: Step[] = []
  const needs: Record<string, string[]> = {
    tr: ['table', 'tbody'],
    td: ['table', 'tbody', 'tr'],
    th: ['table', 'tbody', 'tr'],
    tbody: ['table'],
  }
  for (const step of steps) {
    const tag = step.compound.tag ?? ''
    const parent = !out.length ? outer : step.combinator !== '+' && step.combinator !== '~' ? out[out.length - 1]!.compound.tag : undefined
    const chain = needs[tag]
    if (chain && !(parent && (chain.at(-1) === parent || (tag === 'tr' && ['thead', 'tfoot', 'table'].includes(parent))))) {
      const start = parent ? chain.indexOf(parent) + 1 : 0
      for (const t of chain.slice(start)) out.push({ combinator: ' ', compound: { tag: t, classes: [], attrs: [], has: [] } })
    } else if (parent && ['table', 'tbody', 'thead', 'tfoot', 'tr'].includes(parent) && !chain && !['caption', 'colgroup'].includes(tag)) {
      // Anything else inside a table is moved out of it by HTML parsing: it sits in a cell.
      const cell = parent === 'tr' ? ['td'] : parent === 'table' ? ['tbody', 'tr', 'td'] : ['tr', 'td']
      for (const t of cell) out.push({ combinator: ' ', compound: { tag: t, classes: [], attrs: [], has: [] } })
    }
    out.push(step)
  }
  return out
}

/** The HTML of `steps`, the last one holding `inner` (and `extra` attributes). */
export function render(steps: Step[], inner = '', defaultTag = 'div', extra: Array<[string, string]> = [], outer?: string): string {
  const all = withTableParents(steps, outer)
  let level = ''
  for (let i = all.length - 1; i >= 0; i--) {
    const { compound, combinator } = all[i]!
    const last = i === all.length - 1
    const element = open(compound, last ? defaultTag : 'div', last ? extra : [], last ? inner : '')
    // A sibling step sits beside what follows it; any other step holds it.
    const next = all[i + 1]
    level = last ? element : next && (next.combinator === '+' || next.combinator === '~') ? element + level : insert(element, level)
    void combinator
  }
  return level
}

function insert(element: string, inner: string): string {
  const close = element.lastIndexOf('</')
  return element.slice(0, close) + inner + element.slice(close)
}

function open(c: Compound, defaultTag: string, extra: Array<[string, string]>, inner: string): string {
  const tag = c.tag ?? defaultTag
  // A link's own href meets its selector's `[href*=…]` / `[href$=…]` by a query after its path.
  const meet = ([k, v]: [string, string]): [string, string] =>
    k === 'href' && c.hrefMust && !v.includes(c.hrefMust.value) ? [k, `${v}${v.includes('?') ? '&' : '?'}${c.hrefMust.value}`] : [k, v]
  const attrs: Array<[string, string]> = [...c.attrs.filter(([k]) => !extra.some(([e]) => e === k)), ...extra.map(meet)]
  if (c.id) attrs.push(['id', c.id])
  if (c.classes.length) attrs.push(['class', c.classes.join(' ')])
  const text = attrs.map(([k, v]) => ` ${k}="${escape(v)}"`).join('')
  // A row's content sits in cells (HTML parsing moves anything else out of the table).
  const cell = (part: string) => (tag === 'tr' && part && !/^<t[dh][\s>]/.test(part) ? `<td>${part}</td>` : part)
  const content = `${c.text ? escape(c.text) : ''}${c.has.map((h) => cell(render(parseSelector(h), '', 'span', [], tag))).join('')}${cell(inner)}`
  return `<${tag}${text}>${content}</${tag}>`
}

/** A Series page with one row per chapter (label and path), read by `selectors` as written. */
export function pageFromSelectors(selectors: Selectors, title: string, chapters: Array<{ label: string; path: string }>): string {
  const rowSteps = parseSelector(selectors.chapter)
  const numberAttr: Array<[string, string]> = selectors.number.startsWith('attr:') ? [[selectors.number.slice(5), '']] : []
  const rows = chapters.map(({ label, path }) => {
    const own = numberAttr.map(([k]): [string, string] => [k, label])
    const rowIsLink = !selectors.link
    const rowIsName = !selectors.name
    let inner = rowIsName ? escape(label) : ''
    if (!rowIsLink) {
      const sameElement =
        selectors.name && firstAlternative(unwrapIs(selectors.name)).trim() === firstAlternative(unwrapIs(selectors.link!)).trim()
      inner += render(parseSelector(selectors.link!), sameElement ? escape(label) : 'Read', 'a', [['href', path]])
      if (!sameElement && !rowIsName) inner += render(parseSelector(selectors.name!), escape(label), 'span')
    } else if (!rowIsName) inner += render(parseSelector(selectors.name!), escape(label), 'span')
    const rowTag = rowSteps.at(-1)?.compound.tag
    // A row that is its own link but no <a> by its selector holds the link.
    if (rowIsLink && rowTag && rowTag !== 'a') return render(rowSteps, `<a href="${escape(path)}">${inner}</a>`, 'div', own)
    return render(rowSteps, inner, rowIsLink ? 'a' : 'div', rowIsLink ? [['href', path], ...own] : own)
  })
  // Each row in a parent of its own, so a first-of-type row is one in every parent.
  const heading = selectors.title ? render(parseSelector(selectors.title), escape(title), 'h1') : `<h1>${escape(title)}</h1>`
  return `<!doctype html><html><head><title>${escape(title)}</title></head><body>${heading}${rows.map((r) => `<div>${r}</div>`).join('\n')}</body></html>`
}

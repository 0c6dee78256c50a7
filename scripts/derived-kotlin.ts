/**
 * The small Kotlin reader behind scripts/derived-sites.ts: it finds an extension's chapter list parse and, when it
 * is the simple shape (one `select("…")` over the Series page, each element made into a chapter whose name is an
 * element's text and whose URL is an element's `href`, every selector a string literal), says which selectors it
 * uses. Anything else — a loop, a condition, a request of its own, a JSON answer, a selector built at run time —
 * is refused with the reason. Facts only: the selectors and the shape; no code is kept.
 */

export interface DerivedSelectors {
  chapter: string
  title?: string
  number: 'text' | `attr:${string}`
  name?: string
  link?: string
}

export type Derivation = { ok: true; shape: string; selectors: DerivedSelectors } | { ok: false; why: string }

/** The text between the braces opening at `open` (exclusive), string literals skipped; null when unbalanced. */
export function braced(text: string, open: number, pair: '{}' | '()' = '{}'): { inner: string; end: number } | null {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      i = stringEnd(text, i)
      if (i < 0) return null
      continue
    }
    if (c === pair[0]) depth++
    else if (c === pair[1] && --depth === 0) return { inner: text.slice(open + 1, i), end: i }
  }
  return null
}

/** The index of the quote closing the string literal opening at `start`; raw strings are skipped whole. */
function stringEnd(text: string, start: number): number {
  if (text.startsWith('"""', start)) {
    const end = text.indexOf('"""', start + 3)
    return end < 0 ? -1 : end + 2
  }
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i
    else if (text[i] === '\n') return -1
  }
  return -1
}

/** A Kotlin string literal's value, or null when it is built at run time (a template) or not one literal. */
export function literal(code: string): string | null {
  const m = /^"((?:[^"\\$]|\\[\\"'nt])*)"$/.exec(code.trim())
  return m ? m[1]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c)) : null
}

/** The body of `fun <name>(…)`: a block's inside, or an expression body; null when absent. */
export function functionBody(text: string, name: string): string | null {
  const at = new RegExp(`\\bfun\\s+${name}\\s*\\(`).exec(text)
  if (!at) return null
  const params = braced(text, at.index + at[0].length - 1, '()')
  if (!params) return null
  const rest = text.slice(params.end + 1)
  const head = /^\s*(?::\s*[\w<>?.,\s]+?)?\s*([{=])/.exec(rest)
  if (!head) return null
  const from = params.end + 1 + head[0].length - 1
  if (head[1] === '{') return braced(text, from)?.inner ?? null
  return expressionAfter(text, from + 1)
}

/** An expression body: up to the first line, outside brackets, that starts a new declaration. */
function expressionAfter(text: string, from: number): string {
  let depth = 0
  for (let i = from; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      const end = stringEnd(text, i)
      if (end < 0) return text.slice(from, i)
      i = end
    } else if ('({['.includes(c)) depth++
    else if (')}]'.includes(c)) {
      if (--depth < 0) return text.slice(from, i)
    } else if (c === '\n' && depth === 0) {
      const next = /^\s*(\S+)/.exec(text.slice(i + 1))?.[1] ?? ''
      if (!/^(\.|\?\.|\?:|\)|\}|&&|\|\|)/.test(next)) return text.slice(from, i)
    }
  }
  return text.slice(from)
}

/** Statements at depth 0, a continuation line (`.x`, `?.x`, `?: x`) joined to its statement. */
export function statements(block: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (let i = 0; i < block.length; i++) {
    const c = block[i]!
    if (c === '"') {
      const end = stringEnd(block, i)
      if (end < 0) return [block]
      current += block.slice(i, end + 1)
      i = end
      continue
    }
    if ('({['.includes(c)) depth++
    else if (')}]'.includes(c)) depth--
    if ((c === '\n' || c === ';') && depth === 0) {
      const next = /^\s*(\S+)/.exec(block.slice(i + 1))?.[1] ?? ''
      if (!/^(\.|\?\.|\?:)/.test(next)) {
        if (current.trim()) out.push(current.trim())
        current = ''
        continue
      }
    }
    current += c
  }
  if (current.trim()) out.push(current.trim())
  return out.map((s) => s.replace(/\s*\n\s*/g, ''))
}

const withoutComments = (code: string) => code.replace(/^\s*\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '')

/**
 * An element path from the chapter's element: `row`, `row.selectFirst("a")!!`, `link` (an alias), … — the
 * selectors from the row, joined; null when the path is anything else.
 */
function elementPath(code: string, bases: ReadonlyMap<string, string[]>): string[] | null {
  const m = /^(\w+)/.exec(code)
  if (!m || !bases.has(m[1]!)) return null
  const steps = [...bases.get(m[1]!)!]
  let rest = code.slice(m[0].length)
  while (rest) {
    const step =
      /^(?:!!|\?)?\.(selectFirst|select)\(("(?:[^"\\]|\\.)*")\)(?:!!)?/.exec(rest) ??
      /^(?:!!|\?)?\.(first|firstOrNull)\(\)(?:!!)?/.exec(rest)
    if (!step) {
      if (/^(?:!!)$/.test(rest)) break
      return null
    }
    if (step[1] === 'select' || step[1] === 'selectFirst') {
      const selector = literal(step[2]!)
      if (selector === null) return null
      steps.push(selector)
    }
    rest = rest.slice(step[0].length)
  }
  return steps
}

/** What may follow a read without changing it where it is read: a trim, a fallback when there is nothing. */
const FALLBACK = String.raw`\.trim(?:Start)?\(\)|\??\.orEmpty\(\)|!!|\s*\?:\s*(?:"[^"$\\]*"|throw \w+\("[^"$\\]*"\))|\.ifEmpty\s*\{\s*"[^"$\\]*"\s*\}`

/** The path an expression reads text from (`<path>.text()`), or null. */
function textPath(code: string, bases: ReadonlyMap<string, string[]>): string[] | null {
  const m = new RegExp(`^(.+?)(?:\\?|!!)?\\.text\\(\\)(?:${FALLBACK})*$`).exec(code)
  return m ? elementPath(m[1]!, bases) : null
}

/** The path an expression reads an `href` from, or null. */
function hrefPath(code: string, bases: ReadonlyMap<string, string[]>): string[] | null {
  const m = new RegExp(`^(.+?)(?:\\?|!!)?\\.(?:attr\\("(?:abs:)?href"\\)|absUrl\\("href"\\))(?:${FALLBACK})*$`).exec(code)
  return m ? elementPath(m[1]!, bases) : null
}

/** The chapter's fields from an `SChapter.create().apply { … }` block over the element named `param`. */
export function chapterFields(block: string, param: string): { name: string[]; link: string[]; attr?: string } | string {
  const bases = new Map<string, string[]>([[param, []]])
  let name: string[] | null = null
  let link: string[] | null = null
  let attr: string | undefined
  for (const s of statements(withoutComments(block))) {
    const alias = /^val (\w+)(?:\s*:\s*Element\??)? = (.+)$/.exec(s)
    if (alias) {
      // A value that is no element (a date's text, …) may feed only what is not read here.
      const path = elementPath(alias[2]!, bases)
      if (path) bases.set(alias[1]!, path)
      else bases.delete(alias[1]!)
      continue
    }
    const field = /^(\w+)\s*=\s*(.+)$/.exec(s)
    const url = /^setUrlWithoutDomain\((.+)\)$/.exec(s)
    if (url || field?.[1] === 'url') {
      link = hrefPath((url?.[1] ?? field![2])!, bases)
      if (!link) return `a URL made, not read: ${s.slice(0, 80)}`
    } else if (field?.[1] === 'name') {
      name = textPath(field[2]!, bases)
      if (!name) return `a name made, not read: ${s.slice(0, 80)}`
    } else if (field && ['date_upload', 'scanlator'].includes(field[1]!)) {
      continue
    } else if (field?.[1] === 'chapter_number') {
      const number = new RegExp(`^${param}\\.attr\\("([\\w-]+)"\\)\\.toFloat(?:OrNull)?\\(\\)(?:\\s*\\?:\\s*-?\\d+f|!!)?$`, 'i').exec(
        field[2]!,
      )
      if (number) attr = number[1]
    } else return `a statement with logic: ${s.slice(0, 80)}`
  }
  if (!name) return 'no name read'
  if (!link) return 'no URL read'
  return { name, link, ...(attr ? { attr } : {}) }
}

const join = (steps: string[]) => (steps.length === 1 ? steps[0]! : steps.map((s) => (s.includes(',') ? `:is(${s})` : s)).join(' '))

/** What `title = <doc>.selectFirst("…")…text()` in the details parse says the title is; undefined when not so. */
export function titleSelector(text: string): string | undefined {
  const body = functionBody(text, 'mangaDetailsParse')
  if (!body) return undefined
  const m = /\btitle\s*=\s*\w+\.select(?:First)?\(("(?:[^"\\]|\\.)*")\)(?:!!|\?)?\.text\(\)/.exec(body)
  return m ? (literal(m[1]!) ?? undefined) : undefined
}

/** Whether the chapter list is read from the Series page itself (the request is the default one). */
export function listIsSeriesPage(text: string): boolean {
  const body = functionBody(text, 'chapterListRequest')
  if (body === null) return true
  const mangaUrl = functionBody(text, 'getMangaUrl') === null ? '|getMangaUrl\\(manga\\)' : ''
  const plain = (b: string) =>
    new RegExp(
      `^\\s*(?:return\\s+)?GET\\((?:baseUrl \\+ manga\\.url|"\\$baseUrl\\$\\{manga\\.url\\}"${mangaUrl})(?:,\\s*headers)?\\)\\s*$`,
    ).test(b)
  if (plain(body)) return true
  if (/^\s*(?:return\s+)?mangaDetailsRequest\(manga\)\s*$/.test(body)) {
    const details = functionBody(text, 'mangaDetailsRequest')
    return details === null || plain(details)
  }
  return false
}

/**
 * The selectors of an extension's chapter list parse, when it is one of the simple shapes:
 * - `lambda`: `<doc>.select("…").map { row -> SChapter.create().apply { … } }`;
 * - `function`: the same with the apply block in a function of its own (`.map(::f)`, `.map { f(it) }`).
 */
export function deriveSelectors(text: string): Derivation {
  const body = functionBody(text, 'chapterListParse')
  if (body === null) return { ok: false, why: 'no chapterListParse' }
  if (!listIsSeriesPage(text)) return { ok: false, why: 'the list comes by a request of its own' }
  const code = withoutComments(body)
  const doc = /val (\w+)(?:\s*:\s*Document)? = response\.asJsoup\(\)/.exec(code)?.[1]
  const chain = new RegExp(
    `(?:${doc ? `\\b${doc}|` : ''}response\\.asJsoup\\(\\))\\s*\\.select\\(("(?:[^"\\\\]|\\\\.)*"|\\w+(?:\\(\\))?)\\)\\s*(?:\\.reversed\\(\\)\\s*)?\\.(?:map|mapNotNull)\\s*`,
  ).exec(code)
  if (!chain) return { ok: false, why: code.includes('parseAs') ? 'a JSON answer' : 'no select(…).map over the page' }
  const chapter = literal(chain[1]!) ?? constant(text, chain[1]!)
  if (chapter === null) return { ok: false, why: 'the list selector is built at run time' }
  const after = chain.index + chain[0].length
  const found = mappedBlock(text, code, after)
  if (typeof found === 'string') return { ok: false, why: found }
  const residue = (code.slice(0, chain.index) + code.slice(found.end + 1))
    .replace(/val \w+(?:\s*:\s*Document)? = response\.asJsoup\(\)/, '')
    .replace(/\breturn\b|\.reversed\(\)|\.distinctBy\s*\{\s*it\.url\s*\}/g, '')
    .trim()
  if (residue) return { ok: false, why: `more than the list: ${residue.replace(/\s+/g, ' ').slice(0, 80)}` }
  const fields = chapterFields(found.block, found.param)
  if (typeof fields === 'string') return { ok: false, why: fields }
  const title = titleSelector(text)
  const selectors: DerivedSelectors = {
    chapter,
    ...(title ? { title } : {}),
    number: fields.attr ? `attr:${fields.attr}` : 'text',
    ...(fields.name.length ? { name: join(fields.name) } : {}),
    ...(fields.link.length ? { link: join(fields.link) } : {}),
  }
  return {
    ok: true,
    shape: `${found.shape}, name ${fields.name.length ? 'inside' : 'the row'}, link ${fields.link.length ? 'inside' : 'the row'}`,
    selectors,
  }
}

/** A selector named by a constant (`val x = "…"`, `fun x() = "…"`) the extension sets once; null otherwise. */
function constant(text: string, code: string): string | null {
  const name = /^(\w+)(\(\))?$/.exec(code)
  if (!name) return null
  const declared = name[2]
    ? new RegExp(`fun\\s+${name[1]}\\(\\)\\s*(?::\\s*String\\s*)?=\\s*("(?:[^"\\\\\n]|\\\\.)*")\\s*\n`).exec(text)
    : new RegExp(`val\\s+${name[1]}\\s*(?::\\s*String\\s*)?=\\s*("(?:[^"\\\\\n]|\\\\.)*")\\s*\n`).exec(text)
  const declarations = text.match(new RegExp(`\\b(?:val|fun)\\s+${name[1]}\\b`, 'g'))?.length ?? 0
  return declared && declarations === 1 ? literal(declared[1]!) : null
}

/** The apply block the list maps each element through: a lambda's, or a named function's. */
function mappedBlock(text: string, code: string, at: number): { block: string; param: string; end: number; shape: string } | string {
  const ref = /^\(::(\w+)\)/.exec(code.slice(at))
  let fn: string | undefined
  let end: number
  let lambdaBody = ''
  let param = 'it'
  if (ref) {
    fn = ref[1]
    end = at + ref[0].length - 1
  } else if (code[at] === '{') {
    const lambda = braced(code, at)
    if (!lambda) return 'an unbalanced lambda'
    end = lambda.end
    const head = /^\s*(\w+)\s*->/.exec(lambda.inner)
    if (head) param = head[1]!
    lambdaBody = (head ? lambda.inner.slice(head[0].length) : lambda.inner).trim()
    const call = new RegExp(`^(\\w+)\\(${param}\\)$`).exec(lambdaBody)
    if (call) fn = call[1]
  } else return 'not a map over the elements'
  if (fn) {
    const fnText = new RegExp(`fun\\s+${fn}\\s*\\((\\w+)\\s*:\\s*Element\\)`).exec(text)
    const fnBody = fnText && functionBody(text, fn)
    if (!fnText || !fnBody) return `the chapter is made by ${fn}, not read here`
    const applied = applyBlock(fnBody.replace(/^\s*return\s+/, ''))
    return applied === null ? `${fn} does more than one apply block` : { block: applied, param: fnText[1]!, end, shape: 'function' }
  }
  const applied = applyBlock(lambdaBody)
  return applied === null ? 'the lambda does more than one apply block' : { block: applied, param, end, shape: 'lambda' }
}

/** The inside of `SChapter.create().apply { … }` when that is the whole expression; null otherwise. */
function applyBlock(code: string): string | null {
  const m = /^\s*SChapter\.create\(\)\.apply\s*/.exec(code)
  if (!m) return null
  const block = braced(code, m[0].length)
  return block && code.slice(block.end + 1).trim() === '' ? block.inner : null
}

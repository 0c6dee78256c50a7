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
  // An expression body may begin on the next line.
  return expressionAfter(text, from + 1 + /^\s*/.exec(text.slice(from + 1))![0].length)
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

/** What may follow a name's text and leave its number as it is: a literal with no digit taken off an end. */
const UNDIGITED = String.raw`\.remove(?:Prefix|Suffix)\("[^"$\\\d]*"\)|\.trimEnd\(\)`

/** A value kept only when it is not empty: a row without it is skipped (the adapter skips a row with no link). */
const NOT_EMPTY = /\s*\??\.takeIf\s*(?:\{\s*it\.isNot(?:Empty|Blank)\(\)\s*\}|\(String::isNot(?:Empty|Blank)\))\s*$/

/** The path an expression reads text from (`<path>.text()`), or null. */
function textPath(code: string, bases: ReadonlyMap<string, string[]>): string[] | null {
  const m = new RegExp(`^(.+?)(?:\\?|!!)?\\.text\\(\\)(?:${FALLBACK}|${UNDIGITED})*$`).exec(code)
  return m ? elementPath(m[1]!, bases) : null
}

/** The path an expression reads an `href` from, or null. */
function hrefPath(code: string, bases: ReadonlyMap<string, string[]>): string[] | null {
  const m = new RegExp(`^(.+?)(?:\\?|!!)?\\.(?:attr\\("(?:abs:)?href"\\)|absUrl\\("href"\\))(?:${FALLBACK})*$`).exec(code)
  return m ? elementPath(m[1]!, bases) : null
}

/** The element calls a scope's receiver answers when named by nothing (`with(a) { name = text() }`). */
const RECEIVER_CALL = /(^|[^.\w])(text|ownText|attr|absUrl|selectFirst|select)\(/g

/**
 * A statement that reads an element in a scope of its own (`<path>.let { a -> … }`, `<path>?.run { … }`,
 * `with(<path>) { … }`) written as a named element and the scope's statements, which then read it by that name.
 */
export function withoutScopes(block: string, n = 0): string {
  const scope = /(^|\n)[ \t]*(?:with\(([^\n{}]+)\)|([A-Za-z_][^\n{}=]*?)(?:\?|!!)?\.(let|run|also|apply))\s*\{/.exec(block)
  if (!scope) return block
  const open = scope.index + scope[0].length - 1
  const inner = braced(block, open)
  if (!inner) return block
  const name = `scoped${n}`
  const param = /^\s*(\w+)\s*->/.exec(inner.inner)
  const body = param ? inner.inner.slice(param[0].length) : inner.inner
  const named =
    scope[4] === 'let' || scope[4] === 'also'
      ? body.replace(new RegExp(`\\b${param?.[1] ?? 'it'}\\b`, 'g'), name)
      : body.replace(RECEIVER_CALL, `$1${name}.$2(`)
  const rewritten = `${scope[1]}val ${name} = ${(scope[2] ?? scope[3])!.trim()}\n${named}\n`
  return withoutScopes(block.slice(0, scope.index) + rewritten + block.slice(inner.end + 1), n + 1)
}

/** The chapter's fields from an `SChapter.create().apply { … }` block over the element named `param`. */
export function chapterFields(block: string, param: string): { name: string[]; link: string[]; attr?: string } | string {
  const bases = new Map<string, string[]>([[param, []]])
  let name: string[] | null = null
  let link: string[] | null = null
  let attr: string | undefined
  const guards: string[][] = []
  // Values read once and named: an element's `href` or text (`val u = row.absUrl("href")`).
  const reads = new Map<string, { href: string[] | null; text: string[] | null }>()
  for (const s of statements(withoutScopes(withoutComments(block)))) {
    const alias = /^val (\w+)(?:\s*:\s*(?:Element|String)\??)? = (.+?)(\s*\?:\s*return(?:@\w+)?\s+null)?$/.exec(s)
    if (alias) {
      // A value that is no element (a date's text, …) may feed only what is not read here.
      const path = elementPath(alias[2]!, bases)
      if (path) bases.set(alias[1]!, path)
      else bases.delete(alias[1]!)
      const value = alias[2]!.replace(NOT_EMPTY, '')
      const read = path ? null : { href: hrefPath(value, bases), text: textPath(value, bases) }
      if (read && (read.href || read.text)) reads.set(alias[1]!, read)
      else reads.delete(alias[1]!)
      const guarded = path ?? read?.href ?? read?.text
      if (alias[3] && !guarded) return `a row skipped by logic: ${s.slice(0, 80)}`
      if (alias[3]) guards.push(guarded!)
      continue
    }
    const field = /^(\w+)\s*=\s*(.+)$/.exec(s)
    const url = /^setUrlWithoutDomain\((.+)\)$/.exec(s)
    if (url || field?.[1] === 'url') {
      const expression = (url?.[1] ?? field![2])!
      link = reads.get(expression)?.href ?? hrefPath(expression, bases)
      if (!link) return `a URL made, not read: ${s.slice(0, 80)}`
    } else if (field?.[1] === 'name') {
      name = reads.get(field[2]!)?.text ?? textPath(field[2]!, bases)
      if (!name) return `a name made, not read: ${s.slice(0, 80)}`
    } else if (field && ['date_upload', 'scanlator'].includes(field[1]!)) {
      continue
    } else if (/\{\s*(?:\w+\s*->\s*)?(?:date_upload|scanlator)\s*=[^{}]*\}$/.test(s) && !/\b(?:name|url)\s*=|setUrlWithoutDomain/.test(s)) {
      // `….also { date_upload = … }`: only a date or a scanlator, which are not read.
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
  // A row skipped when it lacks an element is one the adapter skips too only if its name or link is in that element.
  const within = (guard: string[], path: string[]) => guard.every((step, i) => path[i] === step)
  if (!guards.every((g) => within(g, name) || within(g, link))) return 'a row skipped for an element not read'
  return { name, link, ...(attr ? { attr } : {}) }
}

const join = (steps: string[]) => (steps.length === 1 ? steps[0]! : steps.map((s) => (s.includes(',') ? `:is(${s})` : s)).join(' '))

/** What `title = <doc>.selectFirst("…")…text()` in the details parse says the title is; undefined when not so. */
export function titleSelector(text: string): string | undefined {
  const body = functionBody(text, 'mangaDetailsParse') ?? functionBody(text, 'parseMangaDetails')
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
 * - `function`: the same with the apply block in a function of its own (`.map(::f)`, `.map { f(it) }`);
 * - `update …`: a KeiSource whose `fetchMangaUpdate` reads the Series page and hands that document to a
 *   `fun f(doc: Document): List<SChapter>` of one of the shapes above;
 * - `parsed …`: a ParsedHttpSource's `chapterListSelector()` literal and `chapterFromElement` apply block.
 */
export function deriveSelectors(text: string): Derivation {
  const body = functionBody(text, 'chapterListParse')
  if (body === null) {
    if (/\bfun\s+fetchMangaUpdate\s*\(/.test(text)) return deriveFromUpdate(text)
    if (functionBody(text, 'chapterListSelector') !== null) return deriveFromParsed(text)
    return { ok: false, why: 'no chapterListParse' }
  }
  if (!listIsSeriesPage(text)) return { ok: false, why: 'the list comes by a request of its own' }
  const code = withoutComments(body)
  const doc = /val (\w+)(?:\s*:\s*Document)? = response\.asJsoup\(\)/.exec(code)?.[1]
  return deriveFromList(text, code, doc ? [doc, 'response.asJsoup()'] : ['response.asJsoup()'], '')
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The list's selectors from a parse's code, the page being any of `docs`; `prefix` names the shape's origin. */
function deriveFromList(text: string, code: string, docs: string[], prefix: string): Derivation {
  const chain = new RegExp(
    `(?:${docs.map((d) => (/^\w+$/.test(d) ? `\\b${d}` : escapeRegExp(d))).join('|')})\\s*\\.select\\(("(?:[^"\\\\]|\\\\.)*"|\\w+(?:\\(\\))?)\\)\\s*(?:\\.reversed\\(\\)\\s*)?\\.(?:mapNotNull|map)\\b\\s*`,
  ).exec(code)
  if (!chain) return { ok: false, why: code.includes('parseAs') ? 'a JSON answer' : 'no select(…).map over the page' }
  const chapter = literal(chain[1]!) ?? constant(text, chain[1]!)
  if (chapter === null) return { ok: false, why: 'the list selector is built at run time' }
  const after = chain.index + chain[0].length
  const found = mappedBlock(text, code, after)
  if (typeof found === 'string') return { ok: false, why: found }
  const residue = (code.slice(0, chain.index) + code.slice(found.end + 1))
    .replace(/val \w+(?:\s*:\s*Document)? = response\.asJsoup\(\)/, '')
    // The order is no fact the app reads (it keeps both ends of a long list): a sort or a reversal is no logic.
    .replace(
      /\breturn\b|\.(?:as)?[rR]eversed\(\)|\.distinctBy\s*\{\s*it\.url\s*\}|\.sortedBy(?:Descending)?\s*\{\s*it\.chapter_number\s*\}/g,
      '',
    )
    .trim()
  if (residue) return { ok: false, why: `more than the list: ${residue.replace(/\s+/g, ' ').slice(0, 80)}` }
  return fromFields(text, chapter, found.block, found.param, `${prefix}${found.shape}`)
}

/** A derivation from the chapter's apply block over the element named `param`. */
function fromFields(text: string, chapter: string, block: string, param: string, how: string): Derivation {
  const fields = chapterFields(block, param)
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
    shape: `${how}, name ${fields.name.length ? 'inside' : 'the row'}, link ${fields.link.length ? 'inside' : 'the row'}`,
    selectors,
  }
}

/** The Series page's address as the update fetches it: the one a reader opens (`getMangaUrl`), or the same built. */
function seriesPageUrl(text: string): RegExp {
  const own = functionBody(text, 'getMangaUrl')
  const plain = String.raw`"\$baseUrl\$\{manga\.url\}"|baseUrl \+ manga\.url`
  const same = own === null || new RegExp(`^\\s*(?:return\\s+)?(?:${plain})\\s*$`).test(own)
  return new RegExp(`^(?:getMangaUrl\\(manga\\)${same ? `|${plain}` : ''})(?:,\\s*(?:headers|ensureSuccess = false))?$`)
}

/** An update's code with `${baseUrl}` spelt `$baseUrl` and a value naming the Series' address replaced by it. */
function normalisedUpdate(code: string): string {
  let out = withoutComments(code).replace(/\$\{baseUrl\}/g, '$baseUrl')
  for (const m of code.matchAll(/val (\w+) = manga\.url\s*\n/g))
    out = out.replace(new RegExp(`\\$\\{?${m[1]}\\b\\}?`, 'g'), '${manga.url}').replace(new RegExp(`\\b${m[1]}\\b`, 'g'), 'manga.url')
  for (const m of out.matchAll(/val (\w+) = (getMangaUrl\(manga\)|"\$baseUrl\$\{manga\.url\}")\s*\n/g))
    out = out.replace(new RegExp(`client\\.get\\(${m[1]}\\b`, 'g'), `client.get(${m[2]}`)
  return out
}

/** `{ r -> …; r.asJsoup() }` read as the page itself: any statement before the last only throws. */
function useIsPage(block: string): boolean {
  const head = /^\s*(?:(\w+)\s*->)?/.exec(block)!
  const parts = statements(block.slice(head[0].length))
  const last = parts.pop() ?? ''
  return last === `${head[1] ?? 'it'}.asJsoup()` && parts.every((p) => /^if\b/.test(p) && p.includes('throw') && !p.includes('client.'))
}

/** The names the update gives the Series page's document, and the functions it hands that page to directly. */
function seriesDocuments(text: string, code: string): { docs: Set<string>; direct: Set<string> } {
  const docs = new Set<string>()
  const direct = new Set<string>()
  const series = seriesPageUrl(text)
  for (const get of code.matchAll(/client\.get\(/g)) {
    const args = braced(code, get.index + get[0].length - 1, '()')
    if (!args || !series.test(args.inner.trim())) continue
    const before = code.slice(0, get.index)
    const rest = code.slice(args.end + 1)
    const assigned = /val (\w+)(?:\s*:\s*\w+)?\s*=\s*$/.exec(before)?.[1]
    const calledBy = /\b(\w+)\(\s*$/.exec(before)?.[1]
    let page = /^\s*\.asJsoup\(\)/.test(rest)
    const use = /^\s*\.use\s*\{/.exec(rest)
    if (use) {
      const block = braced(rest, use[0].length - 1)
      const param = block && (/^\s*(\w+)\s*->/.exec(block.inner)?.[1] ?? 'it')
      if (block && useIsPage(block.inner)) page = true
      else if (param)
        for (const d of block.inner.matchAll(new RegExp(`val (\\w+)(?:\\s*:\\s*Document)? = ${param}\\.asJsoup\\(\\)`, 'g')))
          docs.add(d[1]!)
    } else if (!page && assigned) {
      for (const d of code.matchAll(new RegExp(`val (\\w+)(?:\\s*:\\s*Document)? = ${assigned}\\.asJsoup\\(\\)`, 'g'))) docs.add(d[1]!)
    }
    if (page && assigned) docs.add(assigned)
    if (page && calledBy) direct.add(calledBy)
  }
  return { docs, direct }
}

/** The chapter parse the update (or one function it delegates the chapters to) hands the Series page to. */
function chapterParseOf(text: string, body: string, depth = 0): { name: string; param: string } | null {
  const code = normalisedUpdate(body)
  const { docs, direct } = seriesDocuments(text, code)
  const called = [
    ...direct,
    ...[...docs].flatMap((d) => [...code.matchAll(new RegExp(`\\b(\\w+)\\(\\s*${d}\\s*\\)`, 'g'))].map((m) => m[1]!)),
  ]
  for (const name of called) {
    const declared = new RegExp(`fun\\s+${name}\\s*\\(\\s*(\\w+)\\s*:\\s*Document\\s*\\)\\s*:\\s*List<SChapter>`).exec(text)
    if (declared) return { name, param: declared[1]! }
  }
  if (depth > 0) return null
  for (const m of code.matchAll(/\b(\w+)\(\s*manga\s*\)/g)) {
    const delegated = new RegExp(`fun\\s+${m[1]}\\s*\\(\\s*manga\\s*:\\s*SManga\\s*\\)\\s*:\\s*List<SChapter>`).test(text)
    const inner = delegated && functionBody(text, m[1]!)
    const found = inner && chapterParseOf(text, inner, depth + 1)
    if (found) return found
  }
  return null
}

/** A KeiSource: the update reads the Series page and hands its document to a parse of the simple shapes. */
function deriveFromUpdate(text: string): Derivation {
  const update = functionBody(text, 'fetchMangaUpdate') ?? ''
  if (!/client\.get\(/.test(update) && !/\b\w+\(\s*manga\s*\)/.test(update)) return { ok: false, why: 'the update reads no Series page' }
  const parse = chapterParseOf(text, update)
  if (!parse) return { ok: false, why: 'the update reads no Series page for its chapters' }
  return deriveFromList(text, withoutComments(functionBody(text, parse.name)!), [parse.param], 'update ')
}

/** A ParsedHttpSource: `chapterListSelector()` a literal, `chapterFromElement` one apply block. */
function deriveFromParsed(text: string): Derivation {
  if (!listIsSeriesPage(text)) return { ok: false, why: 'the list comes by a request of its own' }
  const selector = functionBody(text, 'chapterListSelector')!
  const chapter = literal(selector.replace(/^\s*return\s+/, '')) ?? constant(text, selector.trim())
  if (chapter === null) return { ok: false, why: 'the list selector is built at run time' }
  const declared = /fun\s+chapterFromElement\s*\(\s*(\w+)\s*:\s*Element\s*\)/.exec(text)
  const body = declared && functionBody(text, 'chapterFromElement')
  if (!body) return { ok: false, why: 'no chapterFromElement' }
  const block = applyBlock(
    withoutComments(body)
      .trim()
      .replace(/^return\s+/, ''),
  )
  if (block === null) return { ok: false, why: 'chapterFromElement does more than one apply block' }
  return fromFields(text, chapter, block, declared[1]!, 'parsed')
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
  } else return `not a map over the elements: ${code.slice(at, at + 60).replace(/\s+/g, ' ')}`
  if (fn) {
    const fnText = new RegExp(`fun\\s+${fn}\\s*\\((\\w+)\\s*:\\s*Element\\)`).exec(text)
    const fnBody = fnText && functionBody(text, fn)
    if (!fnText || !fnBody) return `the chapter is made by ${fn}, not read here`
    const applied = rowBlock(fnBody)
    return applied === null ? `${fn} does more than one apply block` : { block: applied, param: fnText[1]!, end, shape: 'function' }
  }
  const applied = rowBlock(lambdaBody)
  return applied === null ? 'the lambda does more than one apply block' : { block: applied, param, end, shape: 'lambda' }
}

/**
 * A row's code: elements named first (`val link = row.selectFirst("a") ?: return@mapNotNull null`, a row without
 * one skipped), then `SChapter.create().apply { … }` — the apply block with those names before it; null otherwise.
 */
function rowBlock(code: string): string | null {
  const clean = withoutComments(code)
  const at = /(?:^|\n)\s*(?:return\s+)?SChapter\.create\(\)\.apply\b/.exec(clean)
  if (!at) return null
  const applied = applyBlock(
    clean
      .slice(at.index)
      .trim()
      .replace(/^return\s+/, ''),
  )
  const before = clean.slice(0, at.index)
  if (applied === null || !statements(before).every((p) => /^val \w+(?:\s*:\s*Element\??)? = /.test(p))) return null
  return `${before}\n${applied}`
}

/** The inside of `SChapter.create().apply { … }` when that is the whole expression; null otherwise. */
function applyBlock(code: string): string | null {
  const m = /^\s*SChapter\.create\(\)\.apply\s*/.exec(code)
  if (!m) return null
  const block = braced(code, m[0].length)
  return block && code.slice(block.end + 1).trim() === '' ? block.inner : null
}

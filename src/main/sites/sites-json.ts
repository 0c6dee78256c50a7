/**
 * The text of sites.json as editors save it, read with Microsoft's jsonc-parser (the one VS Code reads its
 * settings with): comments allowed, a leading byte order mark skipped, a syntax error given with its line and
 * column, and every member named twice in one object found with both lines — `JSON.parse` keeps the last
 * silently, so the owner's first value would vanish without a word (docs/adr/0095-sites-json-read-as-written.md).
 */
import { parse, printParseErrorCode, visit, type JSONPath } from 'jsonc-parser'

/** A member named twice in one object: where the object is, the name, and the lines (1-based) of both. */
export interface TwiceGiven {
  /** The path of the object holding the member, e.g. `["sites", 0, "pace"]`. */
  path: JSONPath
  name: string
  firstLine: number
  line: number
}

export type SitesJson = { ok: true; value: unknown; twice: TwiceGiven[] } | { ok: false; error: string }

const BOM = '\uFEFF'

/** Trailing commas stay an error: the owner's file stays JSON with comments, which every editor reads. */
const OPTIONS = { disallowComments: false, allowTrailingComma: false, allowEmptyContent: false }

/** Reads the text of a sites.json; `error` reads `line L, column C: what is wrong`. */
export function readSitesJson(text: string): SitesJson {
  const body = withoutBom(text)
  let error: string | null = null
  const twice: TwiceGiven[] = []
  const objects: Array<Map<string, number>> = []
  visit(
    body,
    {
      onObjectBegin: () => void objects.push(new Map()),
      onObjectEnd: () => void objects.pop(),
      onObjectProperty: (name, _offset, _length, startLine, _column, pathOf) => {
        const seen = objects.at(-1)!
        const firstLine = seen.get(name)
        if (firstLine === undefined) seen.set(name, startLine + 1)
        else twice.push({ path: pathOf(), name, firstLine, line: startLine + 1 })
      },
      onError: (code, _offset, _length, startLine, startCharacter) => {
        error ??= `line ${startLine + 1}, column ${startCharacter + 1}: ${inWords(printParseErrorCode(code))}`
      },
    },
    OPTIONS,
  )
  if (error !== null) return { ok: false, error }
  return { ok: true, value: parse(body, [], OPTIONS) as unknown, twice }
}

/** The text after a leading byte order mark, if it has one. */
export function withoutBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text
}

/** `PropertyNameExpected` → `a property name expected`; `InvalidSymbol` → `an invalid symbol`. */
function inWords(code: string): string {
  const words = code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words}`
}

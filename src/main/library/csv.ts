/**
 * CSV as RFC 4180 writes it: fields separated by a delimiter, quoted with `"` when they hold the delimiter,
 * a quote or a line break, a quote inside doubled. Used to read a list of URLs with columns and to write a
 * Reader's bookmarks.
 */

/** The delimiter of a header line: a comma, a semicolon or a tab, whichever it holds most of. */
export function detectDelimiter(headerLine: string): ',' | ';' | '\t' {
  const counts = ([',', ';', '\t'] as const).map((d) => [d, headerLine.split(d).length - 1] as const)
  return counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0]
}

/**
 * The rows of a CSV text, each an array of fields. A quote left open runs to the end of the text, and a
 * stray quote inside an unquoted field is kept as text: the reader never fails, the caller judges the rows.
 */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  let i = 0
  const endField = () => {
    row.push(field)
    field = ''
  }
  const endRow = () => {
    endField()
    rows.push(row)
    row = []
  }
  while (i < text.length) {
    const c = text[i]!
    if (quoted) {
      // Inside quotes a doubled quote is one quote; a single one ends the quoted part.
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i += 2
        continue
      }
      if (c === '"') quoted = false
      else field += c
      i++
      continue
    }
    if (c === '"' && field === '') quoted = true
    else if (c === delimiter) endField()
    else if (c === '\n' || c === '\r') {
      endRow()
      if (c === '\r' && text[i + 1] === '\n') i++
    } else field += c
    i++
  }
  if (field !== '' || row.length > 0) endRow()
  return rows
}

/** What a spreadsheet may run as a formula at the start of a cell (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/
/**
 * The same after any delimiter a spreadsheet may split on: one that splits on `;` (or `|`, or a tab) reads
 * `Evil Scans;=2*21` as two cells, the second a formula, so a check of the first character alone is not enough.
 * (Quotes count as space here: a guarded text still reads as one that needs its guards.)
 */
const FORMULA_AFTER_DELIMITER = /[,;|\t\r\n]['\s]*[=+\-@]/
/**
 * Where a guard goes inside a field: after each such delimiter. A `;`-splitting spreadsheet does not see the
 * quotes of a comma field it splits mid-field (`a,"Evil;=2*21"` gives `=2*21"`), so the part after each
 * delimiter starts with ' too. Only quotes are added, so the same places are found again to take them off.
 */
const GUARD_AFTER_DELIMITER = /([,;|\t\r\n])(?=['\s]*[=+\-@])/g
const GUARDED_AFTER_DELIMITER = /([,;|\t\r\n])'(?=['\s]*[=+\-@])/g
/** Bidirectional overrides, embeddings, isolates and marks: they show a title in another order than it is. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

function mayRunAsFormula(text: string): boolean {
  return FORMULA_START.test(text) || FORMULA_AFTER_DELIMITER.test(text)
}

/**
 * One CSV field, quoted when it must be. A text a spreadsheet could read as a formula — at its start or after
 * any delimiter — is quoted whole and prefixed with ' (OWASP's rule), and each part after a delimiter that could
 * start a formula gets a ' too, so it shows as text however the spreadsheet splits it; bidi overrides are left
 * out.
 */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (typeof value === 'string') {
    text = text.replace(BIDI, '')
    // A text that looks guarded already gets a guard of its own, so the import takes exactly one off.
    if (mayRunAsFormula(text) || looksGuarded(text)) return `"'${text.replace(GUARD_AFTER_DELIMITER, "$1'").replace(/"/g, '""')}"`
  }
  return /[",;|\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A field csvField guarded, as it was: the ' it put before a text (and after its delimiters) comes off. */
export function unguardedField(text: string): string {
  return looksGuarded(text) ? text.slice(1).replace(GUARDED_AFTER_DELIMITER, '$1') : text
}

/** Quotes (') before a text that may run as a formula: csvField's guard, or a text that looks like it. */
function looksGuarded(text: string): boolean {
  return text.startsWith("'") && mayRunAsFormula(text.replace(/^'+/, ''))
}

/** A CSV document: a header and rows, CRLF line ends as RFC 4180 writes them. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return [header, ...rows].map(csvLine).join('')
}

/** One line of a CSV document, its CRLF included: a document is its lines one after another. */
export function csvLine(fields: ReadonlyArray<string | number | null | undefined>): string {
  return fields.map(csvField).join(',') + '\r\n'
}

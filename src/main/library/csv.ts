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
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        quoted = false
      } else field += c
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

/** One CSV field, quoted when it must be. A field starting with = + - @ is prefixed with ' so a spreadsheet
 * shows it rather than running it as a formula. */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A CSV document: a header and rows, CRLF line ends as RFC 4180 writes them. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n'
}

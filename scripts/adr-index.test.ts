/**
 * The ADR index (docs/adr/README.md, issue 45) lists every live decision: each ADR file once, under its own
 * title, and no line for a file that is gone (a folded ADR is named in the index's "Folded" line instead).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ADR_DIR = join(import.meta.dirname, '..', 'docs', 'adr')
const ROW = /^\| \[(\d{4})\]\(([^)]+)\) \| (.+) \| (accepted[^|]*) \|$/

function indexRows() {
  const text = readFileSync(join(ADR_DIR, 'README.md'), 'utf8')
  return text
    .split('\n')
    .map((line) => ROW.exec(line))
    .filter((m) => m !== null)
    .map(([, number = '', file = '', title = '']) => ({ number, file, title }))
}

function adrFiles() {
  return readdirSync(ADR_DIR)
    .filter((f) => /^\d{4}-.*\.md$/.test(f))
    .map((file) => ({
      file,
      title: readFileSync(join(ADR_DIR, file), 'utf8')
        .split('\n')[0]!
        .replace(/^# \d{4} — /, ''),
    }))
}

describe('the ADR index', () => {
  it('lists every ADR file once, by its number and its own title', () => {
    const rows = indexRows()
    const expected = adrFiles().map(({ file, title }) => ({ number: file.slice(0, 4), file, title }))
    expect(rows).toEqual(expected)
  })

  it('names only numbers that are files', () => {
    const files = new Set(adrFiles().map((a) => a.file))
    expect(indexRows().filter((r) => !files.has(r.file))).toEqual([])
  })
})

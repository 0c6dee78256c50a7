import { describe, expect, it } from 'vitest'
import { csvField, parseCsv, toCsv, unguardedField } from './csv'

describe('a CSV field a spreadsheet cannot run', () => {
  it.each([
    ['a formula at the start', '=2*21', `"'=2*21"`],
    ['a formula after a semicolon (a ;-splitting spreadsheet reads a second cell)', 'Evil Scans;=2*21;x', `"'Evil Scans;'=2*21;x"`],
    ['after a comma, with a space', 'Tower, +cmd|calc', `"'Tower,' +cmd|calc"`],
    ['after a pipe', 'a|@SUM(1)', `"'a|'@SUM(1)"`],
    ['after a tab', 'a\t-1+1', `"'a\t'-1+1"`],
    ['after a line break', 'a\n=1', `"'a\n'=1"`],
    ['a quote inside is doubled', '=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['a semicolon alone is quoted, not prefixed', 'Vol. 1; Vol. 2', '"Vol. 1; Vol. 2"'],
    ['a dash inside a title is left alone', 'Re:Zero - Starting Life', 'Re:Zero - Starting Life'],
    ['bidi overrides are left out', 'Tower\u202eof\u2066God\u2069', 'TowerofGod'],
  ])('%s', (_name, value, field) => {
    expect(csvField(value)).toBe(field)
  })

  it('numbers are written as they are', () => {
    expect(csvField(-3)).toBe('-3')
    expect(csvField(null)).toBe('')
  })

  it('each guarded field reads back as the text it was', () => {
    const titles = ['=2*21', 'Evil Scans;=2*21;x', "'quoted already", "'=kept's guard", 'plain', "a;'=b", ";\t=1;;'' -2", 'x,\n@y|+z']
    const row = parseCsv(
      toCsv(
        ['title'],
        titles.map((t) => [t]),
      ),
    )
    expect(row.slice(1).map((r) => unguardedField(r[0]!))).toEqual(titles)
  })

  it('a spreadsheet that splits a row on ; | a tab or a line break finds no formula in any part (issue 40)', () => {
    const hostile = ['Evil;=2*21', 'a|@SUM(1)', 'x\t-1+1', 'y\n=1', "z; '=1", 'w;;+1', '=1;=2']
    const document = toCsv(
      ['site', 'title', 'url'],
      hostile.map((t) => ['a', t, 'https://a.example/x']),
    )
    for (const delimiter of [';', '|', '\t', '\n', ',']) {
      for (const part of document.split(delimiter))
        expect(part.trimStart(), `${JSON.stringify(part)} split on ${JSON.stringify(delimiter)}`).not.toMatch(/^[=+\-@]/)
    }
  })
})

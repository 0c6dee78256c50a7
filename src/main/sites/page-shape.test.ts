/**
 * How deep a page nests, from its text (page-shape.ts): never less than the depth htmlparser2 builds — the tricks
 * that hide depth from a naive count (end tags in attribute values, comments, declarations and raw text) — and
 * the same figure on stored pages, checked against the parser on random tag soup.
 */
import { load } from 'cheerio/slim'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nestingDepth } from './page-shape'
import { nestedRows } from './tools/hostile-pages'

/** The depth of the DOM htmlparser2 builds (cheerio's slim entry, as html.ts loads pages). */
function built(html: string): number {
  let deepest = 0
  const walk = (node: { children?: unknown[] }, depth: number) => {
    for (const child of (node.children ?? []) as Array<{ type: string; children?: unknown[] }>) {
      if (child.type !== 'tag' && child.type !== 'script' && child.type !== 'style') continue
      deepest = Math.max(deepest, depth + 1)
      walk(child, depth + 1)
    }
  }
  walk(load(html).root()[0] as { children?: unknown[] }, 0)
  return deepest
}

describe('the nesting depth of a page, from its text', () => {
  it.each(['madara-inline.html', 'mangathemesia.html', 'webtoons-list.html', 'generic-list.html'])(
    '%s: as deep as the DOM built from it',
    (file) => {
      const html = readFileSync(join(import.meta.dirname, 'testdata', file), 'utf8')
      expect(nestingDepth(html, 1_000)).toBe(built(html))
    },
  )

  it.each([
    ['end tags in attribute values', '<div title="</div>">', 200],
    ['end tags in single-quoted values after spaces', "<div data-x = '</div>' >", 200],
    ['end tags in comments', '<div><!-- </div> -->', 200],
    ['end tags in declarations', '<div><!</div>', 200],
    ['end tags in CDATA', '<div><![CDATA[</div>]]>', 200],
    ['end tags in raw text', '<div><script></div></script>', 200],
    ['an element named past a no-break space', '<div\u00a0x>', 200],
  ])('%s do not hide depth', (_trick, unit, n) => {
    const html = unit.repeat(n)
    expect(built(html)).toBeGreaterThanOrEqual(n)
    expect(nestingDepth(html, 10_000)).toBeGreaterThanOrEqual(built(html))
  })

  it('stops at the limit: nested rows past it answer limit + 1, rows side by side their depth', () => {
    expect(nestingDepth(nestedRows(50_000), 32)).toBe(33)
    expect(nestingDepth('<ul><li><a>1</a><li><a>2</a><li><p>x<p>y<div>z</div></ul>'.repeat(5_000), 32)).toBe(3)
  })

  it('on random tag soup, never less than the DOM built from it', () => {
    const tokens = [
      '<div>',
      '</div>',
      '<li>',
      '</li>',
      '<p>',
      '</p>',
      '<span a="',
      '">',
      "'",
      '"',
      '=',
      ' ',
      '<!--',
      '-->',
      '<script>',
      '</script>',
      '</script ',
      '<!',
      '>',
      '<![CDATA[',
      ']]>',
      '</',
      '<br>',
      'x',
      '<td>',
      '<tr>',
      '<table>',
      '<a b=',
      '/',
      '<DIV>',
      '<title>',
      '</title>',
      '<div ="x',
      ' b="',
      '<svg>',
      '<path/>',
      '</ div>',
      '<?',
      '<b',
      '<i>',
      '</i>',
      '<ul>',
      '<!-->',
      '\u00a0',
      '\f',
      '<div/>',
      '</br>',
      '<option>',
      '<select>',
      '<textarea>',
      '<h1>',
    ]
    let seed = 20261204
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n
    for (let i = 0; i < 3_000; i++) {
      const html = Array.from({ length: 10 + next(80) }, () => tokens[next(tokens.length)]).join('')
      const depth = nestingDepth(html, 10_000)
      if (depth < built(html)) expect.fail(`${depth} < ${built(html)} for ${JSON.stringify(html)}`)
    }
  })
})

/**
 * Rows under containers, found in one walk: a descendant selector ("div.list-chapter li.row") checks every
 * candidate's ancestors, which on rows nested in each other costs the square of their depth; this visits each
 * node once, never entering a row it took nor a container an earlier one already covered.
 */
import type { AnyNode, Element } from 'domhandler'
import { hasClass } from '../html'

const isElement = (node: AnyNode): node is Element => node.type === 'tag' || node.type === 'script' || node.type === 'style'

/** The elements `isRow` accepts under `containers` (document order), not those under another row. */
export function rowsUnder(containers: readonly Element[], isRow: (el: Element) => boolean): Element[] {
  const visited = new Set<AnyNode>()
  const rows: Element[] = []
  for (const container of containers) if (!visited.has(container)) walk(container, isRow, visited, rows)
  return rows
}

function walk(container: Element, isRow: (el: Element) => boolean, visited: Set<AnyNode>, rows: Element[]): void {
  const stack: AnyNode[] = [...container.children].reverse()
  while (stack.length > 0) {
    const node = stack.pop()!
    if (visited.has(node) || !isElement(node)) continue
    visited.add(node)
    if (isRow(node)) rows.push(node)
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!)
  }
}

/** An element of a tag with a class. */
export const tagWithClass =
  (tag: string, name: string) =>
  (el: Element): boolean =>
    el.name === tag && hasClass(el, name)

/**
 * Where focus goes after an action (docs/adr/0058-accessibility-checked-on-every-page.md): kept on the control
 * when it stays, else moved to the sensible next one — never left to fall to <body>.
 */
import { nextTick } from 'vue'

type Candidate = HTMLElement | string | null | undefined | (() => HTMLElement | null | undefined)

/**
 * After the next render, focuses the first element that exists — a selector, an element, or a function read
 * after the render (a template ref that the render fills); true when one took it.
 */
export async function focusAfterRender(...candidates: Candidate[]): Promise<boolean> {
  await nextTick()
  for (const candidate of candidates) {
    const element =
      typeof candidate === 'string'
        ? document.querySelector<HTMLElement>(candidate)
        : typeof candidate === 'function'
          ? candidate()
          : candidate
    if (element && element.isConnected) {
      element.focus()
      if (document.activeElement === element) return true
    }
  }
  return false
}

/**
 * A new sign-in link on request at the terminal (docs/adr/0127-a-sign-in-link-while-the-app-runs.md): each line
 * typed where the headless shell runs (Enter) prints a fresh one-time link, so a spent link never needs a restart.
 */
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'

/** Prints `sign in: …` for each line read from `input`; the returned function stops listening. */
export function linkOnEnter(input: Readable, newLink: () => string, say: (line: string) => void): () => void {
  const lines = createInterface({ input, terminal: false })
  lines.on('line', () => {
    say(`sign in: ${newLink()}`)
    say('a new one-time sign-in link: it works once, within 10 minutes.')
  })
  return () => lines.close()
}

/** The build's stand-in for whatwg-encoding answers every label as the package does (electron.vite.config.ts). */
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { labelToName } from './encoding-labels'

const real = createRequire(import.meta.url)('whatwg-encoding') as { labelToName(label: unknown): string | null }
const labels = createRequire(import.meta.url)('whatwg-encoding/lib/labels-to-names.json') as Record<string, string>

describe('labelToName', () => {
  it('answers every label of the table, and unknown or odd ones, as whatwg-encoding does', () => {
    const asked = [...Object.keys(labels), ...Object.keys(labels).map((l) => ` ${l.toUpperCase()}\t`), 'nope', '', 'constructor', 7, null]
    expect(asked.length).toBeGreaterThan(200)
    for (const label of asked) expect(labelToName(label), String(label)).toBe(real.labelToName(label))
    expect(labelToName(' Shift_JIS ')).toBe('Shift_JIS')
  })
})

import { correction, generate } from 'lean-qr'
import { describe, expect, it } from 'vitest'
import { QUIET, qrPath } from '../qr'

describe('a QR code as one SVG path', () => {
  it('draws every dark module once, offset by the quiet zone, and nothing else', () => {
    const text = 'http://192.168.1.20:4711/#token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG'
    const code = generate(text, { minCorrectionLevel: correction.M })
    const path = qrPath(text)
    expect(path.size).toBe(code.size)
    const drawn = new Set([...path.d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => `${Number(m[1]) - QUIET},${Number(m[2]) - QUIET}`))
    const dark = new Set<string>()
    for (let y = 0; y < code.size; y++) for (let x = 0; x < code.size; x++) if (code.get(x, y)) dark.add(`${x},${y}`)
    expect(drawn).toEqual(dark)
    // A finder pattern's corner is dark: the code is the right way round.
    expect(drawn.has('0,0')).toBe(true)
  })
})

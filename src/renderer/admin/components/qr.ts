/**
 * A QR code as one SVG path (docs/adr/0057-sign-in-by-scanning.md): lean-qr encodes, and each dark module is a
 * unit square of the path. An SVG path needs no inline style and no canvas, so the page's CSP stays strict.
 */
import { correction, generate } from 'lean-qr'

export interface QrPath {
  /** Modules per side, without the quiet zone. */
  size: number
  /** The dark modules, offset by the quiet zone. */
  d: string
}

/** The quiet zone a scanner needs around the code, in modules. */
export const QUIET = 4

export function qrPath(text: string): QrPath {
  const code = generate(text, { minCorrectionLevel: correction.M })
  const parts: string[] = []
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) if (code.get(x, y)) parts.push(`M${x + QUIET} ${y + QUIET}h1v1h-1z`)
  }
  return { size: code.size, d: parts.join('') }
}

/**
 * A page's bytes as text, decoded the way a browser decodes them (docs/adr/0047-retry-after-and-encodings.md):
 * a byte order mark wins; else the Content-Type's `charset`; else, for HTML, a `<meta charset>` or
 * `<meta http-equiv="Content-Type" content="…; charset=…">` in the first 1024 bytes (the WHATWG prescan,
 * simplified); else UTF-8 — and bytes that are not UTF-8 at all are read as windows-1252, as browsers' own
 * detection does for old Western pages. Decoding is Node's TextDecoder (the WHATWG Encoding Standard, with full
 * ICU: Shift_JIS, EUC-KR, GBK, Big5, windows-125x, ISO-8859-x, UTF-16…). Pure.
 */

import { TextDecoder } from 'node:util'

export interface Decoded {
  text: string
  /** The encoding used, by its WHATWG name (`shift_jis`, `windows-1252`, `utf-16le`…). */
  encoding: string
  /** Where it came from. */
  source: 'bom' | 'header' | 'meta' | 'default' | 'fallback'
}

const PRESCAN_BYTES = 1024

/**
 * windows-1252's bytes 0x80–0x9F (the WHATWG index). Node 20.18.3 and later decode windows-1252 — and `latin1`,
 * `iso-8859-1`, `ascii`, which the Encoding Standard maps to it — as ISO-8859-1, leaving these as C1 controls
 * (nodejs/node#60888); they are put right after decoding. Where Node decodes them correctly, nothing changes.
 */
export const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ'

function decode(decoder: TextDecoder, bytes: Uint8Array): string {
  const text = decoder.decode(bytes)
  if (decoder.encoding !== 'windows-1252') return text
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!)
}

export function decodeBody(bytes: Uint8Array, contentType: string): Decoded {
  const bom = fromBom(bytes)
  if (bom) return { text: decode(decoderFor(bom.encoding)!, bytes.subarray(bom.length)), encoding: bom.encoding, source: 'bom' }

  const fromHeader = decoderFor(charsetOf(contentType))
  if (fromHeader) return { text: decode(fromHeader, bytes), encoding: fromHeader.encoding, source: 'header' }

  if (/html|xml/i.test(contentType) || contentType.trim() === '') {
    let fromMeta = decoderFor(metaCharset(bytes))
    // A <meta> cannot declare UTF-16: the bytes it was read from are ASCII-compatible (WHATWG prescan).
    if (fromMeta?.encoding.startsWith('utf-16')) fromMeta = decoderFor('utf-8')
    if (fromMeta) return { text: decode(fromMeta, bytes), encoding: fromMeta.encoding, source: 'meta' }
  }

  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8', source: 'default' }
  } catch {
    return { text: decode(new TextDecoder('windows-1252'), bytes), encoding: 'windows-1252', source: 'fallback' }
  }
}

function fromBom(bytes: Uint8Array): { encoding: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 }
  return null
}

/** A decoder for a label the Encoding Standard knows, or null (an unknown label is as good as none). */
function decoderFor(label: string | null): TextDecoder | null {
  if (!label) return null
  try {
    // `ignoreBOM`: a BOM was handled above; one that follows a declared charset is the page's own text.
    return new TextDecoder(label.trim().toLowerCase(), { ignoreBOM: true })
  } catch {
    return null
  }
}

/** The `charset` parameter of a Content-Type, or null. */
export function charsetOf(contentType: string): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]{1,40})/i.exec(contentType)
  return match ? match[1]! : null
}

/** The charset a `<meta>` in the first 1024 bytes declares, or null. */
export function metaCharset(bytes: Uint8Array): string | null {
  // Read as latin-1: every byte one character, so ASCII markup is found whatever the encoding.
  const head = Buffer.from(bytes.subarray(0, PRESCAN_BYTES)).toString('latin1')
  for (const tag of head.match(/<meta\b[^>]{0,512}>/gi) ?? []) {
    const charset = /\bcharset\s*=\s*["']?\s*([-\w.:]{1,40})/i.exec(tag)
    if (!charset) continue
    const isCharsetAttribute = /<meta\b[^>]*?\scharset\s*=/i.test(tag)
    const isHttpEquiv = /\shttp-equiv\s*=\s*["']?\s*content-type/i.test(tag)
    if (isCharsetAttribute || isHttpEquiv) return charset[1]!
  }
  return null
}

/**
 * A page's bytes as text, decoded the way a browser decodes them (docs/adr/0096-the-maintained-encoding-sniffer.md):
 * a byte order mark wins; else the Content-Type's `charset`; else, for HTML, the page's own declaration in its
 * first 1024 bytes — `<meta charset>`, `<meta http-equiv="Content-Type">` or an XML declaration — found by
 * `encoding-sniffer` (the WHATWG prescan, which cheerio brings: comments skipped, UTF-16 declared in ASCII
 * read as UTF-8); else UTF-8 — and bytes that are not UTF-8 at all are read as windows-1252, as browsers' own
 * detection does for old Western pages. Decoding is Node's TextDecoder (the WHATWG Encoding Standard, with full
 * ICU: Shift_JIS, EUC-KR, GBK, Big5, windows-125x, ISO-8859-x, UTF-16…). Pure.
 */

import { TextDecoder } from 'node:util'
import { ResultType, Sniffer } from 'encoding-sniffer/sniffer'

export interface Decoded {
  text: string
  /** The encoding used, by its WHATWG name (`shift_jis`, `windows-1252`, `utf-16le`…). */
  encoding: string
  /** Where it came from. */
  source: 'bom' | 'header' | 'meta' | 'default' | 'fallback'
}

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

const SOURCES: Record<ResultType, Decoded['source']> = {
  [ResultType.BOM]: 'bom',
  [ResultType.PASSED]: 'header',
  [ResultType.XML_PREFIX]: 'meta',
  [ResultType.META_TAG]: 'meta',
  [ResultType.XML_ENCODING]: 'meta',
  [ResultType.DEFAULT]: 'default',
}

/** The sniffer reads the first 1024 bytes; a body that is not HTML or XML is searched for a BOM only. */
const BOM_BYTES = 3

export function decodeBody(bytes: Uint8Array, contentType: string): Decoded {
  const charset = charsetOf(contentType)
  const sniffer = new Sniffer({ defaultEncoding: 'utf-8', transportLayerEncodingLabel: charset ?? undefined })
  sniffer.write(/html|xml/i.test(contentType) || contentType.trim() === '' ? bytes : bytes.subarray(0, BOM_BYTES))
  const source = SOURCES[sniffer.resultType]
  // A BOM is stripped by the decoder of its own encoding; one after a declared charset is the page's own text.
  const decoder = source === 'default' ? null : decoderFor(sniffer.encoding, source !== 'bom')
  if (decoder) return { text: decode(decoder, bytes), encoding: decoder.encoding, source }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8', source: 'default' }
  } catch {
    return { text: decode(new TextDecoder('windows-1252'), bytes), encoding: 'windows-1252', source: 'fallback' }
  }
}

/** A decoder for an encoding the sniffer named, or null (Node built without that table: as if undeclared). */
function decoderFor(encoding: string, ignoreBOM: boolean): TextDecoder | null {
  try {
    return new TextDecoder(encoding.toLowerCase(), { ignoreBOM })
  } catch {
    return null
  }
}

/** The `charset` parameter of a Content-Type, or null. */
function charsetOf(contentType: string): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]{1,40})/i.exec(contentType)
  return match ? match[1]! : null
}

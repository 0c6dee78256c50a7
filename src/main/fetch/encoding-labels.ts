/**
 * `whatwg-encoding`'s `labelToName`, the one part of it `encoding-sniffer` uses, over the package's own table: the
 * main build takes this module in its place (electron.vite.config.ts), because the package's other half — `decode`,
 * through iconv-lite, a third of a megabyte the start would load — is never called: pages are decoded by Node's
 * TextDecoder (encoding.ts; docs/adr/0229-a-start-that-loads-what-it-answers-with.md).
 */
import labelsToNames from 'whatwg-encoding/lib/labels-to-names.json' with { type: 'json' }

const NAMES: Readonly<Record<string, string>> = labelsToNames

/** https://encoding.spec.whatwg.org/#concept-encoding-get, as whatwg-encoding 3 answers it. */
export function labelToName(label: unknown): string | null {
  return NAMES[String(label).trim().toLowerCase()] ?? null
}

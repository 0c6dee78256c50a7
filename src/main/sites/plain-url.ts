/**
 * A URL already written as the URL parser writes it, recognised without parsing it (a check reads one or two per
 * chapter row, docs/adr/0228-check-path-text-read-in-place.md). Only a plain shape qualifies — `http(s)://`, a
 * lowercase host name whose last label begins with a letter (or a dotted IPv4 address as written), a port other than
 * the scheme's own, a path of unreserved characters with no dot segment, no query, fragment, credentials or escape —
 * and for it `new URL(text).href === text`; anything else answers null, for the parser to read.
 */

export interface PlainUrl {
  /** The host and port as `URL.host` gives them. */
  host: string
}

/** `text` as a plain http(s) URL, or null when it is not one (it may still be a URL: parse it). */
export function plainHttpUrl(text: string): PlainUrl | null {
  // A page's links share their scheme and host: the last plain one's are not read again.
  if (last && text.startsWith(last.prefix)) return plainPath(text, last.prefix.length - 1) ? last.url : null
  const scheme = text.startsWith('https://') ? 8 : text.startsWith('http://') ? 7 : 0
  if (scheme === 0) return null
  const slash = text.indexOf('/', scheme)
  if (slash === -1) return null
  const authority = text.slice(scheme, slash)
  const colon = authority.indexOf(':')
  const hostName = colon === -1 ? authority : authority.slice(0, colon)
  if (!plainHost(hostName)) return null
  if (colon !== -1 && !plainPort(authority.slice(colon + 1), scheme === 8 ? '443' : '80')) return null
  if (!plainPath(text, slash)) return null
  last = { prefix: text.slice(0, slash + 1), url: { host: authority } }
  return last.url
}

/** The scheme and host (to the path's first `/`) of the last plain URL, and what was answered for it. */
let last: { prefix: string; url: PlainUrl } | undefined

function isLower(c: number): boolean {
  return c >= 97 && c <= 122
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57
}

/** A host name of lowercase labels, none empty nor punycode, the last beginning with a letter; or a dotted quad. */
function plainHost(host: string): boolean {
  const labels = host.split('.')
  if (labels.length === 4 && labels.every(plainOctet)) return true
  for (const label of labels) {
    if (label === '' || label.startsWith('xn--')) return false
    for (let i = 0; i < label.length; i++) {
      const c = label.charCodeAt(i)
      if (!isLower(c) && !isDigit(c) && c !== 45) return false
    }
  }
  return isLower(labels[labels.length - 1]!.charCodeAt(0))
}

/** 0–255 in decimal, no leading zero. */
function plainOctet(part: string): boolean {
  if (part === '' || part.length > 3 || (part.length > 1 && part.charCodeAt(0) === 48)) return false
  for (let i = 0; i < part.length; i++) if (!isDigit(part.charCodeAt(i))) return false
  return Number(part) <= 255
}

/** 1–65535 in decimal, no leading zero, not the scheme's default (the parser drops that one). */
function plainPort(port: string, scheme: string): boolean {
  if (port === '' || port.length > 5 || port.charCodeAt(0) === 48 || port === scheme) return false
  for (let i = 0; i < port.length; i++) if (!isDigit(port.charCodeAt(i))) return false
  return Number(port) <= 65535
}

/** From the path's first `/`: unreserved characters and single slashes, no segment `.` or `..`. */
function plainPath(text: string, from: number): boolean {
  let segmentStart = from + 1
  for (let i = from + 1; i <= text.length; i++) {
    const c = i === text.length ? 47 : text.charCodeAt(i)
    if (c === 47) {
      const segment = i - segmentStart
      // An empty segment (`//`) is kept by the parser but not plain; `.` and `..` are removed by it.
      if (i < text.length && segment === 0) return false
      if (text.charCodeAt(segmentStart) === 46 && (segment === 1 || (segment === 2 && text.charCodeAt(segmentStart + 1) === 46)))
        return false
      segmentStart = i + 1
    } else if (!(isLower(c) || isDigit(c) || (c >= 65 && c <= 90) || c === 45 || c === 46 || c === 95 || c === 126)) return false
  }
  return true
}

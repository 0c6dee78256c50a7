/**
 * `Retry-After` (RFC 9110 §10.2.3): how long a Site asked to be left alone, as delay-seconds or an HTTP-date.
 * Pure.
 */

/**
 * The delay a `Retry-After` value asks for, in ms, or undefined when there is none or it cannot be read. An
 * HTTP-date is measured from the response's own `Date` when it has one (the Site's clock against itself, so
 * ours being off does not matter), else from `now`. A date in the past asks for 0.
 */
export function retryAfterMs(value: string | null, now: number, responseDate: string | null = null): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^\d{1,12}$/.test(text)) return Number(text) * 1000
  if (!/[a-z]/i.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  const reference = responseDate === null ? Number.NaN : Date.parse(responseDate)
  return Math.max(0, at - (Number.isNaN(reference) ? now : reference))
}

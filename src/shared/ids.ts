/**
 * The identifier and URL rules every entry applies — the sync API, the admin contract, and the Series id a
 * Site reads from a URL — so an id that one surface accepts is one every other surface can name again.
 */
import { z } from 'zod'

/**
 * Characters no identifier may hold: C0 and C1 controls, DEL, and the bidirectional overrides, embeddings
 * and isolates that make text display in another order than it is stored (U+202E and kin).
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g')

/**
 * A text from outside (an imported title or label) made safe to show: control characters and bidirectional
 * overrides become spaces, runs of white space one space, and it is cut to `max` characters.
 */
export function safeText(text: string, max: number): string {
  return text.replace(UNSAFE_ALL, ' ').replace(/\s+/g, ' ').trim().slice(0, max)
}

/** Why an identifier is refused, or null when it is safe. */
export function unsafeIdReason(id: string): string | null {
  return UNSAFE.test(id) ? 'must not contain control characters or bidirectional overrides' : null
}

export const SiteKey = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a Site key: lowercase letters, digits and dashes')

export const SeriesId = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => unsafeIdReason(s) === null, { message: 'must not contain control characters or bidirectional overrides' })

/**
 * A Series id as a row may already hold it: one made before the rule above (`…/a%00b/` was once bookmarked)
 * can still be named, so it can be seen and removed. Only reads and removals take it; nothing new is made
 * from it.
 */
export const StoredSeriesId = z.string().min(1).max(200)

export const HttpUrl = z
  .string()
  .trim()
  .min(1)
  .max(2_048)
  .refine((raw) => /^https?:\/\//i.test(raw), { message: 'must be an http(s) URL' })

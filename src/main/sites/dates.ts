/**
 * Release dates as Site pages print them, read into a time the rhythm can learn from (docs/freshness.md):
 * "November 29, 2026", "Nov 29, 2026", "29 November 2026", "2026-11-29" (the day, UTC), and ISO 8601 times
 * ("2026-11-29T15:04:05+00:00": exact). Relative dates ("2 hours ago") are not read: a page does not say when it
 * was fetched. Linear: one capped, collapsed string, patterns without nested quantifiers.
 */

export interface ReleasedAt {
  /** Unix ms; for a date printed to the day, the start of that day (UTC). */
  at: number
  /** Known to the minute, or only the day. */
  exact: boolean
}

/** Dates are short: anything longer is not one (and is never scanned whole). */
const MAX_DATE_TEXT = 64

const MONTHS: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
}

const MONTH_DAY_YEAR = /^([a-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$/
const DAY_MONTH_YEAR = /^(\d{1,2}) ([a-z]{3})[a-z]*\.?,? (\d{4})$/
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO_TIME = /^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:z|[+-]\d{2}:?\d{2})$/

/** A printed release date, or null when the text is not one this reads. */
export function parseReleaseDate(raw: string | undefined | null): ReleasedAt | null {
  if (!raw) return null
  const text = raw
    .slice(0, MAX_DATE_TEXT * 2)
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
  // (An empty text matches no pattern below.)
  if (text.length > MAX_DATE_TEXT) return null
  if (ISO_TIME.test(text)) {
    const at = Date.parse(text.toUpperCase())
    return Number.isFinite(at) ? { at, exact: true } : null
  }
  let y = 0
  let d = 0
  let m = 0
  let match = MONTH_DAY_YEAR.exec(text)
  if (match) {
    m = MONTHS[match[1]!] ?? -1
    d = Number(match[2])
    y = Number(match[3])
  } else if ((match = DAY_MONTH_YEAR.exec(text))) {
    d = Number(match[1])
    m = MONTHS[match[2]!] ?? -1
    y = Number(match[3])
  } else if ((match = ISO_DAY.exec(text))) {
    y = Number(match[1])
    m = Number(match[2]) - 1
    d = Number(match[3])
  }
  // No pattern read the text (the year stays 0), or its month is no month (-1).
  if (m < 0 || m > 11 || y < 1990 || y > 2200) return null
  const at = Date.UTC(y, m, d)
  // Date.UTC rolls a day past its month's end (31 February, 32 November) or day 0 into the next or the previous
  // month: such a date is not a date.
  return new Date(at).getUTCDate() === d ? { at, exact: false } : null
}

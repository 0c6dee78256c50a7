/**
 * Dates printed day first with digits only, as Vietnamese ("28/11/2026") and Russian ("28.11.26") pages print
 * them: read to the day (UTC). Only for a family whose pages always print the day first — in general such a
 * date is ambiguous, so dates.ts does not read it. A two-digit year is 20xx. Null for anything else.
 */
import type { ReleasedAt } from '../dates'

const DAY_FIRST = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$/

export function parseDayFirstDate(raw: string | undefined): ReleasedAt | null {
  const text = (raw ?? '').slice(0, 64).trim()
  const match = DAY_FIRST.exec(text)
  if (!match) return null
  const d = Number(match[1])
  const m = Number(match[2])
  const y = match[3]!.length === 2 ? 2000 + Number(match[3]) : Number(match[3])
  if (m < 1 || m > 12 || d < 1 || d > 31) return null
  const at = Date.UTC(y, m - 1, d)
  if (new Date(at).getUTCDate() !== d) return null
  return { at, exact: false }
}

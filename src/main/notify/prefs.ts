/** A Reader's stored notification rules (`notify_prefs`) as the digest reads them. */
import type { NotifyPrefsRow } from '../store/schema'
import { DEFAULT_RULES, type ReaderRules } from './digest'

/** `muted` as stored: `[[site, seriesId], …]`; anything else is nothing muted. */
export function readMuted(raw: string): Array<{ site: string; seriesId: string }> {
  try {
    const parsed = JSON.parse(raw) as unknown
    if (!Array.isArray(parsed)) return []
    return parsed.flatMap((m) =>
      Array.isArray(m) && typeof m[0] === 'string' && typeof m[1] === 'string' ? [{ site: m[0], seriesId: m[1] }] : [],
    )
  } catch {
    return []
  }
}

export function rulesFromRow(row: NotifyPrefsRow | undefined): ReaderRules {
  if (!row) return DEFAULT_RULES
  return {
    minUnread: row.min_unread,
    quietHours: row.quiet_from && row.quiet_to ? { from: row.quiet_from, to: row.quiet_to } : null,
    timeZone: row.time_zone,
    muted: new Set(readMuted(row.muted).map((m) => `${m.site}/${m.seriesId}`)),
  }
}

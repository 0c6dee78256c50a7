/**
 * Sites that relabel and renumber (docs/adr/0180-sites-that-relabel-and-renumber.md): what a check stored of the
 * chapters a Site edited, the rule that judges it from the Sites' ledger, and the report's count of each edit met.
 */
import type { Db } from '../store/database'
import type { SeriesKey } from '../store/schema'
import type { CheckEvent, SimEvent } from './events'

/** A Series' live stored chapters, number → label (read once a check that met an edit is recorded). */
export async function storedLabels(db: Db, key: SeriesKey): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom('chapters')
    .select(['number', 'label'])
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .where('vanished_at', '=', 0)
    .execute()
  return Object.fromEntries(rows.map((r) => [String(r.number), r.label]))
}

export interface EditViolation {
  check: CheckEvent
  message: string
}

/**
 * `site-edits-as-served`: a check that found chapters stores each edit its Site listed as served — a relabelled
 * chapter under its number with the new label (never a New Chapter: no-new-chapter-unchanged), a corrected number
 * or an extra chapter under the number shown, with its label. A label '' is one the page does not show (judged by
 * number only).
 */
export function siteEditsAsServed(events: readonly SimEvent[]): EditViolation[] {
  const out: EditViolation[] = []
  for (const e of events) {
    if (e.type !== 'check' || e.outcome !== 'chapter' || !e.edited?.length || !e.storedLabels) continue
    for (const edit of e.edited) {
      const stored = e.storedLabels[String(edit.number)]
      if (stored === undefined) out.push({ check: e, message: `${edit.kind} of chapter ${edit.number} served but not stored` })
      else if (edit.label && stored !== edit.label)
        out.push({ check: e, message: `${edit.kind} of chapter ${edit.number} served as "${edit.label}", stored as "${stored}"` })
    }
  }
  return out
}

export interface EditCounts {
  relabel: number
  renumber: number
  extra: number
}

/** Each edit a check met (Series and kind counted once): the moments a plain run must meet. */
export function editsMet(events: readonly SimEvent[]): EditCounts {
  const seen = new Set<string>()
  const counts: EditCounts = { relabel: 0, renumber: 0, extra: 0 }
  for (const e of events) {
    if (e.type !== 'check' || e.outcome !== 'chapter' || !e.edited) continue
    for (const edit of e.edited) {
      const key = `${e.series}|${edit.kind}|${edit.number}`
      if (seen.has(key)) continue
      seen.add(key)
      counts[edit.kind]++
    }
  }
  return counts
}

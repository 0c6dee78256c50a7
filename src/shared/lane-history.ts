/**
 * A Lane's recent passes in one sentence (docs/adr/0055-series-say-why.md): how many went well, how many met
 * which failure or declined for which reason, and the latest cause of a failure — what the chart draws, in words.
 * Pure: the window and tests share it.
 */
import type { CheckFailureView, PassView } from './admin-api'
import { ageWords } from './format'
import { isSkip, type Skip } from './skip'

/** A pass figure that counts failed checks (a column of the Lanes table). */
export type FailureColumn = 'refused' | 'unreachable' | 'noChapter' | 'unfetchable' | 'errors'

/** What one pass came to, the worst first: each pass counts once. */
export type PassOutcome = 'skipped' | 'refused' | 'errors' | 'no-chapter' | 'unfetchable' | 'unreachable' | 'ok'

export function passOutcome(pass: PassView): PassOutcome {
  if (pass.skip) return 'skipped'
  if (pass.refused > 0) return 'refused'
  if (pass.errors > 0) return 'errors'
  if (pass.noChapter > 0) return 'no-chapter'
  if (pass.unfetchable > 0) return 'unfetchable'
  if (pass.unreachable > 0) return 'unreachable'
  return 'ok'
}

const OUTCOME_WORDS: Record<Exclude<PassOutcome, 'skipped'>, string> = {
  ok: 'ok',
  refused: 'refused',
  errors: 'with errors',
  'no-chapter': 'found no chapter',
  unfetchable: 'could not fetch',
  unreachable: 'lost the browser',
}

/** A skip in a few words, for a count ("3 skipped: paused"). */
export const SKIP_SHORT: Record<Skip, string> = {
  paused: 'paused',
  refusing: 'Site refusing',
  'sidecar-down': 'browser down',
  'no-fetcher': 'no browser',
  'due-query': 'database error',
  asleep: 'browser asleep',
  'eligible-count': 'database error',
  'nothing-eligible': 'nothing to check',
}

const FAILURE_WORDS: Record<CheckFailureView['outcome'], string> = {
  'no-chapter': 'no chapter on the page',
  refused: 'an anti-bot challenge',
  unreachable: 'the browser could not be reached',
  unfetchable: 'not fetched',
  error: 'an error',
}

/**
 * "Last 20 passes: 18 ok, 2 with errors — HTTP 503 on “Tower” 3 min ago." Passes oldest first, as `lanes()`
 * gives them; failures newest first.
 */
export function recentPassesWords(passes: readonly PassView[], failures: readonly CheckFailureView[], now: number): string {
  if (passes.length === 0) return 'No passes yet.'
  const counts = new Map<Exclude<PassOutcome, 'skipped'>, number>()
  const skips = new Map<string, number>()
  for (const pass of passes) {
    const outcome = passOutcome(pass)
    if (outcome === 'skipped') {
      const words = isSkip(pass.skip) ? SKIP_SHORT[pass.skip] : pass.skip
      skips.set(words, (skips.get(words) ?? 0) + 1)
    } else counts.set(outcome, (counts.get(outcome) ?? 0) + 1)
  }
  const parts: string[] = []
  for (const outcome of ['ok', 'refused', 'errors', 'no-chapter', 'unfetchable', 'unreachable'] as const) {
    const n = counts.get(outcome)
    if (n) parts.push(`${n} ${OUTCOME_WORDS[outcome]}`)
  }
  const skipped = [...skips.values()].reduce((a, b) => a + b, 0)
  if (skipped) parts.push(`${skipped} skipped (${[...skips].map(([words, n]) => (skips.size > 1 ? `${n} ${words}` : words)).join(', ')})`)
  const head = `Last ${passes.length === 1 ? 'pass' : `${passes.length} passes`}: ${parts.join(', ')}`
  const failed = passes.some((p) => !p.skip && passOutcome(p) !== 'ok')
  const latest = failures[0]
  if (!failed || !latest) return `${head}.`
  const cause = latest.reason || FAILURE_WORDS[latest.outcome]
  return `${head} — latest: ${cause} on “${latest.title || latest.seriesId}” ${ageWords(now - latest.at)} ago.`
}

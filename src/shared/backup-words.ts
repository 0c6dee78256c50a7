/**
 * What Settings → Backups says of a backup in its Check column: sound, sound but empty (restoring it would empty
 * the library: a database deleted or moved, or not yet filled, was backed up), or damaged with the first problem.
 */
import type { CheckedBackupView } from './admin-api'

export function backupCheckWords(b: Pick<CheckedBackupView, 'ok' | 'problems' | 'empty'>): string {
  if (!b.ok) return `damaged: ${b.problems[0] ?? ''}`
  return b.empty ? 'sound, but empty: no Reader, no Series (restoring it empties the library)' : 'sound'
}

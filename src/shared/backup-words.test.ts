import { describe, expect, it } from 'vitest'
import { backupCheckWords } from './backup-words'

describe('the Check column of Settings → Backups', () => {
  it('says sound, marks a sound backup that holds no library, and names a damaged one with its first problem', () => {
    expect(backupCheckWords({ ok: true, problems: [], empty: false })).toBe('sound')
    expect(backupCheckWords({ ok: true, problems: [], empty: true })).toBe(
      'sound, but empty: no Reader, no Series (restoring it empties the library)',
    )
    expect(backupCheckWords({ ok: false, problems: ['integrity_check: file is not a database'], empty: false })).toBe(
      'damaged: integrity_check: file is not a database',
    )
  })
})

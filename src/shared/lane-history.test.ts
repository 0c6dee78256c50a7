import { describe, expect, it } from 'vitest'
import type { CheckFailureView, PassView } from './admin-api'
import { passOutcome, recentPassesWords } from './lane-history'

const NOW = 1_800_000_000_000
let id = 0
const pass = (over: Partial<PassView> = {}): PassView => ({
  id: ++id,
  startedAt: NOW - 60_000,
  endedAt: NOW - 50_000,
  skip: '',
  due: 2,
  gap: 5_000,
  clamped: false,
  checked: 2,
  refused: 0,
  unreachable: 0,
  noChapter: 0,
  unfetchable: 0,
  errors: 0,
  success: 2,
  ...over,
})
const failure: CheckFailureView = { seriesId: 'tower', title: 'Tower', outcome: 'error', reason: 'HTTP 503', at: NOW - 3 * 60_000 }

describe("a Lane's recent passes in one sentence", () => {
  it('counts each pass once, by its worst outcome, and names the latest cause', () => {
    const passes = [...Array.from({ length: 18 }, () => pass()), pass({ errors: 1, success: 1 }), pass({ errors: 2, refused: 0 })]
    expect(recentPassesWords(passes, [failure], NOW)).toBe('Last 20 passes: 18 ok, 2 with errors — latest: HTTP 503 on “Tower” 3 min ago.')
  })

  it('says which skips, and no cause when nothing failed', () => {
    const passes = [pass(), pass({ skip: 'paused' }), pass({ skip: 'paused' }), pass({ skip: 'nothing-eligible' })]
    expect(recentPassesWords(passes, [failure], NOW)).toBe('Last 4 passes: 1 ok, 3 skipped (2 paused, 1 nothing to check).')
    expect(recentPassesWords([pass({ skip: 'refusing' })], [], NOW)).toBe('Last pass: 1 skipped (Site refusing).')
  })

  it('a refused pass is refused even with errors in it; a failure with no reason says its outcome', () => {
    expect(passOutcome(pass({ refused: 1, errors: 1 }))).toBe('refused')
    expect(recentPassesWords([pass({ refused: 1 })], [{ ...failure, outcome: 'refused', reason: '' }], NOW)).toBe(
      'Last pass: 1 refused — latest: an anti-bot challenge on “Tower” 3 min ago.',
    )
  })

  it('no passes', () => {
    expect(recentPassesWords([], [], NOW)).toBe('No passes yet.')
  })
})

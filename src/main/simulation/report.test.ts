import { describe, expect, it } from 'vitest'
import type { UnexplainedError, Violation } from './checker'
import { causeOf, exitCodeFor } from './report'

const violation: Violation = { rule: 'refusal-respected', seq: 1, mono: 1, site: 'a', message: 'too soon' }
const unexplained: UnexplainedError = { seq: 2, mono: 2, site: 'a', series: 'a/x', caller: 'lane', outcome: 'error', reason: 'x' }

describe('what npm run simulate exits with (issue 24)', () => {
  it('1 on any violation or unexplained error, 0 on a clean run', () => {
    expect(exitCodeFor({ invariantViolations: [], unexplainedErrors: [] })).toBe(0)
    expect(exitCodeFor({ invariantViolations: [violation], unexplainedErrors: [] })).toBe(1)
    expect(exitCodeFor({ invariantViolations: [], unexplainedErrors: [unexplained] })).toBe(1)
  })

  it('--report-only turns it off, never on', () => {
    expect(exitCodeFor({ invariantViolations: [violation], unexplainedErrors: [unexplained] }, true)).toBe(0)
    expect(exitCodeFor({ invariantViolations: [], unexplainedErrors: [] }, true)).toBe(0)
  })
})

describe('causes of failed checks', () => {
  it('a refusal with Retry-After is one cause, whatever it asked for', () => {
    expect(causeOf('refused', 'HTTP 503 with Retry-After: Mon, 06 Jan 2025 05:45:45 GMT')).toBe('refused: HTTP 503 with Retry-After: …')
    expect(causeOf('refused', 'HTTP 429 with Retry-After: 120')).toBe('refused: HTTP 429 with Retry-After: …')
  })
})

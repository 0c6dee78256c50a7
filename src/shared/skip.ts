/**
 * Why a pass declined to work (docs/design.md#the-lane-pass): one value per exit, empty when the pass reached its loop. The
 * values are a contract (outside tests read `poll_passes.skip`); the words are what the window shows.
 */
export const SKIPS = [
  'paused',
  'refusing',
  'sidecar-down',
  'no-fetcher',
  'due-query',
  'asleep',
  'eligible-count',
  'nothing-eligible',
] as const

export type Skip = (typeof SKIPS)[number]
export type PassSkip = Skip | ''

export const SKIP_WORDS: Record<Skip, string> = {
  paused: 'paused by the owner',
  refusing: 'the Site is refusing (anti-bot challenge); backing off',
  'sidecar-down': 'the browser went down a moment ago; waiting before trying it again',
  'no-fetcher': 'needs a browser and none is configured',
  'due-query': 'could not read which Series are due (database error)',
  asleep: 'browser asleep: not enough is due to wake it',
  'eligible-count': 'could not count eligible Series (database error)',
  'nothing-eligible': 'nothing to check: no Series with a URL and a Reader that is not Finished',
}

export function isSkip(value: string): value is Skip {
  return (SKIPS as readonly string[]).includes(value)
}

/** The figures of a pass that the stall rule reads. */
export interface PassFacts {
  skip: string
  due: number
  checked: number
}

/** The stall rule: the latest pass has due > 0, checked = 0 and an empty skip. The only true stall. */
export function isStall(pass: PassFacts): boolean {
  return pass.skip === '' && pass.due > 0 && pass.checked === 0
}

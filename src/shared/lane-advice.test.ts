import { describe, expect, it } from 'vitest'
import type { LaneView, PassView } from './admin-api'
import { whatYouCanDo } from './lane-advice'

const NOW = 1_800_000_000_000
const pass = (over: Partial<PassView> = {}): PassView =>
  ({
    startedAt: NOW - 2_000,
    endedAt: NOW - 1_000,
    skip: '',
    due: 3,
    gap: 5_000,
    clamped: false,
    checked: 3,
    refused: 0,
    unreachable: 0,
    noChapter: 0,
    unfetchable: 0,
    errors: 0,
    success: 3,
    ...over,
  }) as PassView
const lane = (over: Partial<LaneView> = {}): LaneView => ({
  site: 's',
  name: 'Example Scans',
  fetcher: 'http',
  pausedUntil: 0,
  refuseUntil: 0,
  latestPass: pass(),
  pace: { restMs: 3_600_000, maxPassMs: 300_000, maxGapMs: 300_000, idleRequeryMs: 30_000 },
  ...over,
})

describe('what the owner can do about a failing Site', () => {
  it.each<[string, Partial<LaneView>, RegExp | null]>([
    ['a Lane that works', {}, null],
    ['a paused Lane: the owner already acted', { pausedUntil: NOW + 60_000, latestPass: pass({ errors: 3 }) }, null],
    ['an HTTP Site refusing: use the browser for it, or pause it', { refuseUntil: NOW + 60_000 }, /"fetcher": "browser".*pause/],
    ['a browser Site refusing: open it, pause it', { fetcher: 'browser', refuseUntil: NOW + 60_000 }, /Open the Site.*pause this Lane/],
    ['no browser', { fetcher: 'browser', latestPass: pass({ skip: 'no-fetcher', checked: 0 }) }, /apt-get install chromium.*--chromium/],
    ['stalled', { latestPass: pass({ checked: 0 }) }, /Open the Site.*pause this Lane/],
    ['no chapter found: the Site changed', { latestPass: pass({ noChapter: 2 }) }, /Add a Site/],
    ['a URL off the Site', { latestPass: pass({ unfetchable: 1 }) }, /Fix the Series' URL/],
    ['errors', { latestPass: pass({ errors: 3 }) }, /Open the Site in your browser: if it is down/],
    ['nothing eligible: nothing to do', { latestPass: pass({ skip: 'nothing-eligible', due: 0, checked: 0 }) }, null],
  ])('%s', (_name, over, expected) => {
    const advice = whatYouCanDo(lane(over), NOW)
    if (expected === null) expect(advice).toBeNull()
    else expect(advice).toMatch(expected)
  })
})

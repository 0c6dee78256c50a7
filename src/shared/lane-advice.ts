/**
 * What the owner can do about a failing Site, in one sentence (issue #27): the Lane's state and its last pass
 * say what went wrong; this says what helps — use the browser for it, open the Site, pause it. Null when
 * nothing is wrong or nothing helps but waiting. Pure: the window and tests share it.
 */
import type { LaneView } from './admin-api'
import { laneViewState } from './lane-state'

const OPEN_AND_PAUSE = 'Open the Site in your browser: if it is down, pause this Lane for a few hours; the app tries again by itself.'

export function whatYouCanDo(lane: LaneView, now: number): string | null {
  const state = laneViewState(lane, now)
  const pass = lane.latestPass
  if (state.kind === 'paused') return null
  if (state.kind === 'refusing') {
    return lane.fetcher === 'browser'
      ? 'Open the Site in your browser to see whether it lets people in; if it keeps refusing, pause this Lane for a day.'
      : 'Use the browser for it: add "fetcher": "browser" to its entry in sites.json (or add it again from one Series URL, Add a Site below), so challenges are solved as a person would. Or pause it.'
  }
  if (pass?.skip === 'no-fetcher' || pass?.skip === 'sidecar-down')
    return 'Install Chromium (Debian: apt-get install chromium), or start the app with --chromium PATH, so this browser Site can be read.'
  if (state.kind === 'stalled') return OPEN_AND_PAUSE
  if (!pass || pass.skip) return null
  if (pass.noChapter > 0)
    return 'Open one of its Series on the Site: if the chapter list looks different, the Site changed its pages — add it again from one Series URL (Add a Site below).'
  if (pass.unfetchable > 0) return "Fix the Series' URL on its page: it is not on this Site's address."
  if (pass.errors > 0 || pass.unreachable > 0) return OPEN_AND_PAUSE
  return null
}

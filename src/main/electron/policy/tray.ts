/** The tray's words: a tooltip summarising Lane health and one menu line per Lane. Pure. */
import type { LaneView } from '../../../shared/admin-api'
import { laneSummary, laneViewState } from '../../../shared/lane-state'

export interface TrayModel {
  tooltip: string
  lanes: Array<{ label: string; attention: boolean }>
}

export function trayModel(lanes: readonly LaneView[], now: number): TrayModel {
  const states = lanes.map((lane) => ({ lane, state: laneViewState(lane, now) }))
  return {
    tooltip: `Manga Bookmark — ${laneSummary(states.map((s) => s.state))}`,
    lanes: states.map(({ lane, state }) => ({ label: `${lane.name}: ${state.words}`, attention: state.attention })),
  }
}

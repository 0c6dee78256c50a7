/** The tray's words: a tooltip summarising Lane health and one menu line per Lane. Pure. */
import type { LaneView, StorageView } from '../../../shared/admin-api'
import { laneSummary, laneViewState } from '../../../shared/lane-state'

export interface TrayModel {
  tooltip: string
  /** A storage problem first (`cannot write to <file>: disk full`), then one line per Lane. */
  lanes: Array<{ label: string; attention: boolean }>
}

/**
 * A store that cannot take writes comes before everything else (docs/adr/0045-storage-faults.md): nothing the
 * Lanes find or the Readers send is kept until it is solved.
 */
export function trayModel(lanes: readonly LaneView[], now: number, storage?: Pick<StorageView, 'problem'>): TrayModel {
  const states = lanes.map((lane) => ({ lane, state: laneViewState(lane, now) }))
  const problem = storage?.problem?.message
  return {
    tooltip: `Manga Bookmark — ${problem ?? laneSummary(states.map((s) => s.state))}`,
    lanes: [
      ...(problem ? [{ label: problem, attention: true }] : []),
      ...states.map(({ lane, state }) => ({ label: `${lane.name}: ${state.words}`, attention: state.attention })),
    ],
  }
}

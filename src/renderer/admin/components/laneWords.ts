/** A LaneView's state in words, through the shared rule (src/shared/lane-state.ts). */
import type { LaneView } from '../../../shared/admin-api'
import { untilWords } from '../../../shared/format'
import { laneState, type LaneState } from '../../../shared/lane-state'

export function laneStateOf(lane: LaneView, now: number): LaneState {
  return laneState(
    {
      pausedUntil: lane.pausedUntil,
      refuseUntil: lane.refuseUntil,
      latestPass: lane.latestPass && { skip: lane.latestPass.skip, due: lane.latestPass.due, checked: lane.latestPass.checked, endedAt: lane.latestPass.endedAt },
      pace: lane.pace,
    },
    now,
    (at) => untilWords(at, now),
  )
}

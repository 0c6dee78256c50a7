/**
 * A Site that moved (docs/adr/0112-a-permanent-redirect-is-a-proposal.md), in words for the owner: where its
 * pages now lead, since when, and what accepting does. Pure: the window and tests share it.
 */
import { ageWords } from './format'

export interface SiteMoveFacts {
  name: string
  move?: { toHost: string; fromUrl: string; seenAt: number }
}

/** The proposal in one sentence, or '' when the Site has none. */
export function siteMoveWords(lane: SiteMoveFacts, now: number): string {
  if (!lane.move) return ''
  const { toHost, seenAt } = lane.move
  return (
    `${lane.name} seems to have moved: its pages answer with a permanent redirect to ${toHost} ` +
    `(last ${ageWords(Math.max(0, now - seenAt))} ago), which the Lane does not follow. ` +
    `Move the Site to ${toHost}? Its Series keep their URLs and are read on the new host through the redirect.`
  )
}

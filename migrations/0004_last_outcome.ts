/**
 * 0004 — each Series keeps its last check's outcome and why, so the owner can see why a check failed
 * (docs/design.md#data). Frozen.
 */
export const name = '0004_last_outcome'

export const up = /* sql */ `
ALTER TABLE series ADD COLUMN last_outcome TEXT NOT NULL DEFAULT ''
  CHECK (last_outcome IN ('', 'chapter', 'no-chapter', 'refused', 'unreachable', 'unfetchable', 'error'));
ALTER TABLE series ADD COLUMN last_error TEXT NOT NULL DEFAULT '';
ALTER TABLE series ADD COLUMN last_outcome_at INTEGER NOT NULL DEFAULT 0;
`

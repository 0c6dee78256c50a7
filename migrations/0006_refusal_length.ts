/**
 * 0006 — a refusal keeps its own length: a Site's Retry-After may close its Lane for longer than the Site's
 * refusalBackoffMs, and the bound kept against a wall clock set back (docs/adr/0011-time-and-the-wall-clock.md)
 * must be that length, not the backoff (docs/adr/0047-retry-after-and-encodings.md). 0 = the Site's refusalBackoffMs. Frozen.
 */
export const name = '0006_refusal_length'

export const up = /* sql */ `
ALTER TABLE poll_lanes ADD COLUMN refuse_ms INTEGER NOT NULL DEFAULT 0 CHECK (refuse_ms >= 0);
`

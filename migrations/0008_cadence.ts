/**
 * 0008 — freshness per request (docs/adr/0014-freshness-per-request.md, docs/freshness.md). Frozen.
 *
 * On `series`, written only for Series of Sites whose pace is `adaptive` (a `fixed` Site never writes them):
 * - `next_check_at`: when the Series next deserves a check (0 = no plan: the fixed rest applies);
 * - `rhythm`: what the app believes about its releases, JSON ('' = nothing yet);
 * - `releases`: the recent release observations it learnt that from, JSON (at most the newest 12);
 * - `rhythm_misses`: how many times in a row the belief was wrong (two drop it to the fixed rest).
 *
 * The due query of an adaptive Site reads its due Series from `series_planned` — a range of planned times that
 * have come, and a range of unplanned Series past the rest — covering every column it tests, as `series_due`
 * does for a fixed Site (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md). `series_due_order` gains the
 * plan as its last column, so a pass walking a large due set in order reads no row it passes over.
 */
export const name = '0008_cadence'

export const up = /* sql */ `
ALTER TABLE series ADD COLUMN next_check_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE series ADD COLUMN rhythm TEXT NOT NULL DEFAULT '';
ALTER TABLE series ADD COLUMN releases TEXT NOT NULL DEFAULT '';
ALTER TABLE series ADD COLUMN rhythm_misses INTEGER NOT NULL DEFAULT 0;

CREATE INDEX series_planned
  ON series (site, next_check_at, latest_checked_at, reader_count, latest_sighted_at, force_poll_at, series_id, finished_at, (series_url <> ''))
  WHERE reader_count > 0;
DROP INDEX series_due_order;
CREATE INDEX series_due_order
  ON series (site, reader_count DESC, latest_checked_at, series_id, latest_sighted_at, force_poll_at, finished_at, (series_url <> ''), next_check_at)
  WHERE reader_count > 0;
`

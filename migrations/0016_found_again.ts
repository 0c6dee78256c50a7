/**
 * 0016 — a Series found again (docs/adr/0147-found-again-is-a-proposal.md). Frozen.
 *
 * `series_found`: one row per Series whose page is gone and that a title search on its own Site found at another
 * URL — where (`to_url`, `to_title`) and when — until the owner moves it there or dismisses it; `searched_at` is
 * when its gone run was last searched (one search per run); a dismissed URL is kept so it is not offered again.
 */
export const name = '0016_found_again'

export const up = /* sql */ `
CREATE TABLE series_found (
  site        TEXT    NOT NULL,
  series_id   TEXT    NOT NULL,
  to_url      TEXT    NOT NULL DEFAULT '',
  to_title    TEXT    NOT NULL DEFAULT '',
  found_at    INTEGER NOT NULL DEFAULT 0,
  searched_at INTEGER NOT NULL DEFAULT 0,
  dismissed   TEXT    NOT NULL DEFAULT '',
  PRIMARY KEY (site, series_id)
) WITHOUT ROWID;
`

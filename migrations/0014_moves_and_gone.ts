/**
 * 0014 — a Site that moved, and a Series whose page is gone (docs/adr/0112-a-permanent-redirect-is-a-proposal.md,
 * docs/adr/0113-a-series-whose-page-is-gone.md). Frozen.
 *
 * `site_moves`: one row per Site whose pages answered with a permanent redirect (301/308) to another host —
 * where to (`to_origin`, scheme://host[:port]), the URL that redirected and when it was last seen — until the
 * owner accepts or dismisses it; a dismissed origin is kept so the same redirect is not proposed again.
 * `series.gone_checks` / `gone_since` / `gone_status`: how many checks in a row the Series' page answered
 * 404 or 410, since when, and which; 0 once a check reads anything else.
 */
export const name = '0014_moves_and_gone'

export const up = /* sql */ `
CREATE TABLE site_moves (
  site        TEXT    PRIMARY KEY,
  to_origin   TEXT    NOT NULL DEFAULT '',
  from_url    TEXT    NOT NULL DEFAULT '',
  seen_at     INTEGER NOT NULL DEFAULT 0,
  dismissed   TEXT    NOT NULL DEFAULT ''
) WITHOUT ROWID;
ALTER TABLE series ADD COLUMN gone_checks INTEGER NOT NULL DEFAULT 0 CHECK (gone_checks >= 0);
ALTER TABLE series ADD COLUMN gone_since  INTEGER NOT NULL DEFAULT 0;
ALTER TABLE series ADD COLUMN gone_status INTEGER NOT NULL DEFAULT 0;
`

/**
 * 0017 — the other ids a Series is known by (docs/adr/0233-a-moved-series-is-one-series.md). Frozen.
 *
 * `series_aliases`: one row per id (`alias_id`, what the Site's series_id rule reads from a URL) that names the
 * Series `(site, series_id)` without being its key: the id of a URL it was moved to, or moved from, when its URL
 * changed (a found-again move the owner accepted, or the owner's edit). Gone with the Series.
 */
export const name = '0017_series_aliases'

export const up = /* sql */ `
CREATE TABLE series_aliases (
  site       TEXT NOT NULL,
  alias_id   TEXT NOT NULL,
  series_id  TEXT NOT NULL,
  PRIMARY KEY (site, alias_id),
  FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX series_aliases_series ON series_aliases (site, series_id);
`

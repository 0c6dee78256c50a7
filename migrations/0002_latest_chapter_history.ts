/**
 * 0002 — every move of a Series' Latest Chapter, for the Series detail page. Frozen.
 */
export const name = '0002_latest_chapter_history'

export const up = /* sql */ `
CREATE TABLE latest_chapter_history (
  id         INTEGER PRIMARY KEY,
  site       TEXT    NOT NULL,
  series_id  TEXT    NOT NULL,
  chapter    REAL    NOT NULL,
  label      TEXT    NOT NULL DEFAULT '',
  source     TEXT    NOT NULL CHECK (source IN ('check', 'sighting', 'correction')),
  at         INTEGER NOT NULL,
  FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
CREATE INDEX latest_chapter_history_series ON latest_chapter_history (site, series_id, id);
`

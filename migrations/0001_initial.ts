/**
 * 0001 — the schema of docs/design.md#data. Frozen: never edit a migration that has shipped; append a new one.
 * All times are unix milliseconds; 0 means never.
 */
export const name = '0001_initial'

export const up = /* sql */ `
CREATE TABLE readers (
  id          INTEGER PRIMARY KEY,
  name        TEXT    NOT NULL UNIQUE,
  token_hash  TEXT    NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL
);

CREATE TABLE series (
  site                 TEXT    NOT NULL,
  series_id            TEXT    NOT NULL,
  title                TEXT    NOT NULL DEFAULT '',
  series_url           TEXT    NOT NULL DEFAULT '',
  latest_chapter       REAL,
  latest_chapter_label TEXT    NOT NULL DEFAULT '',
  latest_chapter_url   TEXT    NOT NULL DEFAULT '',
  latest_source        TEXT    NOT NULL DEFAULT '' CHECK (latest_source IN ('', 'check', 'sighting')),
  latest_changed_at    INTEGER NOT NULL DEFAULT 0,
  latest_checked_at    INTEGER NOT NULL DEFAULT 0,
  latest_sighted_at    INTEGER NOT NULL DEFAULT 0,
  force_poll_at        INTEGER NOT NULL DEFAULT 0,
  finished_at          INTEGER NOT NULL DEFAULT 0,
  created_at           INTEGER NOT NULL,
  PRIMARY KEY (site, series_id)
);
-- The Lane's "previous fetch" read and the per-Site stale/unchecked counts.
CREATE INDEX series_site_checked ON series (site, latest_checked_at);

CREATE TABLE bookmarks (
  reader_id   INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  site        TEXT    NOT NULL,
  series_id   TEXT    NOT NULL,
  status      TEXT    NOT NULL DEFAULT 'reading' CHECK (status IN ('reading', 'waiting', 'planned', 'dropped')),
  progress    REAL,
  progress_at INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (reader_id, site, series_id),
  FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
-- The due query's join and the orphan test go from a Series to its bookmarks.
CREATE INDEX bookmarks_series ON bookmarks (site, series_id);
-- GET /bookmarks?since= reads one Reader's changes.
CREATE INDEX bookmarks_reader_updated ON bookmarks (reader_id, updated_at);

CREATE TABLE sightings (
  id          INTEGER PRIMARY KEY,
  reader_id   INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  site        TEXT    NOT NULL,
  series_id   TEXT    NOT NULL,
  chapter     REAL    NOT NULL,
  sighted_at  INTEGER NOT NULL,
  verdict     TEXT    NOT NULL DEFAULT '' CHECK (verdict IN ('', 'confirmed', 'suspicious')),
  judged_at   INTEGER NOT NULL DEFAULT 0,
  FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
-- A check judges the Series' outstanding Sightings (verdict = '').
CREATE INDEX sightings_series_verdict ON sightings (site, series_id, verdict);

CREATE TABLE poll_lanes (
  site          TEXT    PRIMARY KEY,
  paused_until  INTEGER NOT NULL DEFAULT 0,
  refuse_until  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE poll_passes (
  id          INTEGER PRIMARY KEY,
  site        TEXT    NOT NULL,
  started_at  INTEGER NOT NULL,
  ended_at    INTEGER NOT NULL,
  skip        TEXT    NOT NULL DEFAULT '',
  due         INTEGER NOT NULL DEFAULT 0,
  gap         INTEGER NOT NULL DEFAULT 0,
  clamped     INTEGER NOT NULL DEFAULT 0,
  checked     INTEGER NOT NULL DEFAULT 0,
  refused     INTEGER NOT NULL DEFAULT 0,
  unreachable INTEGER NOT NULL DEFAULT 0,
  no_chapter  INTEGER NOT NULL DEFAULT 0,
  unfetchable INTEGER NOT NULL DEFAULT 0,
  errors      INTEGER NOT NULL DEFAULT 0
);
-- The latest pass of one Site (MAX(id) per site) and a Site's recent history.
CREATE INDEX poll_passes_site_id ON poll_passes (site, id);
-- Retention prunes by age.
CREATE INDEX poll_passes_ended ON poll_passes (ended_at);
`

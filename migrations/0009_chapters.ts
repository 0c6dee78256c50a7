/**
 * 0009 — chapter lists (docs/adr/0072-chapter-lists-kept-in-a-window.md). Frozen.
 *
 * `chapters`: the chapters a successful check found on the Site, per Series, within the window kept (the newest
 * 100, and every one above the lowest Progress of its Readers, at most 1,000). One row per number; `label` and
 * `url` follow the Site (a re-labelled chapter updates); `released_at` when the page printed a date (0: none);
 * `first_seen_at` when a check first stored it; `arrived` 1 when it came as a New Chapter (above the Latest
 * Chapter known then), so a list read again or restored never counts as arrivals; `vanished_at` when a check no
 * longer found it inside the window (0: on the Site) — a vanished chapter is kept, not deleted.
 *
 * Caught up by default: a bookmark added with no Progress takes the Series' Latest Chapter as its Progress,
 * with `progress_at` 0 so any Progress the Reader writes wins; a Series whose first Latest Chapter arrives does the
 * same for the bookmarks that were waiting for it.
 */
export const name = '0009_chapters'

export const up = /* sql */ `
CREATE TABLE chapters (
  site          TEXT    NOT NULL,
  series_id     TEXT    NOT NULL,
  number        REAL    NOT NULL,
  label         TEXT    NOT NULL DEFAULT '',
  url           TEXT    NOT NULL DEFAULT '',
  released_at   INTEGER NOT NULL DEFAULT 0,
  first_seen_at INTEGER NOT NULL,
  arrived       INTEGER NOT NULL DEFAULT 0 CHECK (arrived IN (0, 1)),
  vanished_at   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (site, series_id, number),
  FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TRIGGER bookmarks_caught_up AFTER INSERT ON bookmarks
WHEN NEW.progress IS NULL AND NEW.progress_at = 0 BEGIN
  UPDATE bookmarks SET progress = (SELECT latest_chapter FROM series WHERE site = NEW.site AND series_id = NEW.series_id)
  WHERE reader_id = NEW.reader_id AND site = NEW.site AND series_id = NEW.series_id;
END;
CREATE TRIGGER series_first_latest AFTER UPDATE OF latest_chapter ON series
WHEN OLD.latest_chapter IS NULL AND NEW.latest_chapter IS NOT NULL BEGIN
  UPDATE bookmarks SET progress = NEW.latest_chapter
  WHERE site = NEW.site AND series_id = NEW.series_id AND progress IS NULL AND progress_at = 0;
END;
`

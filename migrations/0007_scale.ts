/**
 * 0007 — what a 100k library needs (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md,
 * docs/adr/0051-the-owners-list-pages-by-key.md, docs/adr/0052-since-reads-changes-and-removals.md,
 * docs/adr/0053-retention-and-statistics.md). Frozen.
 *
 * - `series.reader_count`: how many bookmarks hold the Series, kept by triggers on `bookmarks` (whoever writes
 *   them), so the due query, the orphan filter and the list read it from the row.
 * - `series_counts`: per Site, its Series and its eligible Series (URL, a Reader, not Finished), kept by
 *   triggers on `series`: the pace divisor and the Overview's total are one row read, not a count.
 * - `bookmark_removals`: when a Reader's bookmark was removed, so `GET /bookmarks?since=` can say so.
 * - An index per way the due query, the owner's list and its counts read `series`; one for Sightings'
 *   retention; and a Series keeps its newest 100 Latest Chapter moves.
 */
export const name = '0007_scale'

/** Eligible: what the pace divides the rest by (docs/design.md#the-eligible-count). */
const eligible = (row: 'NEW' | 'OLD') => `(${row}.series_url <> '' AND ${row}.finished_at = 0 AND ${row}.reader_count > 0)`

export const up = /* sql */ `
ALTER TABLE series ADD COLUMN reader_count INTEGER NOT NULL DEFAULT 0;
UPDATE series SET reader_count = (SELECT COUNT(*) FROM bookmarks b WHERE b.site = series.site AND b.series_id = series.series_id);

CREATE TABLE bookmark_removals (
  reader_id   INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  site        TEXT    NOT NULL,
  series_id   TEXT    NOT NULL,
  removed_at  INTEGER NOT NULL,
  PRIMARY KEY (reader_id, site, series_id)
) WITHOUT ROWID;
-- GET /bookmarks?since= reads one Reader's removals since a time; retention prunes by age.
CREATE INDEX bookmark_removals_since ON bookmark_removals (reader_id, removed_at);
CREATE INDEX bookmark_removals_at ON bookmark_removals (removed_at);

CREATE TRIGGER bookmarks_held AFTER INSERT ON bookmarks BEGIN
  UPDATE series SET reader_count = reader_count + 1 WHERE site = NEW.site AND series_id = NEW.series_id;
  DELETE FROM bookmark_removals WHERE reader_id = NEW.reader_id AND site = NEW.site AND series_id = NEW.series_id;
END;
CREATE TRIGGER bookmarks_released AFTER DELETE ON bookmarks BEGIN
  UPDATE series SET reader_count = reader_count - 1 WHERE site = OLD.site AND series_id = OLD.series_id;
END;
CREATE TRIGGER bookmarks_moved AFTER UPDATE OF site, series_id ON bookmarks
WHEN OLD.site IS NOT NEW.site OR OLD.series_id IS NOT NEW.series_id BEGIN
  UPDATE series SET reader_count = reader_count - 1 WHERE site = OLD.site AND series_id = OLD.series_id;
  UPDATE series SET reader_count = reader_count + 1 WHERE site = NEW.site AND series_id = NEW.series_id;
END;

CREATE TABLE series_counts (
  site      TEXT    PRIMARY KEY,
  series    INTEGER NOT NULL DEFAULT 0,
  eligible  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO series_counts (site, series, eligible)
  SELECT site, COUNT(*), SUM(series_url <> '' AND finished_at = 0 AND reader_count > 0) FROM series GROUP BY site;

CREATE TRIGGER series_counted AFTER INSERT ON series BEGIN
  INSERT OR IGNORE INTO series_counts (site) VALUES (NEW.site);
  UPDATE series_counts SET series = series + 1, eligible = eligible + ${eligible('NEW')} WHERE site = NEW.site;
END;
CREATE TRIGGER series_uncounted AFTER DELETE ON series BEGIN
  UPDATE series_counts SET series = series - 1, eligible = eligible - ${eligible('OLD')} WHERE site = OLD.site;
END;
CREATE TRIGGER series_recounted AFTER UPDATE OF series_url, finished_at, reader_count ON series
WHEN ${eligible('OLD')} <> ${eligible('NEW')} BEGIN
  UPDATE series_counts SET eligible = eligible + ${eligible('NEW')} - ${eligible('OLD')} WHERE site = NEW.site;
END;

-- The due query reads each Site's held Series from two indexes covering every column it tests (the URL test
-- as the expression the query names, so no table row is read for a Series it passes over): by check stamp,
-- to count the due range and to sort a small one; and in the order a pass takes them, to read the first few of
-- a large one without sorting it. Series pending a Check now come from their own small index.
CREATE INDEX series_due
  ON series (site, latest_checked_at, reader_count, latest_sighted_at, force_poll_at, series_id, finished_at, (series_url <> ''))
  WHERE reader_count > 0;
CREATE INDEX series_due_order
  ON series (site, reader_count DESC, latest_checked_at, series_id, latest_sighted_at, force_poll_at, finished_at, (series_url <> ''))
  WHERE reader_count > 0;
CREATE INDEX series_pending ON series (title COLLATE NOCASE, site, series_id) WHERE force_poll_at > latest_checked_at;

-- The owner's list: one index per order (title; latest change; last check), per Site by title, and one
-- small index per filter that does not depend on the time.
CREATE INDEX series_title ON series (title COLLATE NOCASE, site, series_id);
CREATE INDEX series_site_title ON series (site, title COLLATE NOCASE, series_id);
CREATE INDEX series_changed ON series (latest_changed_at, site, series_id);
CREATE INDEX series_checked ON series (latest_checked_at, site, series_id);
CREATE INDEX series_unchecked ON series (title COLLATE NOCASE, site, series_id) WHERE latest_checked_at = 0;
CREATE INDEX series_finished ON series (title COLLATE NOCASE, site, series_id) WHERE finished_at > 0;
CREATE INDEX series_orphan ON series (title COLLATE NOCASE, site, series_id) WHERE reader_count = 0;
CREATE INDEX series_no_url ON series (title COLLATE NOCASE, site, series_id) WHERE series_url = '';

-- The Lanes page: a Site's latest failed checks.
CREATE INDEX series_failed ON series (site, last_outcome_at) WHERE last_outcome NOT IN ('', 'chapter');

-- Retention: judged Sightings by age.
CREATE INDEX sightings_judged ON sightings (judged_at) WHERE verdict <> '';

-- A Series keeps its newest 100 Latest Chapter moves (the Series page shows 50).
DELETE FROM latest_chapter_history WHERE id IN (
  SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY site, series_id ORDER BY id DESC) AS n FROM latest_chapter_history)
  WHERE n > 100);
CREATE TRIGGER latest_chapter_history_kept AFTER INSERT ON latest_chapter_history BEGIN
  DELETE FROM latest_chapter_history WHERE site = NEW.site AND series_id = NEW.series_id AND id < (
    SELECT id FROM latest_chapter_history WHERE site = NEW.site AND series_id = NEW.series_id ORDER BY id DESC LIMIT 1 OFFSET 99);
END;
`

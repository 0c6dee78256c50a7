/**
 * 0011 — each Reader's bookmarks per Site, counted (docs/adr/0081-one-reader-bounded.md). Frozen.
 *
 * `reader_site_counts`: how many bookmarks a Reader holds on a Site, kept by triggers on `bookmarks` (whoever
 * writes them, a cascade from a removed Reader or Series included), a row only while there is one. The Lane's
 * fair share (docs/adr/0081-one-reader-bounded.md) reads who is over their share from a Site's rows — one per
 * Reader holding any of its Series — instead of a count per Reader in the bookmarks.
 */
export const name = '0011_reader_site_counts'

/** One more (`+ 1`) or one fewer (`- 1`) bookmark of `row`'s Reader on `row`'s Site; a count of 0 goes. */
const counted = (row: 'NEW' | 'OLD', step: '+ 1' | '- 1') =>
  step === '+ 1'
    ? `INSERT INTO reader_site_counts (site, reader_id, bookmarks) VALUES (${row}.site, ${row}.reader_id, 1)
    ON CONFLICT (site, reader_id) DO UPDATE SET bookmarks = bookmarks + 1;`
    : `UPDATE reader_site_counts SET bookmarks = bookmarks - 1 WHERE site = ${row}.site AND reader_id = ${row}.reader_id;
  DELETE FROM reader_site_counts WHERE site = ${row}.site AND reader_id = ${row}.reader_id AND bookmarks <= 0;`

export const up = /* sql */ `
CREATE TABLE reader_site_counts (
  site       TEXT    NOT NULL,
  reader_id  INTEGER NOT NULL,
  bookmarks  INTEGER NOT NULL,
  PRIMARY KEY (site, reader_id)
) WITHOUT ROWID;
INSERT INTO reader_site_counts (site, reader_id, bookmarks)
  SELECT site, reader_id, COUNT(*) FROM bookmarks GROUP BY site, reader_id;

CREATE TRIGGER bookmarks_counted AFTER INSERT ON bookmarks BEGIN
  ${counted('NEW', '+ 1')}
END;
CREATE TRIGGER bookmarks_uncounted AFTER DELETE ON bookmarks BEGIN
  ${counted('OLD', '- 1')}
END;
CREATE TRIGGER bookmarks_recounted AFTER UPDATE OF reader_id, site ON bookmarks
WHEN OLD.reader_id IS NOT NEW.reader_id OR OLD.site IS NOT NEW.site BEGIN
  ${counted('OLD', '- 1')}
  ${counted('NEW', '+ 1')}
END;
`

/**
 * 0012 — delivery ids that are never reused, and the Latest Chapter a check last found. Frozen.
 *
 * - `notify_outbox.delivery_id`: the id a message carries on every try (`X-Manga-Bookmark-Delivery`, the
 *   webhook body's `id`), random and written with the row (docs/adr/0118-delivery-ids-unique-forever.md): a
 *   row id is reused once its row is deleted, and starts again in another data file or after a restore.
 *   Messages waiting when this runs get one now.
 * - `series.checked_chapter`: the Latest Chapter as a check (or an import) last set it, NULL when none did; a
 *   Sighting's raise leaves it. A Sighting is bounded from it and a check above it is a New Chapter
 *   (docs/adr/0119-sightings-judged-from-the-last-check.md). Filled from the Latest Chapter, or for one a
 *   Sighting raised from the newest history row a check wrote.
 */
export const name = '0012_delivery_ids_and_checked_chapter'

export const up = /* sql */ `
ALTER TABLE notify_outbox ADD COLUMN delivery_id TEXT NOT NULL DEFAULT '';
UPDATE notify_outbox SET delivery_id = 'mb-' || lower(hex(randomblob(16)));

ALTER TABLE series ADD COLUMN checked_chapter REAL;
UPDATE series SET checked_chapter = latest_chapter WHERE latest_source <> 'sighting';
UPDATE series SET checked_chapter = (
  SELECT h.chapter FROM latest_chapter_history h
  WHERE h.site = series.site AND h.series_id = series.series_id AND h.source <> 'sighting'
  ORDER BY h.id DESC LIMIT 1
) WHERE latest_source = 'sighting';
`

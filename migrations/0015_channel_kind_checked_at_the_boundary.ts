/**
 * 0015 — a notification channel's kind is plain text, checked where it enters (docs/adr/0175-one-descriptor-per-channel-kind.md).
 * Frozen.
 *
 * `notify_channels.kind` lost its `CHECK (kind IN (…))`: the kinds are one list in `src/shared/channel-kinds.ts`,
 * validated by the zod schemas a channel comes in by; a new kind needs no table rebuild. SQLite cannot drop a
 * CHECK in place, so the table is made again with the same columns, rows and ids. Dropping the old table would
 * delete every waiting message by `ON DELETE CASCADE` (the migrator runs with foreign keys on, inside one
 * transaction), so the outbox is kept aside first and put back after, with its ids and delivery ids.
 */
export const name = '0015_channel_kind_checked_at_the_boundary'

export const up = /* sql */ `
CREATE TEMP TABLE outbox_kept AS SELECT * FROM notify_outbox;

CREATE TABLE notify_channels_new (
  id INTEGER PRIMARY KEY,
  reader_id INTEGER REFERENCES readers(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  target TEXT NOT NULL,
  secret TEXT NOT NULL DEFAULT '',
  failures INTEGER NOT NULL DEFAULT 0,
  last_error TEXT NOT NULL DEFAULT '',
  last_error_at INTEGER NOT NULL DEFAULT 0,
  last_ok_at INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
INSERT INTO notify_channels_new SELECT id, reader_id, kind, target, secret, failures, last_error, last_error_at, last_ok_at, created_at
  FROM notify_channels;
DROP TABLE notify_channels;
ALTER TABLE notify_channels_new RENAME TO notify_channels;
CREATE INDEX notify_channels_reader ON notify_channels (reader_id);

INSERT INTO notify_outbox SELECT * FROM outbox_kept;
DROP TABLE outbox_kept;
`

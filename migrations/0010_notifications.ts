/**
 * 0010 — New Chapters reach the Readers (docs/adr/0074-a-durable-outbox-for-notifications.md). Frozen.
 *
 * - `notify_prefs`: a Reader's rules — the least unread count worth a message, quiet hours ('' = none) in a
 *   time zone, and the muted Series (JSON `[[site, seriesId], …]`).
 * - `notify_channels`: where a Reader's (or, with `reader_id` NULL, the owner's) messages go: `webpush` (the
 *   push endpoint; `secret` holds the subscription's keys), `ntfy` (a topic URL; `secret` an access token) or
 *   `webhook` (a URL; `secret` the HMAC key). A channel that keeps failing says why (`failures`, `last_error`).
 * - `notify_chapters`: each New Chapter, written in the transaction that moves the Latest Chapter, until the
 *   pass's digest turns it into messages (then it is deleted, in the digest's transaction).
 * - `notify_outbox`: one message per channel until it is delivered (then deleted) or given up; `not_before`
 *   holds it through quiet hours, `next_attempt_at` paces its retries.
 */
export const name = '0010_notifications'

export const up = /* sql */ `
CREATE TABLE notify_prefs (
  reader_id INTEGER PRIMARY KEY REFERENCES readers(id) ON DELETE CASCADE,
  min_unread INTEGER NOT NULL DEFAULT 1,
  quiet_from TEXT NOT NULL DEFAULT '',
  quiet_to TEXT NOT NULL DEFAULT '',
  time_zone TEXT NOT NULL DEFAULT '',
  muted TEXT NOT NULL DEFAULT '[]',
  updated_at INTEGER NOT NULL
);

CREATE TABLE notify_channels (
  id INTEGER PRIMARY KEY,
  reader_id INTEGER REFERENCES readers(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('webpush', 'ntfy', 'webhook')),
  target TEXT NOT NULL,
  secret TEXT NOT NULL DEFAULT '',
  failures INTEGER NOT NULL DEFAULT 0,
  last_error TEXT NOT NULL DEFAULT '',
  last_error_at INTEGER NOT NULL DEFAULT 0,
  last_ok_at INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX notify_channels_reader ON notify_channels (reader_id);

CREATE TABLE notify_chapters (
  id INTEGER PRIMARY KEY,
  site TEXT NOT NULL,
  series_id TEXT NOT NULL,
  chapter REAL NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL DEFAULT '',
  title TEXT NOT NULL DEFAULT '',
  previous_check_at INTEGER NOT NULL DEFAULT 0,
  at INTEGER NOT NULL
);
CREATE INDEX notify_chapters_site ON notify_chapters (site, id);

CREATE TABLE notify_outbox (
  id INTEGER PRIMARY KEY,
  channel_id INTEGER NOT NULL REFERENCES notify_channels(id) ON DELETE CASCADE,
  message TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  not_before INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  last_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX notify_outbox_due ON notify_outbox (next_attempt_at);
CREATE INDEX notify_outbox_channel ON notify_outbox (channel_id);
`

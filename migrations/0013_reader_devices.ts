/**
 * 0013 — a Reader's devices, and sign-in links asked of the running app (docs/adr/0126-devices-not-tokens.md,
 * docs/adr/0127-a-sign-in-link-while-the-app-runs.md). Frozen.
 *
 * `reader_devices`: one row per device a Reader signed in on, each with a token of its own (stored as its
 * lowercase hex SHA-256, never in clear); the sync API knows a Reader by a device's token. Every Reader's present
 * token becomes their first device, so a token given before this migration keeps working. `readers.token_hash`
 * stays the token of the Reader's latest add or rotate: triggers keep the two in step whoever writes `readers` —
 * a new Reader gets their first device, a rotated token ends every device and becomes the only one.
 *
 * `admin_sign_in_requests`: `npm run admin-link` asks the running app for a new sign-in link by writing the
 * SHA-256 of a code it made; the app takes it into its one-time codes and answers with its admin port.
 */
export const name = '0013_reader_devices'

const NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

export const up = /* sql */ `
CREATE TABLE reader_devices (
  id            INTEGER PRIMARY KEY,
  reader_id     INTEGER NOT NULL REFERENCES readers(id) ON DELETE CASCADE,
  name          TEXT    NOT NULL,
  token_hash    TEXT    NOT NULL UNIQUE,
  created_at    INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX reader_devices_by_reader ON reader_devices (reader_id);
INSERT INTO reader_devices (reader_id, name, token_hash, created_at)
  SELECT id, 'First device', token_hash, created_at FROM readers;

CREATE TRIGGER readers_first_device AFTER INSERT ON readers BEGIN
  INSERT INTO reader_devices (reader_id, name, token_hash, created_at) VALUES (NEW.id, 'First device', NEW.token_hash, NEW.created_at);
END;
CREATE TRIGGER readers_token_rotated AFTER UPDATE OF token_hash ON readers
WHEN OLD.token_hash IS NOT NEW.token_hash BEGIN
  DELETE FROM reader_devices WHERE reader_id = NEW.id;
  INSERT INTO reader_devices (reader_id, name, token_hash, created_at) VALUES (NEW.id, 'First device', NEW.token_hash, ${NOW_MS});
END;

CREATE TABLE admin_sign_in_requests (
  id            INTEGER PRIMARY KEY,
  code_hash     TEXT    NOT NULL UNIQUE,
  requested_at  INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  taken_at      INTEGER NOT NULL DEFAULT 0,
  admin_port    INTEGER NOT NULL DEFAULT 0
);
`

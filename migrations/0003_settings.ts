/**
 * 0003 — the owner's settings (sync endpoint bind and port, start at login, notifications), one row per
 * key, the value as JSON. Frozen.
 */
export const name = '0003_settings'

export const up = /* sql */ `
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`

/**
 * 0005 — the owner's mapping of Mihon/Tachiyomi backup sources to Sites, remembered for the next import
 * (docs/adr/0036-import-plans-and-one-transaction.md). A backup names its sources by an int64 id, kept as
 * decimal text. Frozen.
 */
export const name = '0005_import_source_mappings'

export const up = /* sql */ `
CREATE TABLE import_source_mappings (
  source_id    TEXT    PRIMARY KEY,
  source_name  TEXT    NOT NULL DEFAULT '',
  site         TEXT    NOT NULL,
  origin       TEXT    NOT NULL,
  updated_at   INTEGER NOT NULL
);
`

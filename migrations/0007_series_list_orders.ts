/**
 * 0007 — the owner's Series list in the orders the window offers beyond title, and its `new` filter
 * (docs/adr/0055-series-say-why.md): an index per order, newest first — the latest change (which also serves
 * `new`, a range of it) and the last check — each ending in the primary key, so a page reads in index order with
 * no sort. `IF NOT EXISTS`, and the names and columns the Scale work gives the same indexes, so either may come
 * first. Frozen.
 */
export const name = '0007_series_list_orders'

export const up = /* sql */ `
CREATE INDEX IF NOT EXISTS series_changed ON series (latest_changed_at, site, series_id);
CREATE INDEX IF NOT EXISTS series_checked ON series (latest_checked_at, site, series_id);
`

/**
 * 0018 — the Series by title as a Reader's list shows them (docs/adr/0207-big-reads-by-the-title-index.md). Frozen.
 *
 * `series_by_title`: the Series in the order a Reader's full sync and export answer them (title as stored, binary,
 * then Site and id), so a Reader holding a large share of the library is read in that order from the index
 * instead of sorted whole in a temporary B-tree. `series_title` (NOCASE) stays: the owner's list pages by it.
 */
export const name = '0018_series_title_binary'

export const up = /* sql */ `
CREATE INDEX series_by_title ON series (title, site, series_id);
`

/**
 * Search a Site by title (docs/adr/0145-search-is-a-request-on-the-lane.md): the words of a query, what one
 * result says, and the one rule that tells two titles are the same (found again, docs/adr/0147-…). Shared: the
 * sync API, the admin RPC and both pages read these.
 */
import { z } from 'zod'
import { SiteKey, unsafeIdReason } from './ids'

/** A query: what a person types, trimmed, 2–100 characters. */
export const SearchQueryText = z
  .string()
  .trim()
  .min(2, 'type at least 2 characters of the title')
  .max(100, 'a title search is at most 100 characters')
  .refine((q) => unsafeIdReason(q) === null, 'a title search has no control characters or bidirectional overrides')

/** How many results one search answers with, at most (the first page of the Site's own answer). */
export const MAX_SEARCH_RESULTS = 30

export const SearchResultView = z.strictObject({
  title: z.string(),
  /** The Series URL: follow it with the bookmark-by-URL path. */
  url: z.string(),
  /** The Series id on its Site, read from the URL by the Site's rule. */
  seriesId: z.string(),
  /** The cover image as the Site's page names it (the covers work serves it; absent when the page shows none). */
  coverUrl: z.string().optional(),
  /** The latest chapter as the result shows it ("Chapter 12"), when it does. */
  latest: z.string().optional(),
  /** Whoever asked holds a bookmark of it already (a Reader), or the household follows it (the owner). */
  following: z.boolean(),
})
export type SearchResultView = z.infer<typeof SearchResultView>

export const SearchResponse = z.strictObject({
  site: z.string(),
  query: z.string(),
  results: z.array(SearchResultView),
})
export type SearchResponse = z.infer<typeof SearchResponse>

export const SearchParams = z.strictObject({ site: SiteKey })
export const SearchQuery = z.strictObject({ q: SearchQueryText })

/** A Site as a search box lists it: whether it can be searched, and if not, why in words. */
export const SearchableSiteView = z.strictObject({
  key: z.string(),
  name: z.string(),
  search: z.boolean(),
  /** Why a Site cannot be searched ("… cannot be searched by title: paste a Series URL"). */
  why: z.string().optional(),
})
export type SearchableSiteView = z.infer<typeof SearchableSiteView>
export const SearchableSitesResponse = z.strictObject({ sites: z.array(SearchableSiteView) })

/** How many searches one Reader may make per minute, on all Sites together; past it the API answers 429. */
export const SEARCHES_PER_READER_PER_MINUTE = 6

/**
 * A title as two titles are compared: Unicode-normalised (NFKC), lowercased, accents dropped, every run of
 * punctuation and spaces one space, trimmed. "Solo  Lantern!" and "solo lantern" are the same title.
 */
export function normalisedTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

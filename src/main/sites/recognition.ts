/**
 * What "Add a Site" makes of one page (recognise-site.ts), as plain data: it crosses to the page reader's worker
 * (page-reader.ts), where the page is recognised off the main thread and under the read deadline.
 */
import type { KnownSite } from './known-sites'
import type { Chapter, FetcherKind, PageRequest } from './site'
import type { SiteEntry } from './sites-file'

export interface SitePreview {
  /** The Series title as the Lane will read it. */
  title?: string
  /** Highest first, at most `PREVIEW_CHAPTERS`. */
  chapters: Chapter[]
  /** How many chapters the page lists in all. */
  chapterCount: number
}

export type SiteProposal =
  | {
      ok: true
      /** The sites.json entry to confirm; `addSiteEntry` writes it. */
      entry: SiteEntry
      preview: SitePreview
      /** How the family was recognised, in words ("Madara markup: .wp-manga-chapter rows"). */
      recognisedBy: string
      /** The Series' own URL, ready to bookmark once the Site runs. */
      seriesUrl: string
    }
  | { ok: false; reason: string }

/** What `recogniseSite` may also say: the chapter list comes by one more request (Madara's XHR list). */
export type Recognition =
  | (Extract<SiteProposal, { ok: true }> & { pending?: { request: PageRequest; fallback?: PageRequest } })
  | Extract<SiteProposal, { ok: false }>

export interface RecogniseOptions {
  /** Keys already taken (the running Sites'): the proposed key avoids them. */
  takenKeys?: readonly string[]
  /** How the page was fetched; the entry's fetcher. Default 'http'. */
  fetcher?: FetcherKind
  /**
   * The Known Sites table's row for the host, if any: it names the Site (key, name, hosts); the family is the
   * page's own, whatever the row says.
   */
  known?: KnownSite
}

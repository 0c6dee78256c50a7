/**
 * Found again (docs/adr/0147-found-again-is-a-proposal.md): a Series whose page is gone (GONE_AFTER_CHECKS checks
 * in a row answered 404/410) is searched for by its title on its own Site, once per gone run, on the Site's Lane.
 * A single confident match — exactly one result whose normalised title equals the Series' and whose URL is not the
 * gone one — is kept as a proposal to the owner ("Found 'X' at … — move it?"); never moved by itself. Accepting
 * moves the Series' URL (its key, progress, chapters and history stay); dismissing remembers the URL.
 */
import { AppError } from '../../shared/errors'
import { normalisedTitle, type SearchResultView } from '../../shared/search'
import { GONE_AFTER_CHECKS } from '../../shared/series-state'
import type { CheckReport } from '../lanes/check'
import { isPinned, parseUrl } from '../sites/site'
import type { SeriesKey } from '../store/schema'
import { answerFoundAgain, pendingFoundAgain, recordFoundAgain, searchedSince, type FoundAgainProposal } from '../store/search'
import { forceSeriesPoll, getSeries } from '../store/series'
import { searchSite, type SearchDeps } from './search-site'
import { moveSeriesUrl } from './series-by-url'

/** The one result that is confidently the Series, or null: exactly one other URL whose title is the same. */
export function confidentMatch(title: string, currentUrl: string, results: readonly SearchResultView[]): SearchResultView | null {
  const wanted = normalisedTitle(title)
  if (!wanted) return null
  const same = results.filter((r) => normalisedTitle(r.title) === wanted && r.url !== currentUrl)
  return same.length === 1 ? same[0]! : null
}

/**
 * After a check: when it found the Series' page gone for the GONE_AFTER_CHECKS-th time or more and this run was
 * not searched yet, searches the Site by the Series' title and records what it found. Never throws: a search that
 * cannot be made (a Site that cannot search, a pause, a refusal) is logged and tried at the next gone check.
 */
export async function findAgainAfterCheck(
  deps: SearchDeps,
  key: SeriesKey,
  report: Pick<CheckReport, 'gone'>,
): Promise<FoundAgainProposal | null> {
  if (!report.gone) return null
  const site = deps.registry.get(key.site)
  if (!site?.adapter.search) return null
  try {
    const series = await getSeries(deps.db, key)
    if (!series || series.gone_checks < GONE_AFTER_CHECKS || !series.title) return null
    if (await searchedSince(deps.db, key, series.gone_since)) return null
    const answer = await searchSite(deps, { site: key.site, query: series.title.slice(0, 100) })
    const match = confidentMatch(series.title, series.series_url, answer.results)
    const offered = await recordFoundAgain(deps.db, key, deps.clock.now(), match && { url: match.url, title: match.title })
    deps.log.info(
      { site: key.site, series: key.seriesId, found: match?.url ?? null, results: answer.results.length },
      'found again: searched a gone Series by its title',
    )
    return offered ? ((await pendingFoundAgain(deps.db, key))[0] ?? null) : null
  } catch (error) {
    deps.log.warn(
      { site: key.site, series: key.seriesId, err: error },
      'found again: the search could not be made; tried at the next gone check',
    )
    return null
  }
}

/** Moves the Series to the URL it was found at (same key: its bookmarks, Progress, chapters and history stay) and checks it there next. */
export async function acceptFoundAgain(deps: Pick<SearchDeps, 'db' | 'registry' | 'clock'>, key: SeriesKey): Promise<void> {
  const [proposal] = await pendingFoundAgain(deps.db, key)
  if (!proposal) throw new AppError('not-found', `the Series ${key.site}/${key.seriesId} has no place it was found again`)
  const site = deps.registry.get(key.site)
  const url = parseUrl(proposal.toUrl)
  if (!site || !url || !isPinned(site, url)) throw new AppError('off-pin', `${proposal.toUrl} is no longer on the Site's host pin`)
  const now = deps.clock.now()
  // Its old and its new URL name it from now on: a follow of either is this Series (docs/adr/0233-…).
  await moveSeriesUrl(deps.db, site, key, { url: url.href, found: true, now })
  await answerFoundAgain(deps.db, key, 'accepted')
  // Read at its new place at the Lane's next turn: the gone run ends with that check.
  await forceSeriesPoll(deps.db, key, now)
}

/** Leaves the Series where it is; the same URL is not offered again. */
export async function dismissFoundAgain(deps: Pick<SearchDeps, 'db'>, key: SeriesKey): Promise<void> {
  if ((await pendingFoundAgain(deps.db, key)).length === 0)
    throw new AppError('not-found', `the Series ${key.site}/${key.seriesId} has no place it was found again`)
  await answerFoundAgain(deps.db, key, 'dismissed')
}

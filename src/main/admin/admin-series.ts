/**
 * The admin operations on Series and their chapters: the Library's list, a Series' detail, the New Chapters, and
 * the owner's writes to a Series or a Reader's bookmark of it. Each write answers with the row it changed.
 */
import type { AdminApi } from '../../shared/admin-api'
import { checkNowRefusal } from '../../shared/check-now'
import { NEW_CHAPTER_MS } from '../../shared/domain'
import { AppError } from '../../shared/errors'
import { upcomingSeries } from './admin-upcoming'
import { isPinned, parseUrl } from '../sites/site'
import { removeBookmark, seriesReaders } from '../store/bookmarks'
import { chapterList } from '../store/chapters'
import { getReader } from '../store/readers'
import { finishSeries, forceSeriesPoll, latestChapterHistory, unfinishSeries } from '../store/series'
import { listSeries } from '../store/series-list'
import { seriesSightings } from '../store/sightings'
import { newChapterUpdates } from '../store/updates'
import { bookmarkByUrl } from '../use-cases/acquire'
import { moveSeriesUrl } from '../use-cases/series-by-url'
import type { AdminScope } from './admin-scope'
import { seriesRowView } from './admin-views'

/** How many stored chapters the Series detail shows, newest first. */
const DETAIL_CHAPTERS = 200

/** How many New Chapters the Updates page reads at once, by default. */
const UPDATES_PAGE = 50

type SeriesKey = { site: string; seriesId: string }

type SeriesOperations = Pick<
  AdminApi,
  | 'listSeries'
  | 'seriesDetail'
  | 'updates'
  | 'forceSeriesPoll'
  | 'finishSeries'
  | 'unfinishSeries'
  | 'setSeriesUrl'
  | 'addBookmark'
  | 'removeBookmark'
>

export function seriesOperations(scope: AdminScope): SeriesOperations {
  const { core, db, now, siteOf, seriesRow } = scope
  const detail = (key: SeriesKey) => seriesDetail(scope, key)
  return {
    async listSeries(input) {
      const { sort, after, filter, site, search } = input
      const page = await listSeries(db, {
        staleBefore: scope.staleBefore(),
        newSince: now() - NEW_CHAPTER_MS,
        offset: input.offset ?? 0,
        limit: input.limit ?? 100,
        count: input.count ?? true,
        sort,
        after,
        filter,
        site,
        search,
      })
      const waiting = await scope.waitingFor()
      return {
        total: page.total,
        offset: input.offset ?? 0,
        rows: page.rows.map((r) => seriesRowView(r, siteOf(r.site), waiting(r))),
        next: page.next,
      }
    },
    seriesDetail: (input) => detail(input),
    updates: (input) => updates(scope, input),
    async forceSeriesPoll(input) {
      // The pair the due query never overrides: a press here would only sit pending for ever.
      const refusal = checkNowRefusal(await seriesRow(input))
      if (refusal) throw new AppError('invalid', refusal)
      await forceSeriesPoll(db, input, now())
      return seriesRow(input)
    },
    async finishSeries(input) {
      await finishSeries(db, input, now())
      return seriesRow(input)
    },
    async unfinishSeries(input) {
      await unfinishSeries(db, input, now())
      return seriesRow(input)
    },
    async setSeriesUrl(input) {
      const site = siteOf(input.site)
      const url = parseUrl(input.url)
      if (!site) throw new AppError('not-found', `no Site "${input.site}"`)
      if (!url || !isPinned(site, url))
        throw new AppError('off-pin', `the URL is not on ${site.name}'s host pin (${site.hosts.join(', ')})`)
      await moveSeriesUrl(db, site, { site: input.site, seriesId: input.seriesId }, { url: url.href, found: false, now: now() })
      return seriesRow(input)
    },
    async addBookmark({ readerId, url, status }) {
      if (!(await getReader(db, readerId))) throw new AppError('not-found', `no Reader ${readerId}`)
      const result = await bookmarkByUrl(core.acquireDeps, { readerId, url, status })
      return seriesRow({ site: result.bookmark.site, seriesId: result.bookmark.series_id })
    },
    async removeBookmark(input) {
      await removeBookmark(db, input.readerId, { site: input.site, seriesId: input.seriesId }, now())
      return detail(input)
    },
  }
}

async function seriesDetail(scope: AdminScope, key: SeriesKey) {
  const { db } = scope
  const [row, readers, sightings, history, chapters] = await Promise.all([
    scope.seriesRow(key),
    seriesReaders(db, key),
    seriesSightings(db, key),
    latestChapterHistory(db, key),
    chapterList(db, key, { limit: DETAIL_CHAPTERS }),
  ])
  const image = scope.core.covers.image(key)
  return {
    row,
    ...(image ? { cover: `data:${image.type};base64,${image.bytes.toString('base64')}` } : {}),
    readers: readers.map((x) => ({
      readerId: x.reader_id,
      name: x.name,
      status: x.status,
      progress: x.progress,
      progressAt: x.progress_at,
    })),
    sightings: sightings.map((g) => ({
      id: g.id,
      readerName: g.reader_name,
      chapter: g.chapter,
      sightedAt: g.sighted_at,
      verdict: g.verdict,
      judgedAt: g.judged_at,
    })),
    history: history.map((h) => ({ chapter: h.chapter, label: h.label, source: h.source, at: h.at })),
    chapters: chapters.map((c) => ({
      number: c.number,
      label: c.label,
      url: c.url,
      releasedAt: c.released_at,
      firstSeenAt: c.first_seen_at,
      arrived: c.arrived === 1,
      vanishedAt: c.vanished_at,
    })),
  }
}

/** The New Chapters, newest first; the first page also says which Series are due soon. */
async function updates(scope: AdminScope, input: Parameters<AdminApi['updates']>[0]) {
  const { db, now, siteOf } = scope
  const limit = input?.limit ?? UPDATES_PAGE
  const rows = await newChapterUpdates(db, { limit, before: input?.before, readerId: input?.readerId })
  const last = rows.at(-1)
  return {
    items: rows.map((u) => ({
      id: u.id,
      site: u.site,
      siteName: siteOf(u.site)?.name ?? u.site,
      seriesId: u.series_id,
      title: u.title,
      chapter: u.chapter,
      label: u.label,
      previous: u.previous,
      at: u.at,
      url: u.url,
    })),
    next: last && rows.length === limit ? last.id : undefined,
    upcoming: input?.before === undefined ? await upcomingSeries(db, now(), (site) => siteOf(site)?.name ?? site) : undefined,
  }
}

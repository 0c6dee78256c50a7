/**
 * The Series domain: the list (paged on demand for the virtualised table), one Series' detail, and the row
 * writes — Check now, Finish, Unfinish, the URL, a Reader's bookmark. Every write answers with the freshly
 * read row, which replaces the one shown.
 */
import { reactive, ref, shallowRef, triggerRef } from 'vue'
import type { SeriesDetailView, SeriesFilter, SeriesRowView, SeriesSort } from '../../../shared/admin-api'
import { waitingWords } from '../../../shared/series-state'
import { admin } from '../api'
import { announce } from '../composables/announce'
import { attempt } from './problem'

export const PAGE_SIZE = 200

export interface SeriesQuery {
  filter: SeriesFilter | ''
  site: string
  search: string
  sort: SeriesSort
}

/** What a Check now did, for the live region: requested, and what the check waits for. */
export function checkRequestedWords(row: SeriesRowView, now = Date.now()): string {
  return `Check requested for ${row.title || row.seriesId}: ${waitingWords(row.waiting, row.pending, now)}.`
}

export function useSeriesList() {
  const query = reactive<SeriesQuery>({ filter: '', site: '', search: '', sort: 'title' })
  const total = ref(0)
  const pages = shallowRef(new Map<number, SeriesRowView[]>())
  /** Where each loaded page's successor starts: the next page is read by key, not by skipping rows. */
  const nextOf = new Map<number, string>()
  const loading = new Set<number>()
  let generation = 0

  const params = (page: number, count: boolean) => {
    return {
      offset: page * PAGE_SIZE,
      limit: PAGE_SIZE,
      count,
      after: nextOf.get(page - 1),
      filter: query.filter || undefined,
      site: query.site || undefined,
      search: query.search.trim() || undefined,
      sort: query.sort === 'title' ? undefined : query.sort,
    }
  }

  /** Loads a page; the total is counted only when the list starts over (a new filter, Site or search). */
  async function loadPage(page: number, force = false, count = false): Promise<void> {
    if (loading.has(page) || (!force && pages.value.has(page))) return
    loading.add(page)
    const asked = generation
    const result = await attempt(() => admin.listSeries(params(page, count)))
    loading.delete(page)
    if (!result || asked !== generation) return
    if (result.total !== undefined) total.value = result.total
    if (result.next) nextOf.set(page, result.next)
    else nextOf.delete(page)
    pages.value.set(page, result.rows)
    triggerRef(pages)
  }

  /** Starts over (a new filter or search). */
  async function reset(): Promise<void> {
    generation++
    pages.value = new Map()
    nextOf.clear()
    loading.clear()
    await loadPage(0, false, true)
  }

  /** The row at an index, or undefined while its page loads. */
  function rowAt(index: number): SeriesRowView | undefined {
    const page = Math.floor(index / PAGE_SIZE)
    const rows = pages.value.get(page)
    if (!rows) void loadPage(page)
    return rows?.[index % PAGE_SIZE]
  }

  /** Re-reads the pages in view, so pending markers clear when a Lane serves them. */
  async function refreshPages(visible: number[]): Promise<void> {
    for (const page of new Set(visible)) await loadPage(page, true)
  }

  function replace(fresh: SeriesRowView): void {
    for (const rows of pages.value.values()) {
      const i = rows.findIndex((r) => r.site === fresh.site && r.seriesId === fresh.seriesId)
      if (i >= 0) rows[i] = fresh
    }
    triggerRef(pages)
  }

  async function checkNow(row: SeriesRowView): Promise<void> {
    const fresh = await attempt(() => admin.forceSeriesPoll({ site: row.site, seriesId: row.seriesId }))
    if (!fresh) return
    replace(fresh)
    await announce(checkRequestedWords(fresh))
  }

  return { query, total, rowAt, reset, refreshPages, checkNow, pageOf: (index: number) => Math.floor(index / PAGE_SIZE) }
}

export function useSeriesDetail(key: () => { site: string; seriesId: string }) {
  const detail = ref<SeriesDetailView | null>(null)
  const refresh = async () => {
    const value = await attempt(() => admin.seriesDetail(key()))
    if (value) detail.value = value
  }
  const withRow = async (write: () => Promise<SeriesRowView | undefined>) => {
    const row = await write()
    if (row && detail.value) detail.value = { ...detail.value, row }
    return row
  }
  return {
    detail,
    refresh,
    async checkNow() {
      const row = await withRow(() => attempt(() => admin.forceSeriesPoll(key())))
      if (row) await announce(checkRequestedWords(row))
      return row
    },
    finish: () => withRow(() => attempt(() => admin.finishSeries(key()))),
    unfinish: () => withRow(() => attempt(() => admin.unfinishSeries(key()))),
    setUrl: (url: string) => withRow(() => attempt(() => admin.setSeriesUrl({ ...key(), url }))),
    async removeBookmark(readerId: number, name: string) {
      const value = await attempt(() => admin.removeBookmark({ ...key(), readerId }))
      if (!value) return false
      detail.value = value
      await announce(`Removed ${name}'s bookmark.`)
      return true
    },
  }
}

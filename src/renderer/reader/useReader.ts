/**
 * The Readers' page state: the token (kept in this browser), the bookmarks, and the outbox of writes. The
 * only caller of the API client.
 */
import { computed, ref } from 'vue'
import type { Bookmark, Reader } from '../../shared/sync-schemas'
import { ApiError, createApi } from './api'
import { Outbox } from './outbox'

const TOKEN_KEY = 'mb.token'

export function useReader(storage: Storage = window.localStorage) {
  const token = ref<string | null>(storage.getItem(TOKEN_KEY))
  const reader = ref<Reader | null>(null)
  const bookmarks = ref<Bookmark[]>([])
  const pending = ref(0)
  const problem = ref<string | null>(null)
  const offline = ref(false)
  /** The `now` of the last answer: the next sync asks only for what changed since (null: a full sync). */
  let since: number | null = null
  const api = createApi(() => token.value)
  const outbox = new Outbox(storage, (write) => api.send(write))
  pending.value = outbox.list().length

  /** New Chapters first (unread, most recently moved), then the rest by title. */
  const sorted = computed(() =>
    [...bookmarks.value].sort((a, b) => {
      if (a.unread !== b.unread) return a.unread ? -1 : 1
      if (a.unread) return b.series.latestChangedAt - a.series.latestChangedAt
      return a.series.title.localeCompare(b.series.title)
    }),
  )

  async function signIn(candidate: string): Promise<boolean> {
    token.value = candidate.trim()
    try {
      reader.value = await api.me()
      storage.setItem(TOKEN_KEY, token.value)
      problem.value = null
      await refresh()
      return true
    } catch (error) {
      token.value = null
      problem.value =
        error instanceof ApiError && error.status === 401 ? 'That token is not known here.' : 'Could not reach the app. Is it running?'
      return false
    }
  }

  function signOut(): void {
    storage.removeItem(TOKEN_KEY)
    token.value = null
    reader.value = null
    bookmarks.value = []
    since = null
  }

  const keyOf = (b: { site: string; seriesId: string }) => `${b.site}\u0000${b.seriesId}`

  /**
   * Syncs the list: in full the first time (or when `full`), then only what changed since the last answer —
   * removals applied first, then the changed bookmarks replace or join the ones held.
   */
  async function refresh(options: { full?: boolean } = {}): Promise<void> {
    await flush()
    try {
      if (!reader.value) reader.value = await api.me()
      const answer = await api.bookmarks(options.full || since === null ? undefined : since)
      if (answer.deleted === undefined || answer.full) {
        bookmarks.value = answer.bookmarks
      } else {
        const held = new Map(bookmarks.value.map((b) => [keyOf(b), b]))
        for (const removed of answer.deleted) held.delete(keyOf(removed))
        for (const changed of answer.bookmarks) held.set(keyOf(changed), changed)
        bookmarks.value = [...held.values()]
      }
      since = answer.now
      offline.value = false
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return signOut()
      offline.value = true
    }
  }

  async function flush(): Promise<void> {
    const result = await outbox.flush()
    pending.value = outbox.list().length
    offline.value = pending.value > 0
    if (result.unauthorized) signOut()
    if (result.rejected.length) problem.value = result.rejected.map((r) => `${r.write.label}: ${r.reason}`).join('; ')
  }

  /** Marks the Latest Chapter read, at once on the page and through the outbox to the app. */
  async function markRead(bookmark: Bookmark): Promise<void> {
    const latest = bookmark.series.latestChapter
    if (latest === null) return
    const progressAt = Date.now()
    Object.assign(bookmark, { progress: latest, progressAt, unread: false, unreadCount: 0 })
    outbox.add({
      method: 'PATCH',
      path: `/api/v1/bookmarks/${encodeURIComponent(bookmark.site)}/${encodeURIComponent(bookmark.seriesId)}`,
      body: { progress: latest, progressAt },
      label: `Mark "${bookmark.series.title || bookmark.seriesId}" read`,
    })
    pending.value = outbox.list().length
    await flush()
  }

  /**
   * Adds a bookmark by URL. A new Series is answered at once and read by the app in the background: the page
   * looks again until it has been read, so the Reader sees it fill in. A refusal (a URL off every Site) is
   * shown; a failed delivery is retried.
   */
  async function add(url: string): Promise<string | null> {
    try {
      const { bookmark, acquisition } = await api.add(url.trim())
      bookmarks.value = [...bookmarks.value.filter((b) => !(b.site === bookmark.site && b.seriesId === bookmark.seriesId)), bookmark]
      if (acquisition?.state === 'reading') void watchUntilRead(bookmark)
      return null
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.status !== 429) return error.message
      outbox.add({ method: 'POST', path: '/api/v1/bookmarks', body: { url: url.trim() }, label: `Add ${url.trim()}` })
      pending.value = outbox.list().length
      offline.value = true
      return null
    }
  }

  /**
   * Re-reads the list a few times while a new Series is being read, until its first check is in. In full: a
   * check that found no chapter changes nothing a `since` sync reports, yet it ends the wait.
   */
  async function watchUntilRead(added: Bookmark, everyMs = 1_500, tries = 20): Promise<void> {
    for (let i = 0; i < tries; i++) {
      await new Promise((done) => setTimeout(done, everyMs))
      await refresh({ full: true })
      const now = bookmarks.value.find((b) => b.site === added.site && b.seriesId === added.seriesId)
      if (!now || now.series.latestCheckedAt > 0) return
    }
  }

  /** Saves the Reader's own bookmarks (JSON or CSV) through the browser's download. */
  async function download(format: 'json' | 'csv'): Promise<void> {
    try {
      const file = await api.export(format)
      const url = URL.createObjectURL(new Blob([file.text], { type: file.type }))
      const a = document.createElement('a')
      a.href = url
      a.download = file.name
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return signOut()
      problem.value = 'Could not download your bookmarks. Is the app running?'
    }
  }

  return { token, reader, bookmarks: sorted, pending, problem, offline, signIn, signOut, refresh, flush, markRead, add, download }
}

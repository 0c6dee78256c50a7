/**
 * The Readers' page state: the token (kept in this browser), the bookmarks (kept too, so the page shows them
 * offline), the outbox of writes, and the order the page shows them in — kept while the Reader works, so a card
 * never moves under the pointer or the focus (docs/adr/0056-the-readers-page-holds-still.md). The only caller of
 * the API client.
 */
import { computed, reactive, ref } from 'vue'
import type { Bookmark, ChaptersAnswer, NextChapter, Reader, UpdateItem } from '../../shared/sync-schemas'
import { ApiError, createApi } from './api'
import type { SearchableSiteView, SearchResponse } from '../../shared/search'
import type { ReaderCheckState } from '../../shared/reader-checks'
import { inOrder, keyOf, matches, orderOf, type ReaderSort } from './order'
import { Outbox, withPendingWrites } from './outbox'

const TOKEN_KEY = 'mb.token'
/** The list as last synced: { reader, now, bookmarks }. */
const LIST_KEY = 'mb.bookmarks'
/** When the Reader last opened the page: Updates seen after it are "new". */
const SEEN_KEY = 'mb.seen'
/** How long a Mark read can be undone: its write waits in the outbox that long. */
export const UNDO_MS = 6_000

/** A Mark read that can still be undone. */
export interface MarkedRead {
  chapter: number
  until: number
  writeId: string
  previous: Pick<Bookmark, 'progress' | 'progressAt' | 'unread' | 'unreadCount' | 'nextChapter'>
}

/** What a tap on a chapter of a loaded list leaves: the next chapter and the unread count, as the list says. */
export interface AfterRead {
  next: NextChapter | null
  unread: number
}

interface CachedList {
  reader: Reader
  now: number
  bookmarks: Bookmark[]
}

/** The page's state: the refs the page reads, the API client, the outbox, and where a `since` sync starts. */
function readerState(storage: Storage) {
  const token = ref<string | null>(storage.getItem(TOKEN_KEY))
  /** When the Reader last opened the page before this time: what arrived after it is "new". */
  const seenBefore = Number(storage.getItem(SEEN_KEY) ?? 0) || 0
  storage.setItem(SEEN_KEY, String(Date.now()))
  const api = createApi(() => token.value)
  const outbox = new Outbox(storage, (write) => api.send(write))
  return {
    storage,
    token,
    reader: ref<Reader | null>(null),
    bookmarks: ref<Bookmark[]>([]),
    pending: ref(outbox.list().length),
    /** A write the app refused, or a download that failed: shown beside the list. */
    problem: ref<string | null>(null),
    /** Why a sign-in failed: shown on the sign-in form. */
    signInError: ref<string | null>(null),
    offline: ref(false),
    /** When the list shown was last synced (0: never). */
    syncedAt: ref(0),
    sort: ref<ReaderSort>('new'),
    search: ref(''),
    order: ref<string[]>([]),
    /** The pointer is over the list, or the focus in it: the order holds still. */
    interacting: ref(false),
    marked: reactive(new Map<string, MarkedRead>()),
    /** When each bookmarked Series is checked next, and why, on this device's clock (by its key; loaded with the list). */
    checks: ref(new Map<string, ReaderCheckState>()),
    /** The Reader's unread New Chapters, newest first (loaded with the Updates view). */
    updates: ref<UpdateItem[]>([]),
    seenBefore,
    api,
    outbox,
    /** The `now` of the last answer: the next sync asks only for what changed since (null: a full sync). */
    since: null as number | null,
  }
}
type ReaderState = ReturnType<typeof readerState>

/** What a card shows once read up to `chapter`: from the tapped list when given, else by what the card knows. */
function shownAfter(current: Bookmark, chapter: number, after?: AfterRead): Partial<Bookmark> {
  const latest = current.series.latestChapter
  const caughtUp = latest === null || chapter >= latest
  const unreadCount = caughtUp ? 0 : (after?.unread ?? Math.max(0, Math.ceil(latest - chapter)))
  const nextChapter = caughtUp
    ? null
    : after
      ? after.next
      : current.nextChapter && current.nextChapter.number > chapter
        ? current.nextChapter
        : null
  return { progress: chapter, unread: unreadCount > 0, unreadCount, nextChapter }
}

/**
 * A planned check moved by `shift` (this device's clock less the server's): "in about 3 h" is counted on the device's
 * clock. A pause's end stays the time the owner set ("until 12:04").
 */
function onThisClock(check: ReaderCheckState, shift: number): ReaderCheckState {
  return check.kind === 'next-check' ? { ...check, at: check.at + shift } : check
}

/** The list as held: read from the cache, ordered, replaced, forgotten at sign-out. */
function listParts(state: ReaderState) {
  const { storage, token, reader, bookmarks, order, syncedAt, interacting, sort } = state
  function readCache(): CachedList | null {
    try {
      const value = JSON.parse(storage.getItem(LIST_KEY) ?? 'null') as CachedList | null
      return value && Array.isArray(value.bookmarks) && value.reader ? value : null
    } catch {
      return null
    }
  }

  /** Orders the list again by the chosen sort — unless the Reader is working in it (`force`: they asked). */
  function resort(force = false): void {
    if (interacting.value && !force) return
    order.value = orderOf(bookmarks.value, sort.value)
  }

  function forgetList(): void {
    storage.removeItem(LIST_KEY)
    reader.value = null
    bookmarks.value = []
    order.value = []
    syncedAt.value = 0
    state.since = null
  }

  function signOut(): void {
    storage.removeItem(TOKEN_KEY)
    token.value = null
    forgetList()
  }

  function replace(key: string, change: Partial<Bookmark>): void {
    bookmarks.value = bookmarks.value.map((b) => (keyOf(b) === key ? { ...b, ...change } : b))
  }

  return { readCache, resort, forgetList, signOut, replace }
}
type ListParts = ReturnType<typeof listParts>

/** The list synced with the app: the outbox sent first, then what changed since the last answer. */
function syncParts(state: ReaderState, list: ListParts) {
  const { api, outbox, reader, bookmarks, marked, syncedAt, offline, storage, order, pending, problem, updates } = state
  const { resort, signOut } = list
  /**
   * Syncs the list: in full the first time (or when `full`), then only what changed since the last answer —
   * removals applied first, then the changed bookmarks replace or join the ones held. A Mark read still in its
   * Undo window keeps what the page shows for it.
   */
  async function refresh(options: { full?: boolean } = {}): Promise<void> {
    await flush()
    try {
      if (!reader.value || options.full) reader.value = await api.me()
      const asked = options.full || state.since === null ? undefined : state.since
      const answer = await api.bookmarks(asked)
      let next: Bookmark[]
      if (asked === undefined || answer.full) next = answer.bookmarks
      else {
        const held = new Map(bookmarks.value.map((b) => [keyOf(b), b]))
        for (const removed of answer.deleted ?? []) held.delete(keyOf(removed))
        for (const changed of answer.bookmarks) held.set(keyOf(changed), changed)
        next = [...held.values()]
      }
      bookmarks.value = withPendingWrites(next, outbox.list()).map((b) => {
        const mark = marked.get(keyOf(b))
        return mark ? { ...b, ...shownAfter(bookmarks.value.find((h) => keyOf(h) === keyOf(b)) ?? b, mark.chapter) } : b
      })
      state.since = answer.now
      syncedAt.value = answer.now
      offline.value = false
      storage.setItem(LIST_KEY, JSON.stringify({ reader: reader.value, now: answer.now, bookmarks: next }))
      if (order.value.length === 0) resort(true)
      else resort()
      await loadChecks()
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return signOut()
      // The app's library is missing (its database was deleted; the owner restores a backup): the token is kept.
      if (error instanceof ApiError && error.code === 'library-missing') problem.value = error.message
      offline.value = true
    }
  }

  async function flush(): Promise<void> {
    const result = await outbox.flush()
    pending.value = outbox.list().length
    offline.value = pending.value > marked.size
    if (result.unauthorized) signOut()
    if (result.rejected.length) problem.value = result.rejected.map((r) => `${r.write.label}: ${r.reason}`).join('; ')
  }

  /**
   * When each Series is checked next and why (`GET /api/v1/checks`), its times moved onto this device's clock. Kept as
   * they were when it cannot be read (an older app answers 404): the card then says only when it was checked.
   */
  async function loadChecks(): Promise<void> {
    try {
      // A page at a time (docs/adr/0234-…): a large library is many small answers, shown once all are in.
      const checks: typeof state.checks.value = new Map()
      let after: string | undefined
      do {
        const answer = await api.checks(after)
        const shift = Date.now() - answer.now
        for (const c of answer.checks) checks.set(keyOf(c), onThisClock(c.check, shift))
        after = answer.next
      } while (after !== undefined)
      state.checks.value = checks
    } catch {
      // The list itself synced; the reasons wait for the next sync.
    }
  }

  /** The Reader's Updates, again. Kept as they were when the app cannot be reached. */
  async function loadUpdates(): Promise<void> {
    try {
      updates.value = (await api.updates()).updates
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) signOut()
    }
  }

  /** A page of a Series' stored chapters, for the card's list. */
  function chapters(bookmark: Bookmark, before?: number): Promise<ChaptersAnswer> {
    return api.chapters(bookmark, before)
  }

  return { refresh, flush, loadUpdates, chapters }
}
type SyncParts = ReturnType<typeof syncParts>

/** Signing in, by a typed token or a sign-in link's one-time code. */
function sessionParts(state: ReaderState, list: ListParts, sync: SyncParts) {
  const { api, token, reader, storage, signInError, problem } = state
  const { forgetList, resort } = list
  const { refresh } = sync
  async function signIn(candidate: string): Promise<boolean> {
    const previous = token.value
    token.value = candidate.trim()
    try {
      const me = await api.me()
      if (previous !== token.value) forgetList()
      reader.value = me
      storage.setItem(TOKEN_KEY, token.value)
      signInError.value = null
      problem.value = null
      await refresh({ full: true })
      resort(true)
      return true
    } catch (error) {
      token.value = previous === candidate.trim() ? null : previous
      signInError.value =
        error instanceof ApiError && error.status === 401
          ? 'That token is not known here. Check that you pasted all of it, or ask the owner for a new one.'
          : error instanceof ApiError && error.code === 'library-missing'
            ? error.message.charAt(0).toUpperCase() + error.message.slice(1)
            : 'Could not reach the app. Is it running, and is this the address the owner gave you?'
      return false
    }
  }

  /**
   * Signs in with a sign-in link's one-time code (the QR code): exchanged once for the token, which is kept as a
   * typed one is. A used or expired code says so and leaves whoever is signed in signed in.
   */
  async function signInWithCode(code: string): Promise<boolean> {
    let exchanged: string
    try {
      exchanged = (await api.exchangeCode(code)).token
    } catch (error) {
      signInError.value = !(error instanceof ApiError)
        ? 'Could not reach the app. Is it running, and is this the address the owner gave you?'
        : error.status === 422
          ? 'This sign-in link is not whole: scan the QR code again, or type your token.'
          : error.message.charAt(0).toUpperCase() + error.message.slice(1)
      if (token.value && reader.value) problem.value = signInError.value
      return false
    }
    return signIn(exchanged)
  }

  return { signIn, signInWithCode }
}

/** Mark read, at once on the page and undoable while its write waits. */
function markParts(state: ReaderState, list: ListParts, sync: SyncParts) {
  const { bookmarks, marked, outbox, pending, updates } = state
  const { replace } = list
  const { refresh, flush, loadUpdates } = sync
  /**
   * Marks a bookmark read up to `chapter` (the Latest Chapter unless given), at once on the page — `after`, when
   * the Reader tapped a chapter of the loaded list, says what is next. The write waits UNDO_MS in the outbox, so
   * Undo takes it back before the app ever sees it; then it is sent, and the list synced.
   */
  function markRead(bookmark: Bookmark, chapter = bookmark.series.latestChapter, after?: AfterRead): MarkedRead | null {
    if (chapter === null || !Number.isFinite(chapter) || chapter < 0) return null
    const key = keyOf(bookmark)
    const current = bookmarks.value.find((b) => keyOf(b) === key)
    if (!current) return null
    const earlier = marked.get(key)
    if (earlier) outbox.remove(earlier.writeId)
    const now = Date.now()
    const previous = earlier?.previous ?? {
      progress: current.progress,
      progressAt: current.progressAt,
      unread: current.unread,
      unreadCount: current.unreadCount,
      nextChapter: current.nextChapter,
    }
    replace(key, { ...shownAfter(current, chapter, after), progressAt: now })
    const write = outbox.add({
      method: 'PATCH',
      path: `/api/v1/bookmarks/${encodeURIComponent(current.site)}/${encodeURIComponent(current.seriesId)}`,
      body: { progress: chapter, progressAt: now },
      label: `Read "${current.series.title || current.seriesId}" up to chapter ${chapter}`,
      holdUntil: now + UNDO_MS,
    })
    const mark: MarkedRead = { chapter, until: now + UNDO_MS, writeId: write.id, previous }
    marked.set(key, mark)
    pending.value = outbox.list().length
    setTimeout(() => {
      // (The map is reactive: compare by the write, not by the object it hands back.)
      if (marked.get(key)?.writeId !== mark.writeId) return
      marked.delete(key)
      // Sent, then synced: the next chapter and the count as the app's stored list says.
      void refresh().then(() => (updates.value.length ? loadUpdates() : undefined))
    }, UNDO_MS + 50)
    return mark
  }

  /** Marks every bookmark with something unread read up to its Latest Chapter; returns how many. */
  function markAllRead(): number {
    let n = 0
    for (const b of bookmarks.value) if (b.unread && markRead(b)) n++
    updates.value = []
    return n
  }

  /** Takes a Mark read back while its write still waits: nothing reaches the app. */
  function undo(bookmark: Bookmark): boolean {
    const key = keyOf(bookmark)
    const mark = marked.get(key)
    if (!mark) return false
    marked.delete(key)
    if (!outbox.remove(mark.writeId)) {
      // Already on its way (the window closed as the Reader pressed): put the earlier Progress back by a newer write.
      outbox.add({
        method: 'PATCH',
        path: `/api/v1/bookmarks/${encodeURIComponent(bookmark.site)}/${encodeURIComponent(bookmark.seriesId)}`,
        body: { progress: mark.previous.progress ?? 0, progressAt: Date.now() },
        label: `Undo reading "${bookmark.series.title || bookmark.seriesId}"`,
      })
      void flush()
    }
    replace(key, mark.previous)
    pending.value = outbox.list().length
    return true
  }

  return { markRead, markAllRead, undo }
}

/** Adding a bookmark by URL, searching a Site, and the Reader's own export. */
function libraryParts(state: ReaderState, list: ListParts, sync: SyncParts) {
  const { api, bookmarks, outbox, pending, offline, problem } = state
  const { signOut } = list
  const { refresh } = sync
  /**
   * Adds a bookmark by URL. A new Series is answered at once and read by the app in the background: the page
   * looks again until it has been read, so the Reader sees it fill in. A refusal (a URL off every Site) is
   * shown; a failed delivery is retried.
   */
  async function add(url: string): Promise<string | null> {
    try {
      const { bookmark, acquisition } = await api.add(url.trim())
      bookmarks.value = [...bookmarks.value.filter((b) => keyOf(b) !== keyOf(bookmark)), bookmark]
      // Read now, or waiting for its Lane's turn: either way the card fills in when the check is in.
      if (acquisition) void watchUntilRead(bookmark)
      return null
    } catch (error) {
      // The app's words for an unknown site name its host pin: a Reader is told what it means for them.
      if (error instanceof ApiError && error.code === 'off-pin')
        return 'The app does not follow this site, so it cannot bookmark this address. Ask whoever runs the app to add the site.'
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
  async function watchUntilRead(added: Bookmark, everyMs = 1_500, tries = 40): Promise<void> {
    for (let i = 0; i < tries; i++) {
      await new Promise((done) => setTimeout(done, everyMs))
      await refresh({ full: true })
      const now = bookmarks.value.find((b) => keyOf(b) === keyOf(added))
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

  /** The Sites a search box offers (each with whether it can search); an empty list when they cannot be read. */
  async function searchableSites(): Promise<SearchableSiteView[]> {
    return (await api.sites()).sites
  }

  /** A title search: the results, or the app's words for why not (a pause, the per-minute bound, a Site that cannot). */
  async function searchSite(site: string, query: string): Promise<SearchResponse | string> {
    try {
      return await api.searchSite(site, query.trim())
    } catch (error) {
      if (error instanceof ApiError) return error.message
      return 'The app cannot be reached; search again when it can.'
    }
  }

  return { add, download, searchableSites, searchSite }
}

export function useReader(storage: Storage = window.localStorage) {
  const state = readerState(storage)
  const list = listParts(state)
  // Signed in before: show the list as last synced at once, whatever the network does.
  const cached = list.readCache()
  if (state.token.value && cached) {
    state.reader.value = cached.reader
    // What the Reader did since, still waiting in the outbox, is drawn over it.
    state.bookmarks.value = withPendingWrites(cached.bookmarks, state.outbox.list())
    state.syncedAt.value = cached.now
    state.order.value = orderOf(cached.bookmarks, state.sort.value)
  }
  const sync = syncParts(state, list)
  const { token, reader, bookmarks, pending, problem, signInError, offline, syncedAt, sort, search, order, interacting, marked, updates } =
    state
  /** What the page lists: the kept order, narrowed by the search. */
  const shown = computed(() => inOrder(bookmarks.value, order.value).filter((b) => matches(b, search.value)))
  return {
    ...libraryParts(state, list, sync),
    ...sessionParts(state, list, sync),
    ...markParts(state, list, sync),
    token,
    reader,
    bookmarks: shown,
    all: bookmarks,
    pending,
    problem,
    signInError,
    offline,
    syncedAt,
    sort,
    search,
    interacting,
    marked,
    updates,
    checks: state.checks,
    seenBefore: state.seenBefore,
    resort: list.resort,
    signOut: list.signOut,
    refresh: sync.refresh,
    flush: sync.flush,
    loadUpdates: sync.loadUpdates,
    chapters: sync.chapters,
  }
}

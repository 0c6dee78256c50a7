/** The Readers' page's client of the sync API (docs/design.md#the-sync-endpoint). Only `useReader` calls it. */
import type { Bookmark, BookmarksAnswer, ChaptersAnswer, Device, Reader, UpdatesAnswer } from '../../shared/sync-schemas'
import type { PendingWrite, SendResult } from './outbox'
import type { NotificationsBody, NotificationsView, TestResponse } from '../../shared/notify-schemas'
import type { SearchableSiteView, SearchResponse } from '../../shared/search'
import type { ChecksResponse } from '../../shared/reader-checks'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export function createApi(token: () => string | null) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${token() ?? ''}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    if (response.status === 204) return undefined as T
    const json = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null
    if (!response.ok) throw new ApiError(response.status, json?.error?.code ?? 'error', json?.error?.message ?? response.statusText)
    return json as T
  }

  return {
    me: () => call<Reader>('GET', '/api/v1/me'),
    /** The Reader's devices, each with a token of its own (docs/adr/0126-devices-not-tokens.md). */
    devices: () => call<{ devices: Device[] }>('GET', '/api/v1/devices'),
    endDevice: (id: number) => call<void>('DELETE', `/api/v1/devices/${id}`),
    /** A sign-in link's one-time code exchanged for the Reader's token (docs/adr/0087-sign-in-links-that-end.md). */
    exchangeCode: (code: string) => call<{ token: string }>('POST', '/api/v1/sign-in', { code }),
    /** Every bookmark, or with `since` (the `now` of the previous answer) what changed and was removed since. */
    bookmarks: (since?: number) =>
      call<BookmarksAnswer>('GET', since === undefined ? '/api/v1/bookmarks' : `/api/v1/bookmarks?since=${since}`),
    /** A Series' stored chapters, newest first, a page at a time (`before`: the previous page's `next`). */
    chapters: (b: { site: string; seriesId: string }, before?: number) =>
      call<ChaptersAnswer>(
        'GET',
        `/api/v1/bookmarks/${encodeURIComponent(b.site)}/${encodeURIComponent(b.seriesId)}/chapters${before === undefined ? '' : `?before=${before}`}`,
      ),
    /** When the app checks each bookmarked Series next, and why (docs/adr/0218-…), a page at a time (`after`: the previous page's `next`). */
    checks: (after?: string) =>
      call<ChecksResponse>('GET', after === undefined ? '/api/v1/checks' : `/api/v1/checks?after=${encodeURIComponent(after)}`),
    /** The Reader's unread New Chapters, newest first. */
    updates: () => call<UpdatesAnswer>('GET', '/api/v1/updates'),
    /** The Sites, each with whether it can be searched by title. */
    sites: () => call<{ sites: SearchableSiteView[] }>('GET', '/api/v1/sites'),
    /** A title search of one Site: a request to the Site, on its Lane (docs/adr/0145-…). */
    searchSite: (site: string, query: string) =>
      call<SearchResponse>('GET', `/api/v1/sites/${encodeURIComponent(site)}/search?q=${encodeURIComponent(query)}`),
    add: (url: string) =>
      call<{ bookmark: Bookmark; acquisition?: { state: 'reading' | 'waiting'; message: string } }>('POST', '/api/v1/bookmarks', { url }),
    /** The Reader's own bookmarks as a file: its name (from the server) and its text. */
    async export(format: 'json' | 'csv'): Promise<{ name: string; type: string; text: string }> {
      const response = await fetch(`/api/v1/export?format=${format}`, { headers: { authorization: `Bearer ${token() ?? ''}` } })
      if (!response.ok) {
        const json = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null
        throw new ApiError(response.status, json?.error?.code ?? 'error', json?.error?.message ?? response.statusText)
      }
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `manga-bookmarks.${format}`
      return { name, type: response.headers.get('content-type') ?? 'application/octet-stream', text: await response.text() }
    },
    notifications: () => call<NotificationsView>('GET', '/api/v1/me/notifications'),
    putNotifications: (body: NotificationsBody) => call<NotificationsView>('PUT', '/api/v1/me/notifications', body),
    testNotifications: () => call<TestResponse>('POST', '/api/v1/me/notifications/test'),
    /** Sends one queued write; says whether it is done, should be retried, or was refused for good. */
    async send(write: PendingWrite): Promise<SendResult> {
      try {
        await call(write.method, write.path, write.body)
        return 'done'
      } catch (error) {
        if (!(error instanceof ApiError)) return 'retry'
        if (error.status === 401) return 'unauthorized'
        if (error.status === 429 || error.status >= 500) return 'retry'
        return { rejected: error.message }
      }
    },
  }
}

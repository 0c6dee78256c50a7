/**
 * Every route of the sync endpoint (docs/design.md#the-sync-endpoint), in one table. Handlers are thin: inputs arrive validated, one
 * use-case runs, plain data goes back.
 */
import type { z, ZodType } from 'zod'
import type { Clock } from '../clock'
import { AppError } from '../../shared/errors'
import { getBookmark, readerBookmarks, readerRemovals, removeBookmark, updateBookmark, type BookmarkChange } from '../store/bookmarks'
import type { GroupCommit } from '../store/group-commit'
import type { Db } from '../store/database'
import type { Notifier } from '../notify/notifier'
import { RETENTION } from '../store/maintenance'
import type { ReaderRow } from '../store/schema'
import { readSettings } from '../store/settings'
import { recordSighting } from '../store/sightings'
import { bookmarkByUrl, type AcquireDeps } from '../use-cases/acquire'
import { exportReader, exportReaderCsv } from '../use-cases/library-export'
import { ExportDocument } from '../../shared/export-format'
import { chapterList, readerUpdates } from '../store/chapters'
import type { ReaderBookmark } from '../store/bookmarks'
import type { BigReads } from './big-reads'
import { presentAll, presentBookmarks, presentChapter, presentReader, presentSighting, presentUpdate } from './present'
import * as S from '../../shared/sync-schemas'
import type { SignInCodes } from '../admin/sign-in-codes'

export interface SyncDeps {
  db: Db
  clock: Clock
  acquire: AcquireDeps
  /** Progress and status writes, committed in groups (store/group-commit.ts). */
  writes?: GroupCommit<BookmarkWrite, unknown>
  /** New Chapters to the Readers' devices (docs/adr/0074-…): the notifier and the install's VAPID public key. */
  notify?: { notifier: Notifier; vapidPublicKey(): string }
  /** One-time sign-in codes the owner's window made for Readers' tokens (docs/adr/0087-sign-in-links-that-end.md). */
  readerCodes?: SignInCodes
  /** Full syncs read off the main thread (docs/adr/0093-…); absent: read here. */
  bigReads?: Pick<BigReads, 'fullSync'>
}

/** A status or Progress write. Its time is read when the write is applied, inside its transaction. */
export interface BookmarkWrite {
  readerId: number
  key: { site: string; seriesId: string }
  change: BookmarkChange
}

export interface RouteContext<P, Q, B> {
  reader: ReaderRow
  params: P
  query: Q
  body: B
  deps: SyncDeps
}

export interface Answer {
  status?: number
  body?: unknown
  /** Headers besides the usual ones (a download's type and file name). */
  headers?: Record<string, string>
}

export interface SyncRoute<P = unknown, Q = unknown, B = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Fastify syntax (`:param`). */
  path: string
  summary: string
  auth: boolean
  /** A tighter limit than the endpoint's, per address (the sign-in route). */
  rateLimit?: { max: number; windowMs: number }
  params?: ZodType<P>
  query?: ZodType<Q>
  body?: ZodType<B>
  /** The usual answer, for the OpenAPI document. */
  response: { status: number; schema?: ZodType; description: string }
  errors: number[]
  handle(ctx: RouteContext<P, Q, B>): Promise<Answer>
}

/** A route literal checked against its own parameter, query and body types, then listed with the others. */
export const route = <P, Q, B>(r: SyncRoute<P, Q, B>) => r as unknown as SyncRoute

async function oneBookmark(deps: SyncDeps, reader: ReaderRow, key: { site: string; seriesId: string }) {
  const [bookmark] = await readerBookmarks(deps.db, reader.id, { key })
  if (!bookmark) throw new AppError('not-found', `no bookmark ${key.site}/${key.seriesId}`)
  return (await presented(deps, reader, [bookmark]))[0]!
}

/** These bookmarks as the API shows them (present.ts). */
const presented = (deps: SyncDeps, reader: ReaderRow, bookmarks: readonly ReaderBookmark[]) =>
  presentBookmarks(deps.db, reader.id, bookmarks)

/** Every bookmark of the Reader (`full`: marked so, for a `since` answered in full), read off the main thread when it can be. */
async function fullList(deps: SyncDeps, reader: ReaderRow, now: number, full: boolean): Promise<Answer> {
  if (deps.bigReads) {
    const body = await deps.bigReads.fullSync(reader.id, now, full)
    return { body, headers: { 'content-type': 'application/json; charset=utf-8' } }
  }
  return { body: { bookmarks: await presentAll(deps.db, reader.id), now, ...(full ? { deleted: [], full: true } : {}) } }
}

/** A page of a stored list, and where the next one starts (absent on the last page). */
function paged<T>(items: T[], limit: number, next: (last: T) => number): { items: T[]; next?: number } {
  return items.length > limit ? { items: items.slice(0, limit), next: next(items[limit - 1]!) } : { items }
}

export const SYNC_ROUTES: SyncRoute[] = [
  route({
    method: 'GET',
    path: '/api/v1/health',
    summary: 'Whether the endpoint is up. No token needed.',
    auth: false,
    response: { status: 200, schema: S.HealthResponse, description: 'up' },
    errors: [],
    handle: async () => ({ body: { ok: true } }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/me',
    summary: 'The Reader the token belongs to.',
    auth: true,
    response: { status: 200, schema: S.ReaderView, description: 'the Reader' },
    errors: [401, 429],
    handle: async ({ reader }) => ({ body: presentReader(reader) }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/bookmarks',
    summary:
      "The Reader's bookmarks with their Series and unread flags. With `since` (the `now` of the previous answer), only what changed at or after it, and in `deleted` what was removed since; a `since` older than the app remembers removals (90 days), or later than the server's time (its clock was set back since), answers every bookmark with `full: true`.",
    auth: true,
    query: S.BookmarksQuery,
    response: { status: 200, schema: S.BookmarksResponse, description: 'the bookmarks' },
    errors: [401, 422, 429],
    handle: async ({ reader, query, deps }: RouteContext<unknown, z.infer<typeof S.BookmarksQuery>, unknown>) => {
      const now = deps.clock.now()
      const since = query.since
      if (since === undefined) return fullList(deps, reader, now, false)
      // A `since` later than our now is a `now` we gave while our clock ran fast: changes stamped since the clock
      // was corrected are earlier than it, so only the whole list is a true answer (docs/adr/0092-…).
      if (since < now - RETENTION.removalsMs || since > now) return fullList(deps, reader, now, true)
      // Removals are read first, and a client applies them first: a bookmark removed or added again meanwhile
      // ends as it is now (and anything after `now` comes with the next answer).
      const removed = await readerRemovals(deps.db, reader.id, since)
      const changed = await readerBookmarks(deps.db, reader.id, { since })
      return {
        body: {
          bookmarks: await presented(deps, reader, changed),
          now,
          deleted: removed.map((r) => ({ site: r.site, seriesId: r.series_id, at: r.removed_at })),
        },
      }
    },
  }),
  route({
    method: 'POST',
    path: '/api/v1/bookmarks',
    summary:
      "Bookmark a Series by URL. The Site comes from the host pin. A Series the app did not know is answered at once with 202 and read in the background, in its Site's pace; `acquisition` says whether it is being read or waits for its Lane.",
    auth: true,
    body: S.AddBookmarkBody,
    response: {
      status: 201,
      schema: S.AddBookmarkResponse,
      description: 'bookmarked (202 while a new Series is read or waits for its Lane; 200 when it was bookmarked already)',
    },
    errors: [400, 401, 413, 415, 422, 429],
    handle: async ({ reader, body, deps }: RouteContext<unknown, unknown, z.infer<typeof S.AddBookmarkBody>>) => {
      const result = await bookmarkByUrl(deps.acquire, {
        readerId: reader.id,
        url: body.url,
        maxBookmarks: (await readSettings(deps.db)).bookmarksPerReader,
        ...(body.status ? { status: body.status as 'reading' } : {}),
      })
      const status = result.acquisition ? 202 : result.created ? 201 : 200
      return {
        status,
        body: {
          bookmark: (await presented(deps, reader, [result.bookmark]))[0]!,
          ...(result.acquisition ? { acquisition: result.acquisition } : {}),
        },
      }
    },
  }),
  route({
    method: 'PATCH',
    path: '/api/v1/bookmarks/:site/:seriesId',
    summary:
      "Change a status or Progress. Progress keeps the write with the latest progressAt, so replays and late writes change nothing. A progressAt later than the server's time is taken as the server's time (a device ahead of a slow server is not refused).",
    auth: true,
    params: S.BookmarkParams,
    body: S.UpdateBookmarkBody,
    response: { status: 200, schema: S.BookmarkResponse, description: 'the bookmark after the write' },
    errors: [400, 401, 404, 413, 415, 422, 429],
    handle: async ({
      reader,
      params,
      body,
      deps,
    }: RouteContext<z.infer<typeof S.BookmarkParams>, unknown, z.infer<typeof S.UpdateBookmarkBody>>) => {
      const key = { site: params.site, seriesId: params.seriesId }
      const write: BookmarkWrite = { readerId: reader.id, key, change: body as BookmarkChange }
      if (deps.writes) await deps.writes.run(write)
      else await updateBookmark(deps.db, write.readerId, write.key, write.change, deps.clock.now())
      return { body: { bookmark: await oneBookmark(deps, reader, key) } }
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/bookmarks/:site/:seriesId',
    summary: 'Remove a bookmark.',
    auth: true,
    params: S.RemoveBookmarkParams,
    response: { status: 204, description: 'removed' },
    errors: [401, 404, 422, 429],
    handle: async ({ reader, params, deps }: RouteContext<z.infer<typeof S.RemoveBookmarkParams>, unknown, unknown>) => {
      await removeBookmark(deps.db, reader.id, { site: params.site, seriesId: params.seriesId }, deps.clock.now())
      return { status: 204 }
    },
  }),
  route({
    method: 'GET',
    path: '/api/v1/bookmarks/:site/:seriesId/chapters',
    summary:
      "The Series' stored chapters, newest first, a page at a time (`before`: the `next` of the previous page). Each says whether the Reader has read it and whether the Site still lists it. The app keeps the newest 100 and every chapter above the lowest Progress of the Series' Readers, at most 1,000.",
    auth: true,
    params: S.BookmarkParams,
    query: S.ChaptersQuery,
    response: { status: 200, schema: S.ChaptersResponse, description: 'the chapters' },
    errors: [401, 404, 422, 429],
    handle: async ({
      reader,
      params,
      query,
      deps,
    }: RouteContext<z.infer<typeof S.BookmarkParams>, z.infer<typeof S.ChaptersQuery>, unknown>) => {
      const key = { site: params.site, seriesId: params.seriesId }
      const bookmark = await getBookmark(deps.db, reader.id, key)
      if (!bookmark) throw new AppError('not-found', `no bookmark ${key.site}/${key.seriesId}`)
      const limit = query.limit ?? 100
      const rows = await chapterList(deps.db, key, { limit: limit + 1, ...(query.before !== undefined ? { before: query.before } : {}) })
      const page = paged(rows, limit, (last) => last.number)
      return {
        body: {
          chapters: page.items.map((c) => presentChapter(c, bookmark.progress)),
          ...(page.next !== undefined ? { next: page.next } : {}),
        },
      }
    },
  }),
  route({
    method: 'GET',
    path: '/api/v1/updates',
    summary:
      "The Reader's unread New Chapters, newest first: chapters that arrived after the bookmark was made, above the Reader's Progress, still on the Site. A page at a time (`before`: the `next` of the previous page).",
    auth: true,
    query: S.UpdatesQuery,
    response: { status: 200, schema: S.UpdatesResponse, description: 'the New Chapters' },
    errors: [401, 422, 429],
    handle: async ({ reader, query, deps }: RouteContext<unknown, z.infer<typeof S.UpdatesQuery>, unknown>) => {
      const limit = query.limit ?? 100
      const rows = await readerUpdates(deps.db, reader.id, {
        limit: limit + 1,
        ...(query.before !== undefined ? { before: query.before } : {}),
      })
      const page = paged(rows, limit, (last) => last.first_seen_at)
      return { body: { updates: page.items.map(presentUpdate), ...(page.next !== undefined ? { next: page.next } : {}) } }
    },
  }),
  route({
    method: 'POST',
    path: '/api/v1/sightings',
    summary:
      'Report the latest chapter seen on the Site. It may raise the Latest Chapter, by at most 10 chapters, until the next check judges it; a new report replaces your outstanding one of the Series.',
    auth: true,
    body: S.SightingBody,
    response: { status: 202, schema: S.SightingResponse, description: 'recorded; the next check judges it' },
    errors: [400, 401, 404, 413, 415, 422, 429],
    handle: async ({ reader, body, deps }: RouteContext<unknown, unknown, z.infer<typeof S.SightingBody>>) => {
      const now = deps.clock.now()
      let key: { site: string; seriesId: string }
      if (body.url !== undefined) {
        const match = deps.acquire.registry.resolve(body.url)
        if (!match) throw new AppError('off-pin', "not a Series URL on any known Site's host pin")
        key = { site: match.site.key, seriesId: match.seriesId }
      } else {
        key = { site: body.site!, seriesId: body.seriesId! }
      }
      if (!(await getBookmark(deps.db, reader.id, key))) throw new AppError('not-found', `no bookmark ${key.site}/${key.seriesId}`)
      // A time ahead of ours (a device ahead of a slow server) is taken as now, as Progress is (docs/adr/0092-…).
      const sightedAt = Math.min(body.at ?? now, now)
      const report = await recordSighting(deps.db, { ...key, readerId: reader.id, chapter: body.chapter, sightedAt, now })
      return { status: 202, body: presentSighting(report.sighting, report.raised) }
    },
  }),
  route({
    method: 'GET',
    path: '/api/v1/export',
    summary:
      "Download the Reader's own bookmarks: an export document (docs/export-format.md) with the Series and Sites they point at, or with format=csv a CSV (site, seriesId, title, url, status, progress, progressAt, latestChapter) that an import reads back.",
    auth: true,
    query: S.ExportQuery,
    response: { status: 200, schema: ExportDocument, description: 'the download (text/csv with format=csv)' },
    errors: [401, 422, 429],
    handle: async ({ reader, query, deps }: RouteContext<unknown, z.infer<typeof S.ExportQuery>, unknown>): Promise<Answer> => {
      const day = new Date(deps.clock.now()).toISOString().slice(0, 10)
      const name = `manga-bookmarks-${reader.name.replace(/[^A-Za-z0-9._-]+/g, '_')}-${day}`
      if (query.format === 'csv') {
        return {
          body: await exportReaderCsv(deps, reader.id),
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}.csv"` },
        }
      }
      return {
        body: await exportReader({ db: deps.db, registry: deps.acquire.registry, now: deps.clock.now() }, reader.id),
        headers: { 'content-disposition': `attachment; filename="${name}.json"` },
      }
    },
  }),
]

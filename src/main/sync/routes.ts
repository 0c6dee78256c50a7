/**
 * The sync endpoint's routes for a Reader (docs/design.md#the-sync-endpoint) and the ones open to anyone
 * (health), a Fastify plugin per group. Handlers are thin: inputs arrive validated and typed from their schemas,
 * one use-case runs, plain data goes back through the response schemas (docs/adr/0100-…).
 */
import { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Clock } from '../clock'
import { AppError } from '../../shared/errors'
import {
  getBookmark,
  isUnread,
  readerBookmarks,
  readerRemovals,
  removeBookmark,
  updateBookmark,
  type BookmarkChange,
} from '../store/bookmarks'
import { getSeries } from '../store/series'
import type { GroupCommit } from '../store/group-commit'
import type { Db } from '../store/database'
import type { Notifier } from '../notify/notifier'
import { RETENTION } from '../store/maintenance'
import type { BookmarkRow, ReaderRow } from '../store/schema'
import { readSettings } from '../store/settings'
import { recordSighting } from '../store/sightings'
import { bookmarkByUrl, type AcquireDeps } from '../use-cases/acquire'
import { seriesOfUrl } from '../use-cases/series-by-url'
import { exportReader, exportReaderCsv } from '../use-cases/library-export'
import { ExportDocument } from '../../shared/export-format'
import { chapterList, readerUpdates } from '../store/chapters'
import type { ReaderBookmark } from '../store/bookmarks'
import type { BigReads } from '../reads/big-reads'
import type { FeedStatus } from '../lanes/feed'
import { presentAll, presentBookmarks, presentChapter, presentReader, presentSighting, presentUpdate } from '../reads/present'
import * as S from '../../shared/sync-schemas'
import type { SignInCodes } from '../access/sign-in-codes'
import { authenticated } from './auth'
import { answer, nothing, REFUSAL, WITH_A_BODY } from './openapi'
import { z } from 'zod'

export interface SyncDeps {
  db: Db
  clock: Clock
  acquire: AcquireDeps
  /** Progress and status writes, committed in groups (store/group-commit.ts). */
  writes?: GroupCommit<BookmarkWrite, BookmarkRow>
  /** New Chapters to the Readers' devices (docs/adr/0074-…): the notifier and the install's VAPID public key. */
  notify?: { notifier: Notifier; vapidPublicKey(): string }
  /** One-time sign-in codes the owner's window made for Readers' tokens (docs/adr/0087-sign-in-links-that-end.md). */
  readerCodes?: SignInCodes
  /** Full syncs read off the main thread (docs/adr/0093-…); absent: read here. */
  bigReads?: Pick<BigReads, 'fullSync' | 'exportReader'>
  /** Each adaptive Site's updates page as its Lane last read it, for `GET /api/v1/checks` (absent: none read). */
  feeds?: ReadonlyMap<string, FeedStatus>
}

/** A status or Progress write. Its time is read when the write is applied, inside its transaction. */
export interface BookmarkWrite {
  readerId: number
  key: { site: string; seriesId: string }
  change: BookmarkChange
}

/** The bookmark a write answered with, as the API shows it: its Series read by key, the bookmark not read again. */
async function presentedRow(deps: SyncDeps, reader: ReaderRow, row: BookmarkRow) {
  const series = await getSeries(deps.db, { site: row.site, seriesId: row.series_id })
  if (!series) throw new AppError('not-found', `no bookmark ${row.site}/${row.series_id}`)
  return (await presented(deps, reader, [{ ...row, series, unread: isUnread(series.latest_chapter, row.progress) }]))[0]!
}

/** These bookmarks as the API shows them (present.ts). */
const presented = (deps: SyncDeps, reader: ReaderRow, bookmarks: readonly ReaderBookmark[]) =>
  presentBookmarks(deps.db, reader.id, bookmarks)

/**
 * Every bookmark of the Reader (`full`: marked so, for a `since` answered in full), read off the main thread when
 * it can be: then as the JSON text the worker made with the same presenter (it goes out as it is).
 */
async function fullList(deps: SyncDeps, reader: ReaderRow, now: number, full: boolean): Promise<Readable | S.BookmarksAnswer> {
  if (deps.bigReads) return deps.bigReads.fullSync(reader.id, now, full)
  return { bookmarks: await presentAll(deps.db, reader.id), now, ...(full ? { deleted: [], full: true } : {}) }
}

/** JSON text made elsewhere (the big-read worker's stream) is sent as it comes: a reply its route's schema does not serialise. */
function jsonText(reply: FastifyReply, json: Readable): FastifyReply {
  return streamed(reply.type('application/json; charset=utf-8'), json)
}

/** A streamed body, sent chunked as it comes (its type set by the caller). */
function streamed(reply: FastifyReply, body: Readable): FastifyReply {
  return reply.send(body)
}

/** A page of a stored list, and where the next one starts (absent on the last page). */
function paged<T>(items: T[], limit: number, next: (last: T) => number): { items: T[]; next?: number } {
  return items.length > limit ? { items: items.slice(0, limit), next: next(items[limit - 1]!) } : { items }
}

type RoutesOf = FastifyPluginAsyncZod<{ deps: SyncDeps }>

/** The store's state as `/health` says it: ok, or why writes (or reads) are refused. */
export type StoreHealthView = { store: 'ok' } | { store: 'read-only' | 'damaged'; problem: string }

/** The routes open to anyone. `/health` says the store's state, and answers 503 unless it is ok. */
export const openRoutes: FastifyPluginAsyncZod<{ health?: () => StoreHealthView }> = async (app, { health }) => {
  app.get(
    '/api/v1/health',
    {
      schema: {
        summary: 'Whether the endpoint is up, and its store: ok, read-only or damaged (then 503, with the cause). No token needed.',
        security: [],
        response: {
          200: answer(S.HealthResponse, 'up, the store ok'),
          503: answer(S.HealthResponse, 'up, the store read-only or damaged'),
        },
      },
    },
    async (_request, reply) => {
      const view = health?.() ?? { store: 'ok' as const }
      // Healthy, the answer is the contract's `{ ok: true }` as it always was (SPEC); otherwise 503 and why.
      if (view.store === 'ok') return { ok: true }
      return reply.code(503).send({ ok: false, ...view })
    },
  )
}

/** The Reader, and their own bookmarks as a download. */
export const readerRoutes: RoutesOf = async (app, { deps }) => {
  app.get(
    '/api/v1/me',
    {
      schema: {
        summary: 'The Reader the token belongs to.',
        response: { 200: answer(S.ReaderView, 'the Reader'), 401: REFUSAL[401], 429: REFUSAL[429] },
      },
    },
    async (request) => presentReader(authenticated(request)),
  )
  app.get(
    '/api/v1/export',
    {
      schema: {
        summary:
          "Download the Reader's own bookmarks: an export document (docs/export-format.md) with the Series and Sites they point at, or with format=csv a CSV (site, seriesId, title, url, status, progress, progressAt, latestChapter) that an import reads back.",
        querystring: S.ExportQuery,
        response: {
          200: {
            description: 'the download',
            content: { 'application/json': { schema: ExportDocument }, 'text/csv': { schema: z.string() } },
          },
          401: REFUSAL[401],
          422: REFUSAL[422],
          429: REFUSAL[429],
        },
      },
    },
    async (request, reply) => {
      const reader = authenticated(request)
      const day = new Date(deps.clock.now()).toISOString().slice(0, 10)
      const name = `manga-bookmarks-${reader.name.replace(/[^A-Za-z0-9._-]+/g, '_')}-${day}`
      const csv = request.query.format === 'csv'
      void reply.header('content-disposition', `attachment; filename="${name}.${csv ? 'csv' : 'json'}"`)
      if (csv) void reply.type('text/csv; charset=utf-8')
      // Streamed from the big-read worker (docs/adr/0176-…), the same text as made here.
      if (deps.bigReads) {
        const text = await deps.bigReads.exportReader(reader.id, deps.clock.now(), csv ? 'csv' : 'json')
        return csv ? streamed(reply, text) : jsonText(reply, text)
      }
      if (csv) return exportReaderCsv(deps, reader.id)
      return exportReader({ db: deps.db, registry: deps.acquire.registry, now: deps.clock.now() }, reader.id)
    },
  )
}

/** The Reader's bookmarks: the list (whole, or what changed since), and a new one by URL. */
export const bookmarkRoutes: RoutesOf = async (app, { deps }) => {
  app.get(
    '/api/v1/bookmarks',
    {
      schema: {
        summary:
          "The Reader's bookmarks with their Series and unread flags. With `since` (the `now` of the previous answer), only what changed at or after it, and in `deleted` what was removed since; a `since` older than the app remembers removals (90 days), or later than the server's time (its clock was set back since), answers every bookmark with `full: true`.",
        querystring: S.BookmarksQuery,
        response: { 200: answer(S.BookmarksResponse, 'the bookmarks'), 401: REFUSAL[401], 422: REFUSAL[422], 429: REFUSAL[429] },
      },
    },
    async (request, reply) => {
      const reader = authenticated(request)
      const now = deps.clock.now()
      const since = request.query.since
      // A `since` later than our now is a `now` we gave while our clock ran fast: changes stamped since the clock
      // was corrected are earlier than it, so only the whole list is a true answer (docs/adr/0092-…).
      if (since === undefined || since < now - RETENTION.removalsMs || since > now) {
        const list = await fullList(deps, reader, now, since !== undefined)
        return list instanceof Readable ? jsonText(reply, list) : list
      }
      // Removals are read first, and a client applies them first: a bookmark removed or added again meanwhile
      // ends as it is now (and anything after `now` comes with the next answer).
      const removed = await readerRemovals(deps.db, reader.id, since)
      const changed = await readerBookmarks(deps.db, reader.id, { since })
      return {
        bookmarks: await presented(deps, reader, changed),
        now,
        deleted: removed.map((r) => ({ site: r.site, seriesId: r.series_id, at: r.removed_at })),
      }
    },
  )
  app.post(
    '/api/v1/bookmarks',
    {
      schema: {
        summary:
          "Bookmark a Series by URL. The Site comes from the host pin. A Series the app did not know is answered at once with 202 and read in the background, in its Site's pace; `acquisition` says whether it is being read or waits for its Lane.",
        body: S.AddBookmarkBody,
        response: {
          200: answer(S.AddBookmarkResponse, 'it was bookmarked already: nothing changed'),
          201: answer(S.AddBookmarkResponse, 'bookmarked'),
          202: answer(S.AddBookmarkResponse, 'bookmarked; the new Series is read, or waits for its Lane'),
          ...WITH_A_BODY,
          401: REFUSAL[401],
          429: REFUSAL[429],
        },
      },
    },
    async (request, reply) => {
      const reader = authenticated(request)
      const { url, status } = request.body
      const result = await bookmarkByUrl(deps.acquire, {
        readerId: reader.id,
        url,
        maxBookmarks: (await readSettings(deps.db)).bookmarksPerReader,
        status,
      })
      const bookmark = (await presented(deps, reader, [result.bookmark]))[0]!
      return reply.code(result.acquisition ? 202 : result.created ? 201 : 200).send({ bookmark, acquisition: result.acquisition })
    },
  )
}

/** A change to one of the Reader's bookmarks: its status or Progress, or its removal. */
export const changeRoutes: RoutesOf = async (app, { deps }) => {
  app.patch(
    '/api/v1/bookmarks/:site/:seriesId',
    {
      schema: {
        summary:
          "Change a status or Progress. Progress keeps the write with the latest progressAt, so replays and late writes change nothing. A progressAt later than the server's time is taken as the server's time (a device ahead of a slow server is not refused). A Progress without progressAt is the latest by arrival: it takes, stamped with the devices' newest time, not the server's alone, so a server clock running fast cannot make later timed writes lose.",
        params: S.BookmarkParams,
        body: S.UpdateBookmarkBody,
        response: {
          200: answer(S.BookmarkResponse, 'the bookmark after the write'),
          ...WITH_A_BODY,
          401: REFUSAL[401],
          404: REFUSAL[404],
          429: REFUSAL[429],
        },
      },
    },
    async (request) => {
      const reader = authenticated(request)
      const key = { site: request.params.site, seriesId: request.params.seriesId }
      const write: BookmarkWrite = { readerId: reader.id, key, change: request.body }
      const written = deps.writes
        ? await deps.writes.run(write)
        : await updateBookmark(deps.db, write.readerId, write.key, write.change, deps.clock.now())
      return { bookmark: await presentedRow(deps, reader, written) }
    },
  )
  app.delete(
    '/api/v1/bookmarks/:site/:seriesId',
    {
      schema: {
        summary: 'Remove a bookmark.',
        params: S.RemoveBookmarkParams,
        response: { 204: nothing('removed'), 401: REFUSAL[401], 404: REFUSAL[404], 422: REFUSAL[422], 429: REFUSAL[429] },
      },
    },
    async (request, reply) => {
      const reader = authenticated(request)
      await removeBookmark(deps.db, reader.id, { site: request.params.site, seriesId: request.params.seriesId }, deps.clock.now())
      return reply.code(204).send(null)
    },
  )
}

/** What the Reader reads next: a Series' stored chapters, the New Chapters, and the chapters they saw on a Site. */
export const chapterRoutes: RoutesOf = async (app, { deps }) => {
  app.get(
    '/api/v1/bookmarks/:site/:seriesId/chapters',
    {
      schema: {
        summary:
          "The Series' stored chapters, newest first, a page at a time (`before`: the `next` of the previous page). Each says whether the Reader has read it and whether the Site still lists it. The app keeps the newest 100 and every chapter above the lowest Progress of the Series' Readers, at most 1,000.",
        params: S.BookmarkParams,
        querystring: S.ChaptersQuery,
        response: {
          200: answer(S.ChaptersResponse, 'the chapters'),
          401: REFUSAL[401],
          404: REFUSAL[404],
          422: REFUSAL[422],
          429: REFUSAL[429],
        },
      },
    },
    async (request) => {
      const reader = authenticated(request)
      const { query, params } = request
      const key = { site: params.site, seriesId: params.seriesId }
      const bookmark = await getBookmark(deps.db, reader.id, key)
      if (!bookmark) throw new AppError('not-found', `no bookmark ${key.site}/${key.seriesId}`)
      const limit = query.limit ?? 100
      const rows = await chapterList(deps.db, key, { limit: limit + 1, before: query.before })
      const page = paged(rows, limit, (last) => last.number)
      return {
        chapters: page.items.map((c) => presentChapter(c, bookmark.progress)),
        next: page.next,
      }
    },
  )
  app.get(
    '/api/v1/updates',
    {
      schema: {
        summary:
          "The Reader's unread New Chapters, newest first: chapters that arrived after the bookmark was made, above the Reader's Progress, still on the Site. A page at a time (`before`: the `next` of the previous page).",
        querystring: S.UpdatesQuery,
        response: { 200: answer(S.UpdatesResponse, 'the New Chapters'), 401: REFUSAL[401], 422: REFUSAL[422], 429: REFUSAL[429] },
      },
    },
    async (request) => {
      const reader = authenticated(request)
      const limit = request.query.limit ?? 100
      const before = request.query.before
      const rows = await readerUpdates(deps.db, reader.id, { limit: limit + 1, before })
      const page = paged(rows, limit, (last) => last.first_seen_at)
      return { updates: page.items.map(presentUpdate), next: page.next }
    },
  )
  app.post(
    '/api/v1/sightings',
    {
      schema: {
        summary:
          'Report the latest chapter seen on the Site. It may raise the Latest Chapter, by at most 10 chapters, until the next check judges it; a new report replaces your outstanding one of the Series.',
        body: S.SightingBody,
        response: {
          202: answer(S.SightingResponse, 'recorded; the next check judges it'),
          ...WITH_A_BODY,
          401: REFUSAL[401],
          404: REFUSAL[404],
          429: REFUSAL[429],
        },
      },
    },
    async (request, reply) => {
      const reader = authenticated(request)
      const { body } = request
      const now = deps.clock.now()
      const key = await sightedSeries(deps, body)
      if (!(await getBookmark(deps.db, reader.id, key))) throw new AppError('not-found', `no bookmark ${key.site}/${key.seriesId}`)
      // A time ahead of ours (a device ahead of a slow server) is taken as now, as Progress is (docs/adr/0092-…).
      const sightedAt = Math.min(body.at ?? now, now)
      const report = await recordSighting(deps.db, { ...key, readerId: reader.id, chapter: body.chapter, sightedAt, now })
      return reply.code(202).send(presentSighting(report.sighting, report.raised))
    },
  )
}

/** The Series a Sighting names: by its URL on a Site's host pin, or by its Site and id. */
async function sightedSeries(deps: SyncDeps, body: z.output<typeof S.SightingBody>): Promise<{ site: string; seriesId: string }> {
  if (body.url === undefined) {
    if (body.site === undefined || body.seriesId === undefined)
      throw new AppError('invalid-request', 'body: give either url, or site and seriesId')
    return { site: body.site, seriesId: body.seriesId }
  }
  const match = await seriesOfUrl(deps.db, deps.acquire.registry, body.url)
  if (!match) throw new AppError('off-pin', "not a Series URL on any known Site's host pin")
  return match.key
}

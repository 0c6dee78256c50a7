/**
 * The `notify_*` aggregate (migration 0010; docs/adr/0074-a-durable-outbox-for-notifications.md): the New
 * Chapters waiting for their digest, the Readers' rules and channels, and the outbox. Times are parameters.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from './database'
import type {
  BookmarkStatus,
  NotifyChannelKind,
  NotifyChannelRow,
  NotifyChapterRow,
  NotifyOutboxRow,
  NotifyPrefsRow,
  SeriesKey,
} from './schema'

export interface NewChapterEvent extends SeriesKey {
  chapter: number
  label: string
  url: string
  title: string
  previousCheckAt: number
  at: number
}

/** Keeps a New Chapter for its pass's digest; called inside the transaction that moves the Latest Chapter. */
export async function recordNewChapterEvent(db: Db, e: NewChapterEvent): Promise<void> {
  await db
    .insertInto('notify_chapters')
    .values({
      site: e.site,
      series_id: e.seriesId,
      chapter: e.chapter,
      label: e.label,
      url: e.url,
      title: e.title,
      previous_check_at: e.previousCheckAt,
      at: e.at,
    })
    .execute()
}

/** New Chapters not yet digested, oldest first: one Site's, or every Site's (after a restart). */
export async function pendingChapters(db: Db, site?: string): Promise<NotifyChapterRow[]> {
  let query = db.selectFrom('notify_chapters').selectAll()
  if (site !== undefined) query = query.where('site', '=', site)
  return query.orderBy('id').execute()
}

export async function deleteChapters(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('notify_chapters').where('id', 'in', ids).execute()
}

export interface HolderRow {
  reader_id: number
  name: string
  site: string
  series_id: string
  status: BookmarkStatus
  progress: number | null
  created_at: number
  latest_chapter: number | null
  latest_chapter_url: string
  series_url: string
}

/**
 * Every bookmark holding one of `keys`, with what its unread count is computed from: three statements for a whole
 * chunk — the bookmarks, each Series found by `bookmarks_series`, by the key's place in the list (no string per
 * row); the Series' and the Readers' columns once each (docs/adr/0170-digests-in-sets.md, 0211-…). Ordered by
 * Series, then Reader.
 */
export async function holdersOf(db: Db, keys: readonly SeriesKey[]): Promise<HolderRow[]> {
  if (keys.length === 0) return []
  const wanted = uniqueKeys(keys)
  const json = JSON.stringify(wanted.map((k) => [k.site, k.seriesId]))
  const bookmarks = await holdingsOf(db, json)
  const series = await sql<{ i: number; latest_chapter: number | null; latest_chapter_url: string; series_url: string }>`
    SELECT k.i, s.latest_chapter, s.latest_chapter_url, s.series_url
    FROM (SELECT key AS i, value ->> 0 AS site, value ->> 1 AS series_id FROM json_each(${json})) k
    JOIN series s ON s.site = k.site AND s.series_id = k.series_id
  `.execute(db)
  const readerIds = new Set<number>()
  for (const held of bookmarks) for (const id of held.readers) readerIds.add(id)
  const names = await sql<{ id: number; name: string }>`
    SELECT id, name FROM readers WHERE id IN (SELECT value FROM json_each(${JSON.stringify([...readerIds])}))
  `.execute(db)
  const seriesAt = new Map(series.rows.map((r) => [r.i, r]))
  const nameOf = new Map(names.rows.map((r) => [r.id, r.name]))
  const rows: HolderRow[] = []
  // By Series (the keys sorted), then Reader: numbers compared, not strings.
  for (const held of bookmarks) {
    const s = seriesAt.get(held.i)
    if (!s) continue
    const key = wanted[held.i]!
    for (const j of held.order) {
      const name = nameOf.get(held.readers[j]!)
      if (name === undefined) continue
      rows.push({
        reader_id: held.readers[j]!,
        name,
        site: key.site,
        series_id: key.seriesId,
        status: held.statuses[j]!,
        progress: held.progress[j]!,
        created_at: held.created[j]!,
        latest_chapter: s.latest_chapter,
        latest_chapter_url: s.latest_chapter_url,
        series_url: s.series_url,
      })
    }
  }
  return rows
}

/** One Series' bookmarks, column by column; `order`: their places by Reader id. */
interface Holdings {
  i: number
  readers: number[]
  statuses: BookmarkStatus[]
  progress: Array<number | null>
  created: number[]
  order: number[]
}

/**
 * The bookmarks of each key (by its place in `json`), by Series in key order: one row per Series, its columns as
 * JSON arrays (docs/adr/0237-a-digest-reads-each-list-as-one-row.md) — half the CPU of an object per bookmark.
 */
async function holdingsOf(db: Db, json: string): Promise<Holdings[]> {
  const result = await sql<{ i: number; readers: string; statuses: string; progress: string; created: string }>`
    SELECT k.i, json_group_array(b.reader_id) AS readers, json_group_array(b.status) AS statuses,
      json_group_array(b.progress) AS progress, json_group_array(b.created_at) AS created
    FROM (SELECT key AS i, value ->> 0 AS site, value ->> 1 AS series_id FROM json_each(${json})) k
    CROSS JOIN bookmarks b INDEXED BY bookmarks_series ON b.site = k.site AND b.series_id = k.series_id
    GROUP BY k.i
  `.execute(db)
  const held = result.rows.map((r) => {
    const readers = JSON.parse(r.readers) as number[]
    return {
      i: r.i,
      readers,
      statuses: JSON.parse(r.statuses) as BookmarkStatus[],
      progress: JSON.parse(r.progress) as Array<number | null>,
      created: JSON.parse(r.created) as number[],
      order: byValue(readers),
    }
  })
  return held.sort((a, b) => a.i - b.i)
}

/** The places of `values` lowest first (an aggregate's order is not promised; the index's usually holds). */
export function byValue(values: readonly number[]): number[] {
  const order = values.map((_, j) => j)
  for (let j = 1; j < values.length; j++) if (values[j - 1]! > values[j]!) return order.sort((x, y) => values[x]! - values[y]!)
  return order
}

/** The keys without repeats, by Series (site, then id). */
function uniqueKeys(keys: readonly SeriesKey[]): SeriesKey[] {
  const seen = new Map<string, SeriesKey>()
  for (const k of keys) seen.set(`${k.site}\n${k.seriesId}`, k)
  return [...seen.values()].sort((a, b) =>
    a.site < b.site ? -1 : a.site > b.site ? 1 : a.seriesId < b.seriesId ? -1 : a.seriesId > b.seriesId ? 1 : 0,
  )
}

/** The stored rules of each of `readerIds` (a Reader with none stored is absent). One statement. */
export async function readersPrefs(db: Db, readerIds: readonly number[]): Promise<Map<number, NotifyPrefsRow>> {
  if (readerIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('notify_prefs')
    .selectAll()
    .where('reader_id', 'in', sql<number>`(SELECT value FROM json_each(${JSON.stringify(readerIds)}))`)
    .execute()
  return new Map(rows.map((r) => [r.reader_id, r]))
}

/** The channels of each of `readerIds` and the owner's (key null), each list by id. One statement. */
export async function channelsOfAll(db: Db, readerIds: readonly number[]): Promise<Map<number | null, NotifyChannelRow[]>> {
  const rows = await db
    .selectFrom('notify_channels')
    .selectAll()
    .where((eb) =>
      eb.or([eb('reader_id', 'is', null), eb('reader_id', 'in', sql<number>`(SELECT value FROM json_each(${JSON.stringify(readerIds)}))`)]),
    )
    .orderBy('id')
    .execute()
  const byOwner = new Map<number | null, NotifyChannelRow[]>()
  for (const row of rows) byOwner.set(row.reader_id, [...(byOwner.get(row.reader_id) ?? []), row])
  return byOwner
}

/** Of `channelIds`, each channel's message held for later and not tried yet (see heldMessage). One statement. */
export async function heldMessagesOf(db: Db, channelIds: readonly number[], now: number): Promise<Map<number, NotifyOutboxRow>> {
  if (channelIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('notify_outbox')
    .selectAll()
    .where('channel_id', 'in', sql<number>`(SELECT value FROM json_each(${JSON.stringify(channelIds)}))`)
    .where('attempts', '=', 0)
    .where('not_before', '>', now)
    .orderBy('id', 'desc')
    .execute()
  // Descending, so the first (lowest id) of a channel is the one kept, as heldMessage picks.
  return new Map(rows.map((r) => [r.channel_id, r]))
}

export async function readerPrefs(db: Db, readerId: number): Promise<NotifyPrefsRow | undefined> {
  return db.selectFrom('notify_prefs').selectAll().where('reader_id', '=', readerId).executeTakeFirst()
}

export async function putReaderPrefs(db: Db, row: NotifyPrefsRow): Promise<void> {
  const { reader_id: _key, ...rest } = row
  await db
    .insertInto('notify_prefs')
    .values(row)
    .onConflict((oc) => oc.column('reader_id').doUpdateSet(rest))
    .execute()
}

/** A Reader's channels, or the owner's with `null`. */
export async function channelsOf(db: Db, readerId: number | null): Promise<NotifyChannelRow[]> {
  const query = db.selectFrom('notify_channels').selectAll()
  return (readerId === null ? query.where('reader_id', 'is', null) : query.where('reader_id', '=', readerId)).orderBy('id').execute()
}

export async function getChannel(db: Db, id: number): Promise<NotifyChannelRow | undefined> {
  return db.selectFrom('notify_channels').selectAll().where('id', '=', id).executeTakeFirst()
}

export interface ChannelInput {
  kind: NotifyChannelKind
  target: string
  secret: string
}

export async function addChannel(db: Db, readerId: number | null, input: ChannelInput, now: number): Promise<number> {
  const row = await db
    .insertInto('notify_channels')
    .values({ reader_id: readerId, kind: input.kind, target: input.target, secret: input.secret, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Changes a channel's target or secret; a changed channel starts afresh (no failures). */
export async function updateChannel(db: Db, id: number, input: ChannelInput): Promise<void> {
  await db
    .updateTable('notify_channels')
    .set({ target: input.target, secret: input.secret, failures: 0, last_error: '', last_error_at: 0 })
    .where('id', '=', id)
    .execute()
}

/** Removes a channel and, by cascade, its undelivered messages. */
export async function removeChannel(db: Db, id: number): Promise<void> {
  await db.deleteFrom('notify_channels').where('id', '=', id).execute()
}

export async function channelFailed(db: Db, id: number, error: string, now: number): Promise<void> {
  await db
    .updateTable('notify_channels')
    .set((eb) => ({ failures: eb('failures', '+', 1), last_error: error, last_error_at: now }))
    .where('id', '=', id)
    .execute()
}

export async function channelDelivered(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('notify_channels').set({ failures: 0, last_error: '', last_ok_at: now }).where('id', '=', id).execute()
}

/** Channels of the owner and every Reader that failed at least `failures` times in a row. */
export async function failingChannels(db: Db, failures: number): Promise<Array<NotifyChannelRow & { name: string | null }>> {
  return db
    .selectFrom('notify_channels as c')
    .leftJoin('readers as r', 'r.id', 'c.reader_id')
    .selectAll('c')
    .select('r.name')
    .where('c.failures', '>=', failures)
    .orderBy('c.id')
    .execute()
}

/**
 * A delivery id: random, so it is never reused — not after its row is deleted, not in another data file, not
 * after a restore (docs/adr/0118-delivery-ids-unique-forever.md).
 */
export const newDeliveryId = (): string => `mb-${randomBytes(16).toString('hex')}`

/** Queues a message with its delivery id, which it keeps on every try. */
export async function enqueue(db: Db, row: { channel_id: number; message: string; created_at: number; not_before: number }): Promise<void> {
  await db
    .insertInto('notify_outbox')
    .values({ ...row, next_attempt_at: row.not_before, delivery_id: newDeliveryId() })
    .execute()
}

/** Queues messages, each with its own delivery id: multi-row INSERTs of at most 500 rows. */
export async function enqueueAll(
  db: Db,
  rows: ReadonlyArray<{ channel_id: number; message: string; created_at: number; not_before: number }>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('notify_outbox')
      .values(rows.slice(i, i + 500).map((row) => ({ ...row, next_attempt_at: row.not_before, delivery_id: newDeliveryId() })))
      .execute()
}

/** The message a channel holds for later (quiet hours) and has not tried yet: a new digest joins it. */
export async function heldMessage(db: Db, channelId: number, now: number): Promise<NotifyOutboxRow | undefined> {
  return db
    .selectFrom('notify_outbox')
    .selectAll()
    .where('channel_id', '=', channelId)
    .where('attempts', '=', 0)
    .where('not_before', '>', now)
    .orderBy('id')
    .executeTakeFirst()
}

export async function replaceMessage(db: Db, id: number, message: string): Promise<void> {
  await db.updateTable('notify_outbox').set({ message }).where('id', '=', id).execute()
}

/** Messages whose time has come, oldest first. */
export async function dueMessages(db: Db, now: number, limit: number): Promise<NotifyOutboxRow[]> {
  // By the due index: the messages whose time has come, not the whole outbox in id order.
  const result = await sql<NotifyOutboxRow>`
    SELECT * FROM notify_outbox INDEXED BY notify_outbox_due WHERE next_attempt_at <= ${now} ORDER BY id LIMIT ${limit}
  `.execute(db)
  return result.rows
}

/** The Readers (null: the owner) with a message due: each has its own queue (docs/adr/0120-…). */
export async function ownersWithDue(db: Db, now: number): Promise<Array<number | null>> {
  const rows = await db
    .selectFrom('notify_outbox as o')
    .innerJoin('notify_channels as c', 'c.id', 'o.channel_id')
    .select('c.reader_id')
    .distinct()
    .where('o.next_attempt_at', '<=', now)
    .execute()
  return rows.map((r) => r.reader_id)
}

/** One Reader's (or, with null, the owner's) messages whose time has come, oldest first. */
export async function dueMessagesOf(db: Db, readerId: number | null, now: number, limit: number): Promise<NotifyOutboxRow[]> {
  const query = db
    .selectFrom('notify_outbox as o')
    .innerJoin('notify_channels as c', 'c.id', 'o.channel_id')
    .selectAll('o')
    .where('o.next_attempt_at', '<=', now)
  return (readerId === null ? query.where('c.reader_id', 'is', null) : query.where('c.reader_id', '=', readerId))
    .orderBy('o.id')
    .limit(limit)
    .execute()
}

/** A Reader's name, as a warning names them ('' for none). */
export async function readerName(db: Db, readerId: number): Promise<string> {
  return (await db.selectFrom('readers').select('name').where('id', '=', readerId).executeTakeFirst())?.name ?? ''
}

/** When the next message is due (null: none waits). */
export async function nextDueAt(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('notify_outbox')
    .select((eb) => eb.fn.min<number>('next_attempt_at').as('at'))
    .executeTakeFirst()
  return row?.at ?? null
}

export async function messageDone(db: Db, id: number): Promise<void> {
  await db.deleteFrom('notify_outbox').where('id', '=', id).execute()
}

export async function messageRetry(db: Db, id: number, at: number, error: string): Promise<void> {
  await db
    .updateTable('notify_outbox')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: at, last_error: error }))
    .where('id', '=', id)
    .execute()
}

/**
 * The `notify_*` aggregate (migration 0010; docs/adr/0074-a-durable-outbox-for-notifications.md): the New
 * Chapters waiting for their digest, the Readers' rules and channels, and the outbox. Times are parameters.
 */
import { randomBytes } from 'node:crypto'
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

/** The bookmarks holding a Series, with what the unread count is computed from. */
export async function seriesHolders(db: Db, key: SeriesKey): Promise<HolderRow[]> {
  return db
    .selectFrom('bookmarks as b')
    .innerJoin('readers as r', 'r.id', 'b.reader_id')
    .innerJoin('series as s', (join) => join.onRef('s.site', '=', 'b.site').onRef('s.series_id', '=', 'b.series_id'))
    .select(['b.reader_id', 'r.name', 'b.site', 'b.series_id', 'b.status', 'b.progress', 'b.created_at'])
    .select(['s.latest_chapter', 's.latest_chapter_url', 's.series_url'])
    .where('b.site', '=', key.site)
    .where('b.series_id', '=', key.seriesId)
    .orderBy('b.reader_id')
    .execute()
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
  return db.selectFrom('notify_outbox').selectAll().where('next_attempt_at', '<=', now).orderBy('id').limit(limit).execute()
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

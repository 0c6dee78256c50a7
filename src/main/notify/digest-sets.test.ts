/**
 * A digest in sets (docs/adr/0170-digests-in-sets.md): the holders' unread counts and links read in one statement
 * are the ones read Reader by Reader, and a digest runs as many statements for 12 Readers × 30 Series as for 2 × 3.
 */
import { Kysely, SqliteDialect } from 'kysely'
import { BOOKMARK_STATUSES } from '../../shared/domain'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '../store/database'
import type { Database } from '../store/schema'
import { silentLog } from '../log'
import { readerChapterFacts, storeChapters, unreadCount, chapterKey } from '../store/chapters'
import { addChannel, byValue, enqueueAll, putReaderPrefs, recordNewChapterEvent } from '../store/notify'
import { writeSettings } from '../store/settings'
import { FakeClock } from '../testing/clock'
import { startReceiver, startSilentReceiver } from '../testing/receivers'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { createNotifier } from './notifier'
import { holdersWithUnreadOf, seriesKeyOf } from './unread'

const HOUR = 3_600_000

/** A Kysely handle over the test store's connection that hands each statement run to `seen`. */
const counted = (seen: (sql: string, inTransaction: boolean) => void): Db =>
  new Kysely<Database>({
    dialect: new SqliteDialect({ database: store.sqlite }),
    log: (event) => seen(event.query.sql, store.sqlite.inTransaction),
  })
let store: TestStore
let clock: FakeClock

beforeEach(async () => {
  clock = new FakeClock(Date.UTC(2026, 0, 5, 12, 0))
  store = openTestStore(clock.now())
  await writeSettings(store.db, { notifyTargets: 'local-network' })
})
afterEach(() => store.dispose())

/**
 * `readers` Readers and `series` Series; Reader r holds Series s when (r + s) % 3 != 0, read up to a Progress that
 * varies (none, below, inside, on and above the stored list); every other Series has a stored list with a gap and a
 * half chapter, every fourth one chapter vanished. Each Reader has a channel, every third one quiet hours all day. Returns the Series' keys.
 */
async function library(readers: number, series: number): Promise<Array<{ site: string; seriesId: string }>> {
  const ids: number[] = []
  for (let r = 0; r < readers; r++) {
    const id = await seedReader(store.db, `r${r}-${Math.random()}`)
    ids.push(id)
    await addChannel(store.db, id, { kind: 'webhook', target: 'http://127.0.0.1:9/hook', secret: '{"secret":"k"}' }, 1)
    if (r % 3 === 0)
      await putReaderPrefs(store.db, {
        reader_id: id,
        min_unread: 1,
        quiet_from: '00:00',
        quiet_to: '23:59',
        time_zone: 'UTC',
        muted: '[]',
        updated_at: 1,
      })
  }
  const keys = []
  for (let s = 0; s < series; s++) {
    const seriesId = `s${s}`
    const holders = ids.filter((_, r) => (r + s) % 3 !== 0)
    await seedSeries(store.db, { id: seriesId, latest: 30, checkedAt: clock.now() - HOUR, readers: holders })
    for (const [i, readerId] of holders.entries())
      await store.db
        .updateTable('bookmarks')
        .set({
          progress: [null, 2, 12, 25, 40, 10.5, 5, 31][(i + s) % 8] ?? null,
          status: BOOKMARK_STATUSES[(i + s) % BOOKMARK_STATUSES.length]!,
          created_at: 1 + ((i * 7 + s) % 5),
        })
        .where('reader_id', '=', readerId)
        .where('series_id', '=', seriesId)
        .execute()
    if (s % 2 === 0) {
      const served = [5, 6, 7, 8, 9, 10, 10.5, 11, 13, 14, 15, 31].map((n) => ({
        number: n,
        label: `Ch ${n}`,
        url: `https://a.example/${seriesId}/${n}`,
      }))
      await storeChapters(store.db, { site: 'a', seriesId }, served, clock.now(), 30)
      // Chapter 13 gone from the Site: vanished, not counted.
      if (s % 4 === 0)
        await storeChapters(
          store.db,
          { site: 'a', seriesId },
          served.filter((c) => c.number !== 13),
          clock.now(),
          31,
        )
    }
    keys.push({ site: 'a', seriesId })
  }
  return keys
}

async function newChapters(keys: ReadonlyArray<{ site: string; seriesId: string }>): Promise<void> {
  for (const k of keys)
    await recordNewChapterEvent(store.db, {
      ...k,
      chapter: 31,
      label: 'Ch 31',
      url: `https://a.example/${k.seriesId}/31`,
      title: k.seriesId,
      previousCheckAt: clock.now() - HOUR,
      at: clock.now(),
    })
}

describe('a digest in sets', () => {
  it("reads every holder's unread count and link as a Reader's own facts give them", async () => {
    const keys = await library(7, 12)
    const sets = await holdersWithUnreadOf(store.db, keys)
    let compared = 0
    for (const key of keys) {
      const rows = await store.db
        .selectFrom('bookmarks as b')
        .innerJoin('series as s', (j) => j.onRef('s.site', '=', 'b.site').onRef('s.series_id', '=', 'b.series_id'))
        .innerJoin('readers as r', 'r.id', 'b.reader_id')
        .select(['b.reader_id', 'b.progress', 'b.status', 'b.created_at', 'r.name', 's.latest_chapter', 's.series_url'])
        .where('b.site', '=', key.site)
        .where('b.series_id', '=', key.seriesId)
        .orderBy('b.reader_id')
        .execute()
      const expected = []
      for (const r of rows) {
        const facts = (await readerChapterFacts(store.db, r.reader_id, [key])).get(chapterKey(key.site, key.seriesId))
        expected.push({
          readerId: r.reader_id,
          name: r.name,
          status: r.status,
          bookmarkedAt: r.created_at,
          unreadCount: unreadCount(r.latest_chapter, r.progress, facts),
          chapterUrl: facts?.next?.url || r.series_url,
        })
      }
      const got = (sets.get(seriesKeyOf(key.site, key.seriesId)) ?? []).map((h) => ({
        readerId: h.readerId,
        name: h.name,
        status: h.status,
        bookmarkedAt: h.bookmarkedAt,
        unreadCount: h.unreadCount,
        chapterUrl: h.chapterUrl,
      }))
      expect(got).toEqual(expected)
      compared += got.length
    }
    expect(compared).toBeGreaterThan(50)
    expect(byValue([5, 2, 9, 2.5])).toEqual([1, 3, 0, 2])
    expect(byValue([1, 2, 3])).toEqual([0, 1, 2])
    // Lists stored and not, Progress inside the list, below it and past it: the counts differ.
    expect(new Set([...sets.values()].flat().map((h) => h.unreadCount)).size).toBeGreaterThan(4)
  })

  it('runs as many statements for 12 Readers × 30 Series as for 2 × 3, and queues one message per channel', async () => {
    const statements = async (readers: number, series: number) => {
      const keys = await library(readers, series)
      await newChapters(keys)
      let count = 0
      const notifier = createNotifier({
        db: counted(() => count++),
        clock,
        log: silentLog,
        vapid: () => {
          throw new Error('no push here')
        },
        policy: async () => 'local-network',
      })
      await notifier.digest('a')
      const outbox = await store.db.selectFrom('notify_outbox').select(['channel_id', 'message', 'not_before']).execute()
      const pending = await store.db.selectFrom('notify_chapters').select('id').execute()
      return { count, outbox, pending: pending.length }
    }
    const small = await statements(2, 3)
    expect(small.pending).toBe(0)
    expect(small.outbox.length).toBeGreaterThan(0)
    await store.dispose()
    store = openTestStore(clock.now())
    await writeSettings(store.db, { notifyTargets: 'local-network' })
    const big = await statements(12, 30)
    expect(big.pending).toBe(0)
    // Every Reader holds some Series with a New Chapter and something unread: one message on each one's channel.
    expect(new Set(big.outbox.map((m) => m.channel_id)).size).toBe(12)
    // Quiet all day: every third Reader's message waits.
    expect(big.outbox.filter((m) => m.not_before > clock.now()).length).toBe(4)
    expect(big.count).toBe(small.count)
  })

  it("writes a batch's deliveries in one transaction each: no autocommitted write per message", async () => {
    const hook = await startReceiver('/hook')
    try {
      const reader = await seedReader(store.db, 'batched')
      const channel = await addChannel(store.db, reader, { kind: 'webhook', target: hook.url, secret: '{"secret":"k"}' }, 1)
      const digest = {
        reader: 'batched',
        newChapters: [{ site: 'a', seriesId: 's', title: 'S', chapter: 2, label: 'Ch 2', chapterUrl: '' }],
      }
      await enqueueAll(
        store.db,
        Array.from({ length: 25 }, () => ({
          channel_id: channel,
          message: JSON.stringify(digest),
          created_at: 1,
          not_before: clock.now(),
        })),
      )
      const writes: boolean[] = []
      let begins = 0
      const db = counted((sql, inTransaction) => {
        if (/^begin/i.test(sql)) begins++
        if (/^(insert|update|delete)/i.test(sql.trim())) writes.push(inTransaction)
      })
      const notifier = createNotifier({ db, clock, log: silentLog, vapid: () => ({}) as never, policy: async () => 'local-network' })
      await notifier.deliverDue()
      expect(hook.requests).toHaveLength(25)
      expect(await store.db.selectFrom('notify_outbox').select('id').execute()).toEqual([])
      const row = await store.db
        .selectFrom('notify_channels')
        .select(['failures', 'last_ok_at'])
        .where('id', '=', channel)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ failures: 0, last_ok_at: clock.now() })
      // 25 messages in batches of 10: three transactions, and every write inside one.
      expect(begins).toBe(3)
      expect(writes.length).toBeGreaterThanOrEqual(25)
      expect(writes.every(Boolean)).toBe(true)
    } finally {
      await hook.close()
    }
  })

  it('writes what a batch delivered when the notifier stops mid-batch, and a failure after a delivery counts', async () => {
    const hook = await startReceiver('/hook')
    const silent = await startSilentReceiver('/never')
    try {
      const reader = await seedReader(store.db, 'stopped')
      const good = await addChannel(store.db, reader, { kind: 'webhook', target: hook.url, secret: '{"secret":"k"}' }, 1)
      const never = await addChannel(store.db, reader, { kind: 'webhook', target: silent.url, secret: '{"secret":"k"}' }, 1)
      const message = JSON.stringify({ reader: 'stopped', newChapters: [] })
      const row = (channel_id: number) => ({ channel_id, message, created_at: 1, not_before: clock.now() })
      await enqueueAll(store.db, [row(good), row(good), row(never)])
      const notifier = createNotifier({
        db: store.db,
        clock,
        log: silentLog,
        vapid: () => ({}) as never,
        policy: async () => 'local-network',
      })
      const round = notifier.deliverDue()
      while (silent.arrived === 0) await new Promise((resolve) => setTimeout(resolve, 5))
      await notifier.stop()
      await round
      expect(hook.requests).toHaveLength(2)
      // The two delivered are written (never sent again); the one cut short waits for the next start.
      const left = await store.db.selectFrom('notify_outbox').select('channel_id').execute()
      expect(left).toEqual([{ channel_id: never }])
      const channel = await store.db
        .selectFrom('notify_channels')
        .select(['failures', 'last_ok_at'])
        .where('id', '=', good)
        .executeTakeFirstOrThrow()
      expect(channel.last_ok_at).toBe(clock.now())

      // A channel that delivers, then fails in the same batch: one failure counted, after the delivery.
      await store.db.deleteFrom('notify_outbox').execute()
      await enqueueAll(store.db, [row(good), row(good)])
      let answered = 0
      const flaky = await startReceiver('/flaky')
      await store.db.updateTable('notify_channels').set({ target: flaky.url }).where('id', '=', good).execute()
      const original = flaky.requests.push.bind(flaky.requests)
      flaky.requests.push = (...items) => {
        flaky.status = ++answered === 1 ? 200 : 503
        return original(...items)
      }
      const again = createNotifier({ db: store.db, clock, log: silentLog, vapid: () => ({}) as never, policy: async () => 'local-network' })
      await again.deliverDue()
      await again.stop()
      await flaky.close()
      expect(answered).toBe(2)
      const after = await store.db
        .selectFrom('notify_channels')
        .select(['failures', 'last_ok_at'])
        .where('id', '=', good)
        .executeTakeFirstOrThrow()
      expect(after.failures).toBe(1)
      expect(await store.db.selectFrom('notify_outbox').select('attempts').execute()).toEqual([{ attempts: 1 }])
    } finally {
      await hook.close()
      await silent.close()
    }
  })
})

/**
 * Delivery mechanics on real loopback receivers and a real SQLite file (docs/adr/0118-…, docs/adr/0120-…): delivery
 * ids never reused, one Reader's never-answering targets holding only their own queue, tests apart from
 * deliveries, plain reasons for a Reader, and one named terminal warning per failing episode.
 */
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { silentLog, type Log } from '../log'
import { addChannel, enqueue } from '../store/notify'
import { FakeClock } from '../testing/clock'
import { startReceiver, startSilentReceiver, type Receiver, type SilentReceiver } from '../testing/receivers'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { DELIVERY_HEADER } from './channels'
import type { Digest } from './digest'
import { createNotifier, MAX_SENDING, MAX_TESTING, type Notifier } from './notifier'
import type { TargetPolicy } from './send'
import { vapidKeys } from './vapid'

let store: TestStore
let clock: FakeClock
let notifier: Notifier
let good: Receiver
const opened: Array<{ close(): Promise<void> }> = []
const stores: TestStore[] = []

const digest = (reader: string, chapter = 42): Digest => ({
  reader,
  newChapters: [{ site: 'a', seriesId: 'one', title: 'One', chapter, label: '', chapterUrl: 'https://a.example/one/42' }],
})

const notifierOn = (s: TestStore, policy: TargetPolicy = 'local-network', log: Log = silentLog) =>
  createNotifier({ db: s.db, clock, log, vapid: () => vapidKeys(s.dir), policy: async () => policy })

/** Waits (for an event, not for pace) until `done` holds, failing after `ms` of real time. */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

async function queueFor(s: TestStore, channelId: number, reader: string, chapter = 42) {
  await enqueue(s.db, {
    channel_id: channelId,
    message: JSON.stringify(digest(reader, chapter)),
    created_at: clock.now(),
    not_before: clock.now(),
  })
}

beforeEach(async () => {
  clock = new FakeClock(Date.UTC(2026, 0, 5, 12, 0))
  store = openTestStore(clock.now())
  stores.push(store)
  good = await startReceiver('/hook')
  opened.push(good)
  notifier = notifierOn(store)
})

afterEach(async () => {
  await notifier.stop()
  for (const r of opened.splice(0)) await r.close()
  for (const s of stores.splice(0)) await s.dispose()
})

describe('delivery ids', () => {
  it('never reuses one: not after its row is deleted, not in another data file; a retry keeps it', async () => {
    const ids = () => good.requests.map((r) => String(r.headers[DELIVERY_HEADER]))
    const bob = await seedReader(store.db, 'bob')
    const channel = await addChannel(store.db, bob, { kind: 'webhook', target: good.url, secret: '{"secret":"k"}' }, 1)
    for (const chapter of [42, 43, 44]) {
      await queueFor(store, channel, 'bob', chapter)
      await notifier.deliverDue()
    }
    // The outbox was empty before each: a row id would have been 1 each time.
    const other = openTestStore(clock.now())
    stores.push(other)
    const otherChannel = await addChannel(
      other.db,
      await seedReader(other.db, 'bob'),
      { kind: 'webhook', target: good.url, secret: '{}' },
      1,
    )
    await queueFor(other, otherChannel, 'bob')
    const otherNotifier = notifierOn(other)
    await otherNotifier.deliverDue()
    await otherNotifier.stop()
    expect(ids()).toHaveLength(4)
    expect(new Set(ids()).size).toBe(4)
    for (const id of ids()) expect(id).toMatch(/^mb-[0-9a-f]{32}$/)
    // The body carries the same id as the header.
    expect(good.requests.map((r) => (JSON.parse(r.body.toString()) as { id: string }).id)).toEqual(ids())

    good.status = 503
    await queueFor(store, channel, 'bob', 45)
    await notifier.deliverDue()
    await clock.advance(30_000)
    await notifier.deliverDue()
    expect(ids().slice(4)).toHaveLength(2)
    expect(ids()[5]).toBe(ids()[4])
  })
})

describe("one Reader's targets never hold another's message", () => {
  let silent: SilentReceiver[]
  let mallory: number
  let bob: number
  let bobChannel: number

  beforeEach(async () => {
    mallory = await seedReader(store.db, 'mallory')
    bob = await seedReader(store.db, 'bob')
    silent = []
    for (let i = 0; i < 20; i++) {
      const r = await startSilentReceiver(`/never-${i}`)
      opened.push(r)
      silent.push(r)
      const id = await addChannel(store.db, mallory, { kind: 'webhook', target: r.url, secret: '{"secret":"m"}' }, 1)
      await queueFor(store, id, 'mallory')
    }
    bobChannel = await addChannel(store.db, bob, { kind: 'webhook', target: good.url, secret: '{"secret":"b"}' }, 1)
  })

  const malloryOpen = () => silent.reduce((n, r) => n + r.open, 0)
  const malloryArrived = () => silent.reduce((n, r) => n + r.arrived, 0)

  it('a Reader with 20 never-answering webhooks: another Reader queued after them is sent while theirs hang', async () => {
    notifier.start()
    // Mallory's queue is running and her first message hangs (a send waits up to 10 s for an answer).
    await until(() => malloryOpen() === 1, 5_000, "Mallory's first send")
    // Bob's New Chapter comes after all of Mallory's 20 messages; the loop is told (as after a digest).
    await queueFor(store, bobChannel, 'bob')
    notifier.wake()
    await until(() => good.requests.length === 1, 8_000, "Bob's message")
    // Sent while Mallory's first is still unanswered: it did not wait for her 20 (nor for one of them).
    expect(malloryArrived()).toBe(1)
    expect(malloryOpen()).toBe(1)
    // One at a time per Reader: her 20 targets never held more than one of the MAX_SENDING places.
    expect(Math.max(...silent.map((r) => r.mostOpen))).toBe(1)
    expect(MAX_SENDING).toBeGreaterThan(1)
  })

  it('deliverDue sends every Reader side by side: Bob is delivered before any of Mallory’s sends ends', async () => {
    await queueFor(store, bobChannel, 'bob')
    const round = notifier.deliverDue()
    await until(() => good.requests.length === 1, 8_000, "Bob's message")
    expect(malloryOpen()).toBe(1)
    await notifier.stop()
    await round
  })

  it("a Reader's test to 20 silent targets is apart from the deliveries and sends its targets side by side", async () => {
    const test = notifier.sendTest(mallory, 'mallory')
    // All of the test's targets are asked at once (under MAX_TESTING), not one after another.
    await until(() => malloryOpen() === MAX_TESTING, 5_000, 'the test sends')
    await expect(notifier.sendTest(mallory, 'mallory')).rejects.toMatchObject({ code: 'rate-limited' })
    await queueFor(store, bobChannel, 'bob')
    const round = notifier.deliverDue()
    await until(() => good.requests.length === 1, 2_000, "Bob's message beside Mallory's test")
    await notifier.stop()
    await round
    expect((await test).every((r) => !r.ok)).toBe(true)
  }, 20_000)
})

describe('what a Reader and the terminal are told', () => {
  it("a /test answer names a status class, never the target's answer nor an address", async () => {
    const bob = await seedReader(store.db, 'bob')
    good.status = 500
    await addChannel(store.db, bob, { kind: 'webhook', target: good.url, secret: '{"secret":"b"}' }, 1)
    const strict = notifierOn(store, 'public')
    const [local] = await notifier.sendTest(bob, 'bob')
    expect(local).toMatchObject({ ok: false, error: 'the target answered with an error (5xx)' })
    const [refused] = await strict.sendTest(bob, 'bob')
    expect(refused!.error).toMatch(/on this computer or your local network/)
    expect(refused!.error).not.toContain('127.0.0.1')
    await strict.stop()
    // A closed port reads as any connection failure.
    const closed = await startReceiver('/x')
    await closed.close()
    const carol = await seedReader(store.db, 'carol')
    await addChannel(store.db, carol, { kind: 'ntfy', target: closed.url, secret: '' }, 1)
    const [gone] = await notifier.sendTest(carol, 'carol')
    expect(gone!.error).toBe('could not connect to the target')
  })

  it('warns once per failing episode, naming the Reader, the channel and why', async () => {
    const lines: Array<{ level: number; msg: string }> = []
    const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const logged = notifierOn(store, 'local-network', log)
    const bob = await seedReader(store.db, 'bob')
    const channel = await addChannel(store.db, bob, { kind: 'webhook', target: good.url, secret: '{"secret":"b"}' }, 1)
    good.status = 503
    await queueFor(store, channel, 'bob')
    for (let i = 0; i < 3; i++) {
      await logged.deliverDue()
      await clock.advance(3_600_000)
    }
    const warnings = () => lines.filter((l) => l.level === 40).map((l) => l.msg)
    expect(warnings()).toEqual([
      `notify: a message to Reader "bob"'s webhook channel ${channel} (${new URL(good.url).host}) was not delivered: the target answered with an error (5xx); told once until it delivers again`,
    ])
    // Delivered again: the episode ends; the next failure is told again.
    good.status = 200
    await logged.deliverDue()
    good.status = 503
    await queueFor(store, channel, 'bob', 43)
    await logged.deliverDue()
    expect(warnings()).toHaveLength(2)
    await logged.stop()
  })
})

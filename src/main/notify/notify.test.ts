import { createHmac } from 'node:crypto'
import { createRequire } from 'node:module'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { silentLog } from '../log'
import { addChannel, channelsOf, putReaderPrefs } from '../store/notify'
import { writeSettings } from '../store/settings'
import { updateBookmark } from '../store/bookmarks'
import { FakeClock } from '../testing/clock'
import { chapterPage, FakeFetcher, testSite } from '../testing/fakes'
import { passOnClock } from '../testing/pass'
import { startReceiver, subscriptionKeys, type Receiver } from '../testing/receivers'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { SIGNATURE_HEADER } from './channels'
import { createNotifier, MAX_ATTEMPTS, type Notifier } from './notifier'
import { vapidKeys } from './vapid'
import type { TargetPolicy } from './send'
import type { Digest } from './digest'

const ece = createRequire(import.meta.url)('http_ece') as { decrypt(body: Buffer, params: object): Buffer }

const HOUR = 3_600_000
let store: TestStore
let clock: FakeClock
let notifier: Notifier
let hook: Receiver
let ntfy: Receiver
let alice: number
let bob: number
let carol: number
const site = testSite('a', { pace: { minGapMs: 1_000, maxGapMs: 1_000 } })
/** What each Series' page shows now. */
const pages = new Map<string, number>()
const fetcher = () =>
  new FakeFetcher('http', clock, (r) => {
    const page = chapterPage(pages.get(r.url.split('/').pop()!) ?? null)
    return page.kind === 'page' ? { ...page, page: { ...page.page, url: r.url } } : page
  })

async function pass() {
  await clock.advance(2 * HOUR)
  const result = await passOnClock({ db: store.db, site, clock, fetchers: { http: fetcher() } })
  await notifier.digest('a')
  await notifier.deliverDue()
  return result
}

/** A notifier on the test's store and clock, under Settings → Notification targets `policy`. */
const notifierOn = (policy: TargetPolicy) =>
  createNotifier({ db: store.db, clock, log: silentLog, vapid: () => vapidKeys(store.dir), policy: async () => policy })

const bodies = (r: Receiver) => r.requests.map((q) => JSON.parse(q.body.toString()) as Digest & { text: string; id: string })

beforeEach(async () => {
  clock = new FakeClock(Date.UTC(2026, 0, 5, 12, 0))
  store = openTestStore(clock.now())
  await writeSettings(store.db, { notifyTargets: 'local-network' })
  hook = await startReceiver('/hook')
  ntfy = await startReceiver('/mb-topic')
  alice = await seedReader(store.db, `alice-${Math.random()}`)
  bob = await seedReader(store.db, `bob-${Math.random()}`)
  carol = await seedReader(store.db, `carol-${Math.random()}`)
  const checkedAt = clock.now() - HOUR
  await seedSeries(store.db, { id: 'one', title: 'One Piece', latest: 41, checkedAt, readers: [alice, bob] })
  await seedSeries(store.db, { id: 'two', title: 'Two Moons', latest: 16, checkedAt, readers: [alice] })
  await seedSeries(store.db, { id: 'three', title: 'Third', latest: 4, checkedAt, readers: [bob] })
  pages.clear()
  pages.set('one', 41).set('two', 16).set('three', 4)
  for (const reader of [alice, bob, carol])
    await addChannel(store.db, reader, { kind: 'webhook', target: hook.url, secret: JSON.stringify({ secret: `key-${reader}` }) }, 1)
  await addChannel(store.db, alice, { kind: 'ntfy', target: ntfy.url, secret: JSON.stringify({ token: 'tk_ntfy' }) }, 1)
  notifier = notifierOn('local-network')
})

afterEach(async () => {
  await notifier.stop()
  await hook.close()
  await ntfy.close()
  await store.dispose()
})

describe('one digest per Reader per pass, on real receivers', () => {
  it('sends each Reader holding a Series one signed webhook and one ntfy message, and nothing to a Reader without it', async () => {
    pages.set('one', 42).set('two', 17)
    const result = await pass()
    expect(result.newChapters).toHaveLength(2)
    const received = bodies(hook)
    expect(received.map((b) => b.reader?.split('-')[0]).sort()).toEqual(['alice', 'bob'])
    const forAlice = received.find((b) => b.reader?.startsWith('alice'))!
    expect(forAlice.newChapters.map((c) => [c.seriesId, c.chapter])).toEqual([
      ['one', 42],
      ['two', 17],
    ])
    expect(forAlice.text).toBe('2 new chapters in 2 Series\nTitle from a — Ch 42\nTitle from a — Ch 17')
    expect(forAlice.newChapters[0]!.chapterUrl).toBe('https://a.example/manga/one/c/42')
    const forBob = received.find((b) => b.reader?.startsWith('bob'))!
    expect(forBob.newChapters.map((c) => c.seriesId)).toEqual(['one'])
    // The signature is the HMAC of the body with the channel's own key.
    for (const request of hook.requests) {
      const body = JSON.parse(request.body.toString()) as Digest
      const key = body.reader?.startsWith('alice') ? `key-${alice}` : `key-${bob}`
      // `t=<seconds>,v1=<HMAC of "t.body">`: the send's time is signed with the body.
      const t = Math.floor(clock.now() / 1000)
      const mac = createHmac('sha256', key).update(`${t}.${request.body.toString()}`).digest('hex')
      expect(request.headers[SIGNATURE_HEADER]).toBe(`t=${t},v1=${mac}`)
      expect(request.body.toString()).not.toMatch(/hash-|token/i)
    }
    expect(ntfy.requests).toHaveLength(1)
    // The title counts; the body names each Series once; the click opens the first chapter (no URL in the words).
    expect(ntfy.requests[0]!.headers.title).toBe('2 new chapters in 2 Series')
    expect(ntfy.requests[0]!.headers.click).toBe('https://a.example/manga/one/c/42')
    expect(ntfy.requests[0]!.headers.authorization).toBe('Bearer tk_ntfy')
    expect(ntfy.requests[0]!.body.toString()).toBe('Title from a — Ch 42\nTitle from a — Ch 17')
    // Delivered once: another round sends nothing more.
    await notifier.deliverDue()
    expect(hook.requests).toHaveLength(2)
  })

  it('tells nobody of a muted Series, below the threshold, of a dropped one, or when the check found nothing new', async () => {
    await putReaderPrefs(store.db, prefs(alice, { muted: JSON.stringify([['a', 'one']]) }))
    await putReaderPrefs(store.db, prefs(bob, { min_unread: 3 }))
    await updateBookmark(store.db, bob, { site: 'a', seriesId: 'one' }, { progress: 40 }, clock.now())
    await pass()
    expect(hook.requests).toHaveLength(0)
    pages.set('one', 42)
    await pass()
    // Alice muted it; Bob has 2 unread, under his 3.
    expect(hook.requests).toHaveLength(0)
    pages.set('one', 43)
    await pass()
    expect(bodies(hook).map((b) => [b.reader?.slice(0, 3), b.newChapters.map((c) => c.chapter)])).toEqual([['bob', [43]]])
    await updateBookmark(store.db, bob, { site: 'a', seriesId: 'one' }, { status: 'dropped' }, clock.now())
    pages.set('one', 44)
    await pass()
    expect(hook.requests).toHaveLength(1)
  })

  it('tells nothing of a Series bookmarked after the check before the New Chapter, nor of a first read', async () => {
    await store.db.updateTable('bookmarks').set({ created_at: clock.now() }).where('reader_id', '=', bob).execute()
    await seedSeries(store.db, { id: 'new', latest: null, checkedAt: 0, readers: [alice] })
    pages.set('one', 42).set('new', 9)
    await pass()
    expect(bodies(hook).map((b) => [b.reader?.slice(0, 5), b.newChapters.map((c) => c.seriesId)])).toEqual([['alice', ['one']]])
  })

  it('holds messages through quiet hours and sends them after as one', async () => {
    clock = new FakeClock(Date.UTC(2026, 0, 5, 21, 0))
    notifier = notifierOn('local-network')
    await putReaderPrefs(store.db, prefs(alice, { quiet_from: '22:00', quiet_to: '07:00', time_zone: 'UTC' }))
    pages.set('one', 42)
    await pass() // 23:00 UTC
    pages.set('two', 17)
    await pass() // 01:00 UTC
    expect(bodies(hook).every((b) => b.reader?.startsWith('bob'))).toBe(true)
    expect(ntfy.requests).toHaveLength(0)
    await clock.advance(6 * HOUR) // 07:00 UTC
    await notifier.deliverDue()
    const forAlice = bodies(hook).filter((b) => b.reader?.startsWith('alice'))
    expect(forAlice).toHaveLength(1)
    expect(forAlice[0]!.newChapters.map((c) => [c.seriesId, c.chapter])).toEqual([
      ['one', 42],
      ['two', 17],
    ])
    expect(ntfy.requests).toHaveLength(1)
  })

  it('refuses a webhook to 127.0.0.1 under "public", shows the channel failing with the reason, and retries later', async () => {
    const strict = notifierOn('public')
    pages.set('three', 5)
    await clock.advance(2 * HOUR)
    await passOnClock({ db: store.db, site, clock, fetchers: { http: fetcher() } })
    await strict.digest('a')
    await strict.deliverDue()
    expect(hook.requests).toHaveLength(0)
    const [channel] = await channelsOf(store.db, bob)
    expect(channel!.failures).toBe(1)
    expect(channel!.last_error).toMatch(/on this computer or your local network, not a public address.*Settings/)
    expect(channel!.last_error).not.toContain('127.0.0.1')
    const [held] = await store.db.selectFrom('notify_outbox').selectAll().execute()
    expect(held!.attempts).toBe(1)
    expect(held!.next_attempt_at).toBe(clock.now() + 30_000)
    // The owner allows the local network: the retry goes through, once.
    await clock.advance(30_000)
    await notifier.deliverDue()
    expect(hook.requests).toHaveLength(1)
    expect((await channelsOf(store.db, bob))[0]!.failures).toBe(0)
  })

  it('retries a failing receiver with growing waits, and gives the message up after MAX_ATTEMPTS, keeping the reason', async () => {
    hook.status = 503
    pages.set('three', 5)
    await pass()
    const waits: number[] = []
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const [held] = await store.db.selectFrom('notify_outbox').selectAll().execute()
      expect(held!.attempts).toBe(attempt)
      waits.push(held!.next_attempt_at - clock.now())
      await clock.advance(held!.next_attempt_at - clock.now())
      await notifier.deliverDue()
    }
    expect(waits.slice(0, 6)).toEqual([30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000])
    expect(hook.requests).toHaveLength(MAX_ATTEMPTS)
    expect(await store.db.selectFrom('notify_outbox').selectAll().execute()).toEqual([])
    expect((await channelsOf(store.db, bob))[0]).toMatchObject({
      failures: MAX_ATTEMPTS,
      last_error: 'the target answered with an error (5xx)',
    })
  })

  it('gives the owner one digest of every New Chapter', async () => {
    const owner = await startReceiver('/owner')
    await addChannel(store.db, null, { kind: 'webhook', target: owner.url, secret: JSON.stringify({ secret: 'o' }) }, 1)
    pages.set('one', 42).set('three', 5)
    await pass()
    expect(bodies(owner).map((b) => [b.reader, b.newChapters.map((c) => c.seriesId)])).toEqual([[null, ['one', 'three']]])
    await owner.close()
  })
})

describe('Web Push', () => {
  /** Bob's browser subscribes at a push service on loopback answering `status`; a New Chapter of his follows. */
  async function bobSubscribes(path: string, status: number) {
    const push = await startReceiver(path)
    push.status = status
    const keys = subscriptionKeys()
    const secret = JSON.stringify({ p256dh: keys.p256dh, auth: keys.auth })
    await addChannel(store.db, bob, { kind: 'webpush', target: push.url, secret }, 1)
    pages.set('three', 5)
    await pass()
    return { push, keys }
  }

  it('sends an aes128gcm payload signed with the VAPID key, which decrypts with the subscription keys', async () => {
    const { push, keys } = await bobSubscribes('/push/abc', 200)
    expect(push.requests).toHaveLength(1)
    const request = push.requests[0]!
    expect(request.headers['content-encoding']).toBe('aes128gcm')
    expect(request.headers.authorization).toContain(`k=${vapidKeys(store.dir).publicKey}`)
    const plain = ece.decrypt(request.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth })
    const payload = JSON.parse(plain.toString()) as { title: string; body: string; url: string; notices: unknown[] }
    expect(payload).toMatchObject({ title: 'Title from a — Ch 5', body: 'A new chapter to read', url: 'https://a.example/manga/three/c/5' })
    expect(payload.notices).toEqual([
      {
        title: 'Title from a — Ch 5',
        body: 'A new chapter to read',
        url: 'https://a.example/manga/three/c/5',
        tag: expect.stringMatching(/^mb-series:.+\/three$/),
      },
    ])
    await push.close()
  })

  it('removes a subscription the push service says is gone (410), and only that channel', async () => {
    const { push } = await bobSubscribes('/push/gone', 410)
    expect(push.requests).toHaveLength(1)
    expect((await channelsOf(store.db, bob)).map((c) => c.kind)).toEqual(['webhook'])
    expect(await store.db.selectFrom('notify_outbox').selectAll().execute()).toEqual([])
    await push.close()
  })
})

function prefs(readerId: number, over: Partial<Parameters<typeof putReaderPrefs>[1]>): Parameters<typeof putReaderPrefs>[1] {
  return { reader_id: readerId, min_unread: 1, quiet_from: '', quiet_to: '', time_zone: '', muted: '[]', updated_at: 1, ...over }
}

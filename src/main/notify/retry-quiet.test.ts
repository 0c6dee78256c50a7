/**
 * A notification retry never lands inside the Reader's quiet hours (issue 40): a message that failed just before
 * they begin is tried again at their end, not in the night; outside them the backoff is kept as it is. A real
 * SQLite file, a real loopback receiver answering 503, the fake clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { silentLog } from '../log'
import { addChannel, putReaderPrefs } from '../store/notify'
import { writeSettings } from '../store/settings'
import { FakeClock } from '../testing/clock'
import { chapterPage, FakeFetcher, testSite } from '../testing/fakes'
import { passOnClock } from '../testing/pass'
import { startReceiver, type Receiver } from '../testing/receivers'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { createNotifier, retryAt, type Notifier } from './notifier'

const HOUR = 3_600_000
const site = testSite('a', { pace: { minGapMs: 1_000, maxGapMs: 1_000 } })
let store: TestStore
let clock: FakeClock
let notifier: Notifier
let hook: Receiver
let bob: number
let latest = 4

beforeEach(async () => {
  // 21:00 UTC; the pass below runs at 21:59:45, a quarter minute before Bob's quiet hours (22:00–07:00 UTC).
  clock = new FakeClock(Date.UTC(2026, 0, 5, 21, 0))
  store = openTestStore(clock.now())
  await writeSettings(store.db, { notifyTargets: 'local-network' })
  hook = await startReceiver('/hook')
  hook.status = 503
  bob = await seedReader(store.db, 'bob')
  await seedSeries(store.db, { id: 'three', title: 'Third', latest: 4, checkedAt: clock.now() - HOUR, readers: [bob] })
  await addChannel(store.db, bob, { kind: 'webhook', target: hook.url, secret: JSON.stringify({ secret: 'k' }) }, 1)
  await putReaderPrefs(store.db, {
    reader_id: bob,
    min_unread: 1,
    quiet_from: '22:00',
    quiet_to: '07:00',
    time_zone: 'UTC',
    muted: '[]',
    updated_at: 1,
  })
  notifier = createNotifier({
    db: store.db,
    clock,
    log: silentLog,
    vapid: () => ({ publicKey: '', privateKey: '' }),
    policy: async () => 'local-network',
  })
  latest = 4
})

afterEach(async () => {
  await notifier.stop()
  await hook.close()
  await store.dispose()
})

async function newChapterAt(at: number) {
  await clock.advance(at - clock.now())
  latest += 1
  const fetcher = new FakeFetcher('http', clock, (r) => {
    const page = chapterPage(latest)
    return page.kind === 'page' ? { ...page, page: { ...page.page, url: r.url } } : page
  })
  await passOnClock({ db: store.db, site, clock, fetchers: { http: fetcher } })
  await notifier.digest('a')
  await notifier.deliverDue()
}

const held = async () => store.db.selectFrom('notify_outbox').selectAll().executeTakeFirstOrThrow()

describe('a retry and quiet hours', () => {
  it('a send failing just before quiet hours is tried again at their end, not inside them', async () => {
    await newChapterAt(Date.UTC(2026, 0, 5, 21, 59, 45))
    expect(hook.requests).toHaveLength(1)
    const first = await held()
    expect(first.attempts).toBe(1)
    // The backoff (30 s) would land at 22:00:15, inside the quiet hours: it waits to 07:00.
    expect(first.next_attempt_at).toBe(Date.UTC(2026, 0, 6, 7, 0))
    await clock.advance(HOUR)
    await notifier.deliverDue()
    expect(hook.requests).toHaveLength(1)
    await clock.advance(Date.UTC(2026, 0, 6, 7, 0) - clock.now())
    await notifier.deliverDue()
    expect(hook.requests).toHaveLength(2)
    // Outside them, the backoff as it was: 2 minutes after the second try.
    expect((await held()).next_attempt_at).toBe(Date.UTC(2026, 0, 6, 7, 2))
  })

  it('keeps the backoff when it ends outside quiet hours, and the owner has none', async () => {
    const noon = Date.UTC(2026, 0, 5, 12, 0)
    expect(await retryAt(store.db, { reader_id: bob }, noon)).toBe(noon)
    const night = Date.UTC(2026, 0, 5, 23, 30)
    expect(await retryAt(store.db, { reader_id: bob }, night)).toBe(Date.UTC(2026, 0, 6, 7, 0))
    expect(await retryAt(store.db, { reader_id: null }, night)).toBe(night)
  })
})

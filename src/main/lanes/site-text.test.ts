/**
 * Site text is made safe where it enters (a check): a bidirectional override or a control character in a title or
 * a chapter label never reaches the stored Series, its chapters, the webhook's JSON or the ntfy message.
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import { silentLog } from '../log'
import { createNotifier } from '../notify/notifier'
import { vapidKeys } from '../notify/vapid'
import { addChannel } from '../store/notify'
import { requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { FakeFetcher, testSite } from '../testing/fakes'
import { passOnClock } from '../testing/pass'
import { startReceiver, type Receiver } from '../testing/receivers'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'

const HOUR = 3_600_000
// eslint-disable-next-line no-control-regex -- control characters are exactly what must not be sent
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u0000-\u001f]/
let store: TestStore
let hook: Receiver
let ntfy: Receiver

beforeEach(async () => {
  store = openTestStore()
  hook = await startReceiver('/hook')
  ntfy = await startReceiver('/topic')
})
afterEach(async () => {
  await hook.close()
  await ntfy.close()
  await store.dispose()
})

it('strips bidirectional overrides and controls from a title and labels before anything keeps or sends them', async () => {
  const clock = new FakeClock(Date.UTC(2026, 0, 5, 12, 0))
  const site = testSite('a', {
    pace: { minGapMs: 1_000, maxGapMs: 1_000 },
    adapter: {
      request: (url) => ({ url: url.href, method: 'GET' }),
      read: (page) => ({
        kind: 'parsed',
        result: {
          title: 'Evil \u202Efdp.exe\u0007 Title',
          chapters: [{ number: 5, label: 'Chapter 5 \u2066\u202Bdrawkcab\u2069', url: `${page.url}/c/5` }],
        },
      }),
    },
  })
  const reader = await seedReader(store.db, 'bob')
  await seedSeries(store.db, { id: 'one', latest: 4, checkedAt: clock.now() - HOUR, readers: [reader] })
  await addChannel(store.db, reader, { kind: 'webhook', target: hook.url, secret: '{"secret":"k"}' }, 1)
  await addChannel(store.db, reader, { kind: 'ntfy', target: ntfy.url, secret: '' }, 1)
  await clock.advance(2 * HOUR)
  const fetcher = new FakeFetcher('http', clock, (r) => ({
    kind: 'page',
    page: { url: r.url, status: 200, contentType: 'text/html', body: 'x' },
  }))
  const result = await passOnClock({ db: store.db, site, clock, fetchers: { http: fetcher } })
  expect(result.newChapters).toHaveLength(1)
  const series = await requireSeries(store.db, { site: 'a', seriesId: 'one' })
  expect(series.title).toBe('Evil fdp.exe Title')
  expect(series.latest_chapter_label).toBe('Chapter 5 drawkcab')
  const labels = await store.db.selectFrom('chapters').select('label').execute()
  expect(labels.map((l) => l.label)).toEqual(['Chapter 5 drawkcab'])
  const notifier = createNotifier({
    db: store.db,
    clock,
    log: silentLog,
    vapid: () => vapidKeys(store.dir),
    policy: async () => 'local-network',
  })
  await notifier.digest('a')
  await notifier.deliverDue()
  await notifier.stop()
  expect(hook.requests).toHaveLength(1)
  expect(ntfy.requests).toHaveLength(1)
  const sent = [hook.requests[0]!.body.toString(), ntfy.requests[0]!.body.toString(), String(ntfy.requests[0]!.headers.title)]
  // JSON may spell a control character as an escape: read the body back before looking.
  expect(JSON.stringify(JSON.parse(sent[0]!))).toContain('Evil fdp.exe Title')
  for (const text of sent) expect(text).not.toMatch(BIDI)
  expect(JSON.parse(sent[0]!).newChapters[0].title).not.toMatch(BIDI)
})

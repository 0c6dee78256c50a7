import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAILING_AFTER } from '../notify/notifier'
import { addBookmark } from '../store/bookmarks'
import { addSeries } from '../store/series'
import { failingChannels } from '../store/notify'
import { writeSettings } from '../store/settings'
import { startReceiver, subscriptionKeys, type Receiver } from '../testing/receivers'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let server: TestSyncServer
let hook: Receiver
const PATH = '/api/v1/me/notifications'
const body = (over: object = {}) => ({ channels: [], minUnread: 1, quietHours: null, muted: [], ...over })

beforeAll(async () => {
  server = await startTestSyncServer()
  hook = await startReceiver('/hook')
})
afterAll(async () => {
  await hook.close()
  await server.close()
})

describe('expectedAt on a bookmark', () => {
  it('is the release the learnt rhythm expects, and null without one', async () => {
    const at = Date.UTC(2026, 0, 6, 15)
    const rhythm = {
      kind: 'periodic',
      periodMs: 7 * 86_400_000,
      offsetMs: 5 * 86_400_000 + 15 * 3_600_000,
      spreadMs: 600_000,
      timeKnown: true,
    }
    for (const id of ['weekly', 'silent']) {
      await addSeries(server.store.db, {
        site: 'fixture-madara',
        seriesId: id,
        seriesUrl: `${server.fixture.origin}/madara/manga/${id}/`,
        now: 1,
      })
      await addBookmark(server.store.db, { site: 'fixture-madara', seriesId: id, readerId: server.alice.id, now: 1 })
    }
    await server.store.db
      .updateTable('series')
      .set({
        rhythm: JSON.stringify({ rhythm, hits: 2, window: { at, halfWidthMs: 3_600_000, timeKnown: true } }),
        latest_checked_at: at - 86_400_000,
      })
      .where('series_id', '=', 'weekly')
      .execute()
    const list = await server.call(server.alice.token, 'GET', '/api/v1/bookmarks')
    const expected = Object.fromEntries(
      list.json.bookmarks.map((b: { seriesId: string; expectedAt: number | null }) => [b.seriesId, b.expectedAt]),
    )
    expect(expected).toEqual({ weekly: at, silent: null })
    await server.store.db.deleteFrom('bookmarks').execute()
  })
})

describe('GET/PUT /api/v1/me/notifications', () => {
  it('answers the defaults and the VAPID public key, made once and kept private', async () => {
    const first = await server.call(server.alice.token, 'GET', PATH)
    expect(first.status).toBe(200)
    expect(first.json).toMatchObject({ channels: [], minUnread: 1, quietHours: null, muted: [], targets: 'public' })
    expect(first.json.vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/)
    const again = await server.call(server.bob.token, 'GET', PATH)
    expect(again.json.vapidPublicKey).toBe(first.json.vapidPublicKey)
    const { statSync } = await import('node:fs')
    expect(statSync(`${server.store.dir}/vapid.json`).mode & 0o077).toBe(0)
  })

  it('refuses a webhook to 127.0.0.1 under "public" and changes nothing', async () => {
    const put = await server.call(
      server.alice.token,
      'PUT',
      PATH,
      body({ channels: [{ kind: 'webhook', url: hook.url, secret: 'x'.repeat(16) }] }),
    )
    expect(put.status).toBe(422)
    expect(put.json.error.message).toBe(
      "127.0.0.1 is this computer's own address, not a public one. Only public addresses are allowed: the owner can allow the local network in Settings → Notification targets.",
    )
    expect((await server.call(server.alice.token, 'GET', PATH)).json.channels).toEqual([])
  })

  it('refuses bad input clearly: unknown fields, a bad time, a bad time zone, a webhook with no secret', async () => {
    for (const bad of [
      body({ extra: 1 }),
      body({ quietHours: { from: '25:00', to: '07:00' } }),
      body({ timeZone: 'Mars/Olympus' }),
      body({ minUnread: 0 }),
      body({ channels: [{ kind: 'webhook', url: 'https://example.com/h' }] }),
      body({ channels: [{ kind: 'sms', url: 'https://example.com/h' }] }),
    ]) {
      const put = await server.call(server.alice.token, 'PUT', PATH, bad)
      expect(put.status, JSON.stringify(bad)).toBe(422)
    }
  })

  it('keeps channels, rules and secrets per Reader, never shows a secret, and keeps one left out of a PUT by id', async () => {
    await writeSettings(server.store.db, { notifyTargets: 'local-network' })
    const keys = subscriptionKeys()
    const put = await server.call(
      server.alice.token,
      'PUT',
      PATH,
      body({
        channels: [
          { kind: 'webhook', url: hook.url, secret: 'webhook-secret-0123' },
          { kind: 'ntfy', url: 'https://ntfy.example/topic', token: 'tk_secret' },
          { kind: 'webpush', endpoint: 'https://push.example/sub/1', keys: { p256dh: keys.p256dh, auth: keys.auth } },
        ],
        minUnread: 3,
        quietHours: { from: '22:00', to: '07:00' },
        timeZone: 'Europe/Paris',
        muted: [{ site: 'a', seriesId: 'one' }],
      }),
    )
    expect(put.status).toBe(200)
    expect(JSON.stringify(put.json)).not.toMatch(/webhook-secret|tk_secret/)
    expect(put.json).toMatchObject({
      minUnread: 3,
      quietHours: { from: '22:00', to: '07:00' },
      timeZone: 'Europe/Paris',
      targets: 'local-network',
    })
    expect(put.json.channels.map((c: { kind: string; hasSecret: boolean }) => [c.kind, c.hasSecret])).toEqual([
      ['webhook', true],
      ['ntfy', true],
      ['webpush', true],
    ])
    expect((await server.call(server.bob.token, 'GET', PATH)).json.channels).toEqual([])
    // Sent back by id without its secret: the secret stays; the others are removed.
    const webhook = put.json.channels[0]
    const back = await server.call(
      server.alice.token,
      'PUT',
      PATH,
      body({ channels: [{ kind: 'webhook', id: webhook.id, url: hook.url }] }),
    )
    expect(back.json.channels).toEqual([expect.objectContaining({ id: webhook.id, hasSecret: true })])
    const test = await server.call(server.alice.token, 'POST', `${PATH}/test`)
    expect(test.json.results).toEqual([{ channelId: webhook.id, kind: 'webhook', ok: true }])
    const sent = hook.requests.at(-1)!
    expect(JSON.parse(sent.body.toString())).toMatchObject({ reader: 'alice', newChapters: [{ title: 'Manga Bookmark test message' }] })
  })

  it('shows a channel that keeps failing, with the reason', async () => {
    await writeSettings(server.store.db, { notifyTargets: 'local-network' })
    await server.call(server.bob.token, 'PUT', PATH, body({ channels: [{ kind: 'webhook', url: hook.url, secret: 'bob-secret-0123456' }] }))
    hook.status = 500
    for (let i = 0; i < 3; i++) {
      const test = await server.call(server.bob.token, 'POST', `${PATH}/test`)
      expect(test.json.results[0]).toMatchObject({ ok: false, error: 'the target answered with an error (5xx)' })
      // A test right after another is refused: no Reader floods a target through the app.
      expect((await server.call(server.bob.token, 'POST', `${PATH}/test`)).status).toBe(429)
      await server.clock.advance(5_000)
    }
    hook.status = 200
    const [channel] = (await server.call(server.bob.token, 'GET', PATH)).json.channels
    expect(channel).toMatchObject({ failing: true, failures: 3, lastError: 'the target answered with an error (5xx)' })
    // The owner's window lists it with the Reader's name (admin `notifications`).
    expect((await failingChannels(server.store.db, FAILING_AFTER)).map((c) => [c.name, c.last_error])).toEqual([
      ['bob', 'the target answered with an error (5xx)'],
    ])
  })

  it('is in the OpenAPI document', async () => {
    const doc = (await server.call(null, 'GET', '/api/v1/openapi.json')).json
    expect(Object.keys(doc.paths[PATH])).toEqual(['get', 'put'])
    expect(doc.paths[`${PATH}/test`].post.summary).toMatch(/test message/)
  })
})

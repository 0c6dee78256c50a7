import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAILING_AFTER } from '../notify/notifier'
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
    expect(put.json.error.message).toMatch(/channels\.0\.url: 127\.0\.0\.1 is a loopback, link-local or private address/)
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
      expect(test.json.results[0]).toMatchObject({ ok: false, error: 'HTTP 500: ok' })
    }
    hook.status = 200
    const [channel] = (await server.call(server.bob.token, 'GET', PATH)).json.channels
    expect(channel).toMatchObject({ failing: true, failures: 3, lastError: 'HTTP 500: ok' })
    // The owner's window lists it with the Reader's name (admin `notifications`).
    expect((await failingChannels(server.store.db, FAILING_AFTER)).map((c) => [c.name, c.last_error])).toEqual([['bob', 'HTTP 500: ok']])
  })

  it('is in the OpenAPI document', async () => {
    const doc = (await server.call(null, 'GET', '/api/v1/openapi.json')).json
    expect(Object.keys(doc.paths[PATH])).toEqual(['get', 'put'])
    expect(doc.paths[`${PATH}/test`].post.summary).toMatch(/test message/)
  })
})

/** A Reader's devices on the sync API (docs/adr/0126): the list, ending one, and what a token may reach. Real HTTP. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'
import { addDeviceToken } from '../use-cases/reader-tokens'

let s: TestSyncServer
beforeEach(async () => {
  s = await startTestSyncServer()
})
afterEach(() => s.close())

describe('GET and DELETE /api/v1/devices', () => {
  it("lists the Reader's devices, marks the one asking, and notes it as seen", async () => {
    const tablet = await addDeviceToken(s.store.db, { readerId: s.alice.id, name: 'Tablet', now: s.clock.now() })
    const r = await s.call(tablet.token, 'GET', '/api/v1/devices')
    expect(r.status).toBe(200)
    expect(r.json.devices).toEqual([
      expect.objectContaining({ name: 'First device', current: false, lastSeenAt: 0 }),
      expect.objectContaining({ name: 'Tablet', current: true, lastSeenAt: s.clock.now() }),
    ])
  })

  it('ending a device ends its token alone; another Reader cannot end it, nor see it', async () => {
    const tablet = await addDeviceToken(s.store.db, { readerId: s.alice.id, now: s.clock.now() })
    const bobs = await s.call(s.bob.token, 'GET', '/api/v1/devices')
    expect(bobs.json.devices.map((d: { id: number }) => d.id)).not.toContain(tablet.device.id)
    expect((await s.call(s.bob.token, 'DELETE', `/api/v1/devices/${tablet.device.id}`)).status).toBe(404)
    expect((await s.call(tablet.token, 'GET', '/api/v1/me')).status).toBe(200)
    expect((await s.call(s.alice.token, 'DELETE', `/api/v1/devices/${tablet.device.id}`)).status).toBe(204)
    expect((await s.call(tablet.token, 'GET', '/api/v1/me')).status).toBe(401)
    expect((await s.call(s.alice.token, 'GET', '/api/v1/me')).status).toBe(200)
  })

  it('refuses a malformed id, and a call with no token', async () => {
    expect((await s.call(s.alice.token, 'DELETE', '/api/v1/devices/abc')).status).toBe(422)
    expect((await s.call(null, 'GET', '/api/v1/devices')).status).toBe(401)
  })
})

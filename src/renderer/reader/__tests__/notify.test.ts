import { describe, expect, it } from 'vitest'
import { keptChannel, pushUnavailable } from '../useNotify'

const nav = (sw: boolean) => (sw ? { serviceWorker: {} } : {}) as unknown as Navigator
const win = (secure: boolean, origin: string, push = true) =>
  ({ isSecureContext: secure, location: { origin }, ...(push ? { PushManager: class {} } : {}) }) as unknown as Window

describe('Notify me on this device', () => {
  it('says, on a plain-HTTP LAN address, that push needs a secure address, and what to do', () => {
    const why = pushUnavailable(win(false, 'http://192.168.1.5:4711'), nav(true))
    expect(why).toMatch(/need a secure address, and http:\/\/192\.168\.1\.5:4711 is not one/)
    expect(why).toMatch(/https address/)
    expect(why).toMatch(/ntfy/)
  })

  it('offers push on a secure origin (loopback counts) when the browser has it, and says so when it has not', () => {
    expect(pushUnavailable(win(true, 'http://127.0.0.1:4711'), nav(true))).toBeNull()
    expect(pushUnavailable(win(true, 'https://manga.home'), nav(false))).toMatch(/cannot receive push/)
    expect(pushUnavailable(win(true, 'https://manga.home', false), nav(true))).toMatch(/cannot receive push/)
  })

  it('sends a channel back by id, so the server keeps its secret and keys', () => {
    const base = { hasSecret: true, failing: false, failures: 0, lastError: '', lastErrorAt: 0, lastOkAt: 0 }
    expect(keptChannel({ ...base, id: 3, kind: 'webpush', url: 'https://push.example/1' })).toEqual({
      kind: 'webpush',
      id: 3,
      endpoint: 'https://push.example/1',
    })
    expect(keptChannel({ ...base, id: 4, kind: 'webhook', url: 'https://hook.example/' })).toEqual({
      kind: 'webhook',
      id: 4,
      url: 'https://hook.example/',
    })
  })
})

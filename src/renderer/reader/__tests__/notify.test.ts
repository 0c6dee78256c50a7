import { describe, expect, it } from 'vitest'
import { keptChannel } from '../../../shared/channel-inputs'
import { newTopic, ntfyAppLink, plainRefusal, pushUnavailable } from '../useNotify'

const nav = (sw: boolean) => (sw ? { serviceWorker: {} } : {}) as unknown as Navigator
const win = (secure: boolean, origin: string, push = true) =>
  ({ isSecureContext: secure, location: { origin }, ...(push ? { PushManager: class {} } : {}) }) as unknown as Window

describe('Notify me on this device', () => {
  it('says, on a plain-HTTP LAN address, that push needs a secure address, and what to do', () => {
    const why = pushUnavailable(win(false, 'http://192.168.1.5:4711'), nav(true))
    expect(why).toMatch(/only over https .* and http:\/\/192\.168\.1\.5:4711 is plain http/)
    expect(why).toMatch(/ntfy app works from any address/)
  })

  it('offers push on a secure origin (loopback counts) when the browser has it, and says so when it has not', () => {
    expect(pushUnavailable(win(true, 'http://127.0.0.1:4711'), nav(true))).toBeNull()
    expect(pushUnavailable(win(true, 'https://manga.home'), nav(false))).toMatch(/cannot receive notifications from a page/)
    expect(pushUnavailable(win(true, 'https://manga.home', false), nav(true))).toMatch(/cannot receive notifications from a page/)
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

describe('the phone path through ntfy', () => {
  it('makes a topic nobody can guess: 128 random bits, URL-safe, a new one each time', () => {
    const topic = newTopic()
    expect(topic).toMatch(/^mb-[a-z2-7]{26}$/)
    expect(newTopic()).not.toBe(topic)
    expect(newTopic((b) => b.fill(0))).toBe(`mb-${'a'.repeat(26)}`)
    expect(newTopic((b) => b.fill(255))).toBe(`mb-${'7'.repeat(25)}4`)
  })

  it('opens the ntfy app subscribed to the topic, over http when the server is on plain http', () => {
    expect(ntfyAppLink('https://ntfy.sh/mb-abc')).toBe('ntfy://ntfy.sh/mb-abc')
    expect(ntfyAppLink('http://192.168.1.9:8080/mb-abc')).toBe('ntfy://192.168.1.9:8080/mb-abc?secure=false')
    expect(ntfyAppLink('https://home.example/ntfy/mb-abc/')).toBe('ntfy://home.example/ntfy/mb-abc')
    expect(ntfyAppLink('not a url')).toBeNull()
  })

  it('says a refusal as a sentence, without a schema path in front', () => {
    expect(plainRefusal('channels.0.url: Invalid URL')).toBe('Invalid URL')
    expect(plainRefusal('minUnread: too small')).toBe('Too small')
    expect(plainRefusal('A new webhook needs a signing secret of 16 characters or more.')).toBe(
      'A new webhook needs a signing secret of 16 characters or more.',
    )
  })
})

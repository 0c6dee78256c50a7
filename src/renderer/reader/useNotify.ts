/**
 * The Readers' page's notifications (docs/adr/0074-…): the Reader's channels and rules, and "Notify me on this
 * device" — a Web Push subscription made with the install's VAPID key and stored as a channel. Push needs a
 * secure origin (https, or this machine's own address): on any other the page says so and what to do. The only
 * caller of the notification routes.
 */
import { ref } from 'vue'
import type { ChannelKind } from '../../shared/channel-kinds'
import { keptChannel } from '../../shared/channel-inputs'
import type { ChannelInput, NotificationsBody, NotificationsView } from '../../shared/notify-schemas'
import { ApiError, createApi } from './api'

/** Why this device cannot be notified by push, in words with what to do; null when it can. */
export function pushUnavailable(
  win: Pick<Window, 'isSecureContext' | 'location'> & { PushManager?: unknown },
  nav: Navigator,
): string | null {
  if (!win.isSecureContext)
    return (
      `Browsers allow notifications from a page only over https (or on the computer running the app), and ${win.location.origin} is plain http. ` +
      'The ntfy app works from any address: set it up below in one step.'
    )
  if (!('serviceWorker' in nav) || !win.PushManager)
    return 'This browser cannot receive notifications from a page. The ntfy app can: set it up below in one step.'
  return null
}

/** Where a problem is shown: beside the control it is about. */
export type ProblemPlace = 'device' | 'ntfy' | 'add' | 'channels' | 'rules' | 'mute' | 'test'

/** A new ntfy topic for a Reader: 128 random bits, so nobody can guess it and read the Reader's messages. */
export function newTopic(random: (bytes: Uint8Array<ArrayBuffer>) => void = (b) => void crypto.getRandomValues(b)): string {
  const bytes = new Uint8Array(16)
  random(bytes)
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31]
  return `mb-${out}`
}

/**
 * The ntfy app's own link to a topic (docs.ntfy.sh, "ntfy:// links"): `ntfy://host/topic`, with `?secure=false` for
 * a server on plain http. It opens the app subscribed to the topic; the web address opens ntfy's web app.
 */
export function ntfyAppLink(topicUrl: string): string | null {
  try {
    const url = new URL(topicUrl)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
    const path = url.pathname.replace(/\/$/, '')
    return `ntfy://${url.host}${path}${url.protocol === 'http:' ? '?secure=false' : ''}`
  } catch {
    return null
  }
}

/** A refusal as a sentence: any schema path in front (`channels.0.url: `) dropped, a capital first. */
export function plainRefusal(message: string): string {
  const text = message.replace(/^(?:[\w-]+\.)*[\w-]+: (?=\S)/, '')
  return text ? text[0]!.toUpperCase() + text.slice(1) : message
}

/**
 * The problem of the panel, said at the place of the action that met it: each action names its place (`at`)
 * before it calls the app, and `attempt` shows a refusal there as a sentence.
 */
function problemsByPlace() {
  const problem = ref<{ place: ProblemPlace; text: string } | null>(null)
  let place: ProblemPlace = 'channels'
  const attempt = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    problem.value = null
    try {
      return await work()
    } catch (error) {
      const text =
        error instanceof ApiError
          ? plainRefusal(error.message)
          : `Could not reach the app (${(error as Error).message}); check that this device is on the same network, then try again.`
      problem.value = { place, text }
      return undefined
    }
  }
  const at = (where: ProblemPlace) => {
    place = where
  }
  return { problem, attempt, at }
}

type PushSubscriptionJson = { endpoint: string; keys: { p256dh: string; auth: string } }

/** This device's push subscription, or the words for why the browser (its permission or its push service) said no. */
async function subscribeThisDevice(vapidPublicKey: string): Promise<PushSubscriptionJson | { refused: string }> {
  if ((await Notification.requestPermission()) !== 'granted') {
    return { refused: 'Notifications are blocked for this page: allow them in the browser’s site settings, then try again.' }
  }
  try {
    const registration = await navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)
    const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: vapidPublicKey })
    return subscription.toJSON() as PushSubscriptionJson
  } catch (error) {
    // The app was reached; the browser or its push service said no.
    return {
      refused: `This browser's push service refused to subscribe this device (${(error as Error).message}). The ntfy app below works instead.`,
    }
  }
}

export function useNotify(token: () => string | null) {
  const api = createApi(token)
  const view = ref<NotificationsView | null>(null)
  /** This device's push endpoint, when it is subscribed. */
  const deviceEndpoint = ref<string | null>(null)
  const tested = ref<Array<{ kind: ChannelKind; ok: boolean; error?: string }> | null>(null)
  const { problem, attempt, at } = problemsByPlace()
  const bodyWith = (channels: ChannelInput[], over: Partial<NotificationsBody> = {}): NotificationsBody => ({
    channels,
    minUnread: view.value?.minUnread ?? 1,
    quietHours: view.value?.quietHours ?? null,
    timeZone: view.value?.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone,
    muted: view.value?.muted ?? [],
    ...over,
  })
  const kept = () => (view.value?.channels ?? []).map(keptChannel)
  const put = async (body: NotificationsBody) => {
    const value = await attempt(() => api.putNotifications(body))
    if (value) view.value = value
    return Boolean(value)
  }

  async function refresh() {
    at('channels')
    const value = await attempt(() => api.notifications())
    if (value) view.value = value
    const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined
    deviceEndpoint.value = (await registration?.pushManager?.getSubscription())?.endpoint ?? null
  }

  async function notifyThisDevice(): Promise<boolean> {
    at('device')
    if (!view.value) await refresh()
    if (!view.value) return false
    at('device')
    const json = await subscribeThisDevice(view.value.vapidPublicKey)
    if ('refused' in json) {
      problem.value = { place: 'device', text: json.refused }
      return false
    }
    const others = kept().filter((c) => !(c.kind === 'webpush' && c.endpoint === json.endpoint))
    const done = await put(bodyWith([...others, { kind: 'webpush', endpoint: json.endpoint, keys: json.keys }]))
    if (done) deviceEndpoint.value = json.endpoint
    return done
  }

  /** One step: a new unguessable topic on the owner's ntfy server, stored as this Reader's ntfy channel. */
  async function setUpNtfy(): Promise<string | null> {
    at('ntfy')
    if (!view.value) await refresh()
    if (!view.value) return null
    at('ntfy')
    const url = `${view.value.ntfyServer.replace(/\/+$/, '')}/${newTopic()}`
    return (await put(bodyWith([...kept(), { kind: 'ntfy', url }]))) ? url : null
  }

  async function stopThisDevice(): Promise<void> {
    at('device')
    const registration = await navigator.serviceWorker.getRegistration()
    const subscription = await registration?.pushManager.getSubscription()
    const endpoint = subscription?.endpoint ?? deviceEndpoint.value
    await subscription?.unsubscribe().catch(() => undefined)
    if (await put(bodyWith(kept().filter((c) => !(c.kind === 'webpush' && c.endpoint === endpoint))))) deviceEndpoint.value = null
  }

  return {
    view,
    deviceEndpoint,
    problem,
    tested,
    refresh,
    notifyThisDevice,
    stopThisDevice,
    setUpNtfy,
    addChannel: (channel: ChannelInput) => (at('add'), put(bodyWith([...kept(), channel]))),
    removeChannel: (id: number) => (at('channels'), put(bodyWith(kept().filter((c) => c.id !== id)))),
    saveRules: (rules: Pick<NotificationsBody, 'minUnread' | 'quietHours'>) => (at('rules'), put(bodyWith(kept(), rules))),
    setMuted: (muted: NotificationsBody['muted']) => (at('mute'), put(bodyWith(kept(), { muted }))),
    async test() {
      at('test')
      tested.value = (await attempt(() => api.testNotifications()))?.results ?? null
    },
  }
}

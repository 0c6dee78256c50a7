/**
 * The Readers' page's notifications (docs/adr/0074-…): the Reader's channels and rules, and "Notify me on this
 * device" — a Web Push subscription made with the install's VAPID key and stored as a channel. Push needs a
 * secure origin (https, or this machine's own address): on any other the page says so and what to do. The only
 * caller of the notification routes.
 */
import { ref } from 'vue'
import type { ChannelInput, ChannelView, NotificationsBody, NotificationsView } from '../../shared/notify-schemas'
import { ApiError, createApi } from './api'

/** Why this device cannot be notified by push, in words with what to do; null when it can. */
export function pushUnavailable(
  win: Pick<Window, 'isSecureContext' | 'location'> & { PushManager?: unknown },
  nav: Navigator,
): string | null {
  if (!win.isSecureContext)
    return (
      `Notifications on this device need a secure address, and ${win.location.origin} is not one: browsers allow push only over https ` +
      'or on the computer running the app (localhost). Ask the owner for an https address (a reverse proxy with a certificate), or use ntfy below: its app works from any address.'
    )
  if (!('serviceWorker' in nav) || !win.PushManager) return 'This browser cannot receive push messages. Use ntfy below instead.'
  return null
}

/** A channel sent back unchanged: its id keeps its secret and keys. */
export function keptChannel(c: ChannelView): ChannelInput {
  return c.kind === 'webpush' ? { kind: 'webpush', id: c.id, endpoint: c.url } : { kind: c.kind, id: c.id, url: c.url }
}

export function useNotify(token: () => string | null) {
  const api = createApi(token)
  const view = ref<NotificationsView | null>(null)
  /** This device's push endpoint, when it is subscribed. */
  const deviceEndpoint = ref<string | null>(null)
  const problem = ref<string | null>(null)
  const tested = ref<Array<{ kind: string; ok: boolean; error?: string }> | null>(null)

  const attempt = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    problem.value = null
    try {
      return await work()
    } catch (error) {
      problem.value = error instanceof ApiError ? error.message : `could not reach the app: ${(error as Error).message}`
      return undefined
    }
  }
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
    const value = await attempt(() => api.notifications())
    if (value) view.value = value
    const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined
    deviceEndpoint.value = (await registration?.pushManager?.getSubscription())?.endpoint ?? null
  }

  async function notifyThisDevice(): Promise<boolean> {
    if (!view.value) await refresh()
    if (!view.value) return false
    if ((await Notification.requestPermission()) !== 'granted') {
      problem.value = 'Notifications are blocked for this page: allow them in the browser’s site settings, then try again.'
      return false
    }
    const registration = await navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)
    const subscription = await attempt(() =>
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: view.value!.vapidPublicKey }),
    )
    if (!subscription) return false
    const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } }
    const others = kept().filter((c) => !(c.kind === 'webpush' && c.endpoint === json.endpoint))
    const done = await put(bodyWith([...others, { kind: 'webpush', endpoint: json.endpoint, keys: json.keys }]))
    if (done) deviceEndpoint.value = json.endpoint
    return done
  }

  async function stopThisDevice(): Promise<void> {
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
    addChannel: (channel: ChannelInput) => put(bodyWith([...kept(), channel])),
    removeChannel: (id: number) => put(bodyWith(kept().filter((c) => c.id !== id))),
    saveRules: (rules: Pick<NotificationsBody, 'minUnread' | 'quietHours'>) => put(bodyWith(kept(), rules)),
    setMuted: (muted: NotificationsBody['muted']) => put(bodyWith(kept(), { muted })),
    async test() {
      tested.value = (await attempt(() => api.testNotifications()))?.results ?? null
    },
  }
}

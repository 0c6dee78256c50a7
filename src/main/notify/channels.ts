/**
 * What each kind of channel sends for a digest: a webhook a JSON POST signed with HMAC-SHA256 of its own secret,
 * ntfy a plain-text publish to the topic URL, Web Push an encrypted payload (aes128gcm, by the `web-push`
 * package) for the Readers' page's service worker. No token of the app's is ever in a message.
 */
import { createHmac } from 'node:crypto'
import webpush from 'web-push'
import type { NotifyChannelRow } from '../store/schema'
import { digestText, type Digest } from './digest'
import type { SendRequest } from './send'
import type { VapidKeys } from './vapid'

export const SIGNATURE_HEADER = 'x-manga-bookmark-signature'
export const DELIVERY_HEADER = 'x-manga-bookmark-delivery'
const USER_AGENT = 'MangaBookmark-notify/1'
/** A push payload must stay under 4 KiB once encrypted. */
const MAX_PUSH_PAYLOAD = 3_000

export interface ChannelSecret {
  /** ntfy: the access token. */
  token?: string
  /** webhook: the HMAC key. */
  secret?: string
  /** webpush: the subscription's keys. */
  p256dh?: string
  auth?: string
}

export function readSecret(raw: string): ChannelSecret {
  try {
    return (JSON.parse(raw) as ChannelSecret | null) ?? {}
  } catch {
    return {}
  }
}

/** The webhook body: `reader` and `newChapters` (the issue's contract), the line, and the delivery's id. */
export function webhookBody(digest: Digest, deliveryId: string): string {
  const { body } = digestText(digest)
  return JSON.stringify({ id: deliveryId, reader: digest.reader, text: body, newChapters: digest.newChapters })
}

/**
 * How long a receiver should accept a signed webhook after its timestamp (and before it, for a clock a little
 * ahead): a copy replayed later is refused by its signature; inside the window, by its delivery id.
 */
export const SIGNATURE_WINDOW_S = 300

/**
 * The webhook's signature (docs/notifications.md#webhook): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw
 * body>" under the channel's secret>`. The timestamp is signed with the body, so a receiver that checks it
 * against its clock refuses a replay older than SIGNATURE_WINDOW_S. Signed at each try (the id stays).
 */
export function signature(secret: string, body: string, now: number): string {
  const t = Math.floor(now / 1000)
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`
}

const ascii = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text : '')

/** The push payload the service worker shows: as many chapters as fit. */
export function pushPayload(digest: Digest): string {
  const { title, body } = digestText(digest)
  let chapters = digest.newChapters
  for (;;) {
    const payload = JSON.stringify({ title, body, url: chapters[0]?.chapterUrl ?? '', chapters })
    if (payload.length <= MAX_PUSH_PAYLOAD || chapters.length === 0) return payload.slice(0, MAX_PUSH_PAYLOAD)
    chapters = chapters.slice(0, Math.floor(chapters.length / 2))
  }
}

/** The request a channel makes for a digest. */
export function channelRequest(
  channel: NotifyChannelRow,
  digest: Digest,
  deliveryId: string,
  vapid: () => VapidKeys,
  now: number,
): SendRequest {
  const secret = readSecret(channel.secret)
  const base = { 'user-agent': USER_AGENT, [DELIVERY_HEADER]: deliveryId }
  if (channel.kind === 'webhook') {
    const body = webhookBody(digest, deliveryId)
    return {
      url: channel.target,
      headers: { ...base, 'content-type': 'application/json', [SIGNATURE_HEADER]: signature(secret.secret ?? '', body, now) },
      body,
    }
  }
  if (channel.kind === 'ntfy') {
    const { title } = digestText(digest)
    const lines = digest.newChapters.map((c) => `${c.title || c.seriesId} — ${c.label || c.chapter}: ${c.chapterUrl}`)
    const click = ascii(digest.newChapters[0]?.chapterUrl ?? '')
    return {
      url: channel.target,
      headers: {
        ...base,
        'content-type': 'text/plain; charset=utf-8',
        title,
        tags: 'books',
        ...(click ? { click } : {}),
        ...(secret.token ? { authorization: `Bearer ${secret.token}` } : {}),
      },
      body: lines.join('\n'),
    }
  }
  const keys = vapid()
  const details = webpush.generateRequestDetails(
    { endpoint: channel.target, keys: { p256dh: secret.p256dh ?? '', auth: secret.auth ?? '' } },
    pushPayload(digest),
    {
      vapidDetails: { subject: 'mailto:owner@manga-bookmark.invalid', publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 86_400,
    },
  )
  return { url: details.endpoint, headers: { ...base, ...(details.headers as Record<string, string>) }, body: details.body as Buffer }
}

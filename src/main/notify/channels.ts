/**
 * What each kind of channel sends for a digest: a webhook a JSON POST signed with HMAC-SHA256 of its own secret,
 * ntfy a plain-text publish to the topic URL, Web Push an encrypted payload (aes128gcm, by the `web-push`
 * package) for the Readers' page's service worker. No token of the app's is ever in a message.
 */
import { createHmac } from 'node:crypto'
import { isChannelKind, type ChannelKind } from '../../shared/channel-kinds'
import { AppError } from '../../shared/errors'
import type { NotifyChannelRow } from '../store/schema'
import { digestText, pushNotices, type Digest } from './digest'
import type { SendRequest } from './send'
import { STAND_IN_SUBJECT, type VapidKeys } from './vapid'
import { webpush } from './web-push'

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
  const { title, body } = digestText(digest)
  const text = [title, body].filter(Boolean).join('\n')
  return JSON.stringify({ id: deliveryId, reader: digest.reader, text, newChapters: digest.newChapters })
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

/**
 * A header value as ntfy reads it: ASCII as is, anything else as an RFC 2047 encoded word (ntfy 2.4 and later
 * decode it; a raw non-Latin-1 header cannot even be sent).
 */
export function headerText(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ')
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`
}

/** A URL as a header can carry it (percent-encoded), or '' when it is not one. */
function headerUrl(raw: string): string {
  try {
    const href = new URL(raw).href
    return /^[\x20-\x7e]*$/.test(href) ? href : ''
  } catch {
    return ''
  }
}

/** The push payload the service worker shows: its notifications (one per Series), and the digest's words. */
export function pushPayload(digest: Digest): string {
  const { title, body } = digestText(digest)
  let notices = pushNotices(digest)
  for (;;) {
    const payload = JSON.stringify({ title, body, url: notices[0]?.url ?? '', tag: notices[0]?.tag ?? 'mb-new-chapters', notices })
    if (payload.length <= MAX_PUSH_PAYLOAD || notices.length === 0) return payload.slice(0, MAX_PUSH_PAYLOAD)
    notices = notices.slice(0, -1)
  }
}

/** What a channel of one kind sends, and whether an answer says the channel itself is gone. */
interface ChannelSender {
  request(
    channel: NotifyChannelRow,
    digest: Digest,
    base: Record<string, string>,
    how: { deliveryId: string; vapid: () => VapidKeys; now: number },
  ): SendRequest
  /** An answer that means the target no longer exists (a push subscription ended): the channel is removed. */
  gone(status: number): boolean
}

const never = () => false

/** One sender per kind (shared/channel-kinds.ts): a new kind is a compile error here until it has one. */
export const CHANNEL_SENDERS: Record<ChannelKind, ChannelSender> = {
  webhook: {
    request(channel, digest, base, { deliveryId, now }) {
      const body = webhookBody(digest, deliveryId)
      const key = readSecret(channel.secret).secret ?? ''
      return {
        url: channel.target,
        headers: { ...base, 'content-type': 'application/json', [SIGNATURE_HEADER]: signature(key, body, now) },
        body,
      }
    },
    gone: never,
  },
  ntfy: {
    request(channel, digest, base) {
      const { title, body } = digestText(digest)
      const click = headerUrl(digest.newChapters[0]?.chapterUrl ?? '')
      const token = readSecret(channel.secret).token
      return {
        url: channel.target,
        headers: {
          ...base,
          'content-type': 'text/plain; charset=utf-8',
          title: headerText(title),
          tags: 'books',
          ...(click ? { click } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body,
      }
    },
    gone: never,
  },
  webpush: {
    request(channel, digest, base, { vapid }) {
      const secret = readSecret(channel.secret)
      const keys = vapid()
      const details = webpush().generateRequestDetails(
        { endpoint: channel.target, keys: { p256dh: secret.p256dh ?? '', auth: secret.auth ?? '' } },
        pushPayload(digest),
        {
          vapidDetails: { subject: keys.subject || STAND_IN_SUBJECT, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: 86_400,
        },
      )
      return { url: details.endpoint, headers: { ...base, ...(details.headers as Record<string, string>) }, body: details.body as Buffer }
    },
    gone: (status) => status === 404 || status === 410,
  },
}

/** The sender of a stored channel's kind; a kind this version does not know fails with words, never as another kind. */
export function senderOf(channel: Pick<NotifyChannelRow, 'kind'>): ChannelSender {
  if (!isChannelKind(channel.kind)) throw new AppError('invalid', `a channel of a kind this version does not know ("${channel.kind}")`)
  return CHANNEL_SENDERS[channel.kind]
}

/** The request a channel makes for a digest. */
export function channelRequest(
  channel: NotifyChannelRow,
  digest: Digest,
  deliveryId: string,
  vapid: () => VapidKeys,
  now: number,
): SendRequest {
  const base = { 'user-agent': USER_AGENT, [DELIVERY_HEADER]: deliveryId }
  return senderOf(channel).request(channel, digest, base, { deliveryId, vapid, now })
}

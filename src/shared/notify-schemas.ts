/**
 * The notification settings' schemas (docs/adr/0074-a-durable-outbox-for-notifications.md): what a Reader PUTs
 * to `/api/v1/me/notifications` and what GET answers, and the owner's channels in the admin contract. Unknown
 * fields are refused. A secret (a webhook's key, an ntfy token) is written, never shown back.
 */
import { z } from 'zod'
import { CHANNEL_KINDS, type ChannelKind } from './channel-kinds'
import { HttpUrl, SiteKey, StoredSeriesId } from './ids'

const millis = z.number().int().min(0).max(8_640_000_000_000)
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time as HH:MM')
const base64url = z.string().regex(/^[A-Za-z0-9_-]{10,200}={0,2}$/, 'base64url')
/** A channel's id, to keep its secret and its state when it comes back unchanged. */
const channelId = z.number().int().positive().optional()

export const ChannelInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('webpush'),
    id: channelId,
    /** The push subscription, as the browser's `PushSubscription.toJSON()` gives it. */
    endpoint: HttpUrl,
    /** Needed for a new subscription; kept when an existing one (by id) is sent back without them. */
    keys: z.strictObject({ p256dh: base64url, auth: base64url }).optional(),
  }),
  z.strictObject({
    kind: z.literal('ntfy'),
    id: channelId,
    /** The topic's URL, e.g. https://ntfy.sh/my-secret-topic. */
    url: HttpUrl,
    /** An access token for a protected topic (sent as `Authorization: Bearer`). */
    token: z.string().min(1).max(200).optional(),
  }),
  z.strictObject({
    kind: z.literal('webhook'),
    id: channelId,
    url: HttpUrl,
    /** The HMAC-SHA256 key of the `X-Manga-Bookmark-Signature` header; needed for a new webhook, kept when left out. */
    secret: z.string().min(16).max(200).optional(),
  }),
])
export type ChannelInput = z.infer<typeof ChannelInput>
/** Every kind has its input schema, and no input is of a kind the descriptors do not know. */
export const CHANNEL_INPUT_KINDS_AGREE: [ChannelInput['kind']] extends [ChannelKind]
  ? [ChannelKind] extends [ChannelInput['kind']]
    ? true
    : never
  : never = true

export const QuietHours = z.strictObject({ from: hhmm, to: hhmm }).nullable()

export const NotificationsBody = z.strictObject({
  channels: z.array(ChannelInput).max(10),
  /** Tell me of a Series once this many chapters are unread. */
  minUnread: z.number().int().min(1).max(1_000),
  /** Nothing is sent from `from` to `to` (may span midnight); what comes meanwhile is sent as one message after. */
  quietHours: QuietHours,
  /** The IANA time zone of the quiet hours (default: the machine's). */
  timeZone: z
    .string()
    .max(64)
    .refine((tz) => tz === '' || validTimeZone(tz), { message: 'an IANA time zone such as Europe/Paris' })
    .optional(),
  muted: z.array(z.strictObject({ site: SiteKey, seriesId: StoredSeriesId })).max(5_000),
})
export type NotificationsBody = z.infer<typeof NotificationsBody>

export const ChannelView = z.strictObject({
  id: z.number().int(),
  kind: z.enum(CHANNEL_KINDS),
  /** Where it sends: the webhook or topic URL; for Web Push the push service's endpoint. */
  url: z.string(),
  /** A secret or token is set (never shown). */
  hasSecret: z.boolean(),
  /** Failed FAILING_AFTER times or more in a row; `lastError` says why. */
  failing: z.boolean(),
  failures: z.number().int(),
  lastError: z.string(),
  lastErrorAt: millis,
  lastOkAt: millis,
})
export type ChannelView = z.infer<typeof ChannelView>

export const NotificationsView = z.strictObject({
  channels: z.array(ChannelView),
  minUnread: z.number().int(),
  quietHours: QuietHours,
  timeZone: z.string(),
  muted: z.array(z.strictObject({ site: z.string(), seriesId: z.string() })),
  /** The install's VAPID public key, for `pushManager.subscribe({ applicationServerKey })`. */
  vapidPublicKey: z.string(),
  /** Settings → Notification targets: whether local-network URLs are allowed. */
  targets: z.enum(['public', 'local-network']),
  /** Settings → ntfy server: where a phone without Web Push is led (`<server>/<topic>`). */
  ntfyServer: z.string(),
  /** Whether the owner gave a contact for push services (Settings); Apple's refuses pushes without one. */
  pushContact: z.boolean(),
})
export type NotificationsView = z.infer<typeof NotificationsView>

export const TestResult = z.strictObject({
  channelId: z.number().int(),
  kind: z.enum(CHANNEL_KINDS),
  ok: z.boolean(),
  error: z.string().optional(),
})
export const TestResponse = z.strictObject({ results: z.array(TestResult) })
export type TestResponse = z.infer<typeof TestResponse>

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

/**
 * The owner's settings (docs/design.md#the-owners-window) as a schema. Their defaults are in settings-defaults.ts
 * and the log levels in domain.ts: plain modules, so the window's Settings page never loads zod.
 */
import { z } from 'zod'
import { LOG_LEVELS } from './domain'

export const SettingsSchema = z.strictObject({
  /** The sync endpoint binds loopback unless the owner opts into the LAN. */
  syncBind: z.enum(['loopback', 'lan']),
  syncPort: z.number().int().min(1024).max(65535),
  startAtLogin: z.boolean(),
  notifications: z.boolean(),
  /** How much the log says (docs/adr/0049-logs.md): `debug` shows every check. */
  logLevel: z.enum(LOG_LEVELS),
  /**
   * The most bookmarks one Reader may hold through the sync endpoint: one Reader's made-up Series cannot
   * multiply the app's traffic to a Site without bound (docs/adr/0081-one-reader-bounded.md).
   */
  bookmarksPerReader: z.number().int().min(1).max(100_000),
  /**
   * The household's shelf (docs/adr/0152-the-households-shelf.md): whether a Reader sees the Series the household
   * follows (titles and covers, never another Reader's progress) and may follow one with a tap.
   */
  shelf: z.boolean(),
  /**
   * Where Readers' notification channels may point (docs/adr/0075-notification-targets-are-untrusted.md):
   * `public` addresses only, or the `local-network` too (loopback, private and link-local addresses).
   */
  notifyTargets: z.enum(['public', 'local-network']),
  /**
   * The ntfy server a Reader's phone is led to when Web Push cannot work there (an http address): a public one by
   * default, the owner's own allowed. An http(s) address with no user, query or fragment.
   */
  ntfyServer: z.string().max(200).refine(ntfyServerAllowed, {
    message: 'The ntfy server must be a web address such as https://ntfy.sh, with nothing after the name but a path.',
  }),
  /**
   * The owner's contact for push services (the VAPID subject, RFC 8292): an e-mail address or an https URL; '' until
   * the owner gives one. Apple's push service refuses a made-up one.
   */
  ownerContact: z
    .string()
    .max(200)
    .refine((v) => v === '' || contactSubject(v) !== null, {
      message: 'A contact is an e-mail address (you@example.com) or an https address.',
    }),
})

/** True when `raw` can be an ntfy server's address: http(s), no user, no query or fragment. */
function ntfyServerAllowed(raw: string): boolean {
  try {
    const url = new URL(raw)
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.search && !url.hash
  } catch {
    return false
  }
}

/** The VAPID subject for an owner's contact: `mailto:` an e-mail address, an https URL as it is; null when neither. */
export function contactSubject(contact: string): string | null {
  const value = contact.trim()
  if (/^(mailto:)?[^\s@:/]+@[^\s@/]+\.[^\s@/]+$/i.test(value)) return value.startsWith('mailto:') ? value : `mailto:${value}`
  try {
    return new URL(value).protocol === 'https:' ? value : null
  } catch {
    return null
  }
}

export type Settings = z.infer<typeof SettingsSchema>

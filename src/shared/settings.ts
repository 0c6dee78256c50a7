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
   * Where Readers' notification channels may point (docs/adr/0075-notification-targets-are-untrusted.md):
   * `public` addresses only, or the `local-network` too (loopback, private and link-local addresses).
   */
  notifyTargets: z.enum(['public', 'local-network']),
})

export type Settings = z.infer<typeof SettingsSchema>

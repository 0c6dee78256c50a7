/** The owner's settings (docs/design.md#the-owners-window), with their defaults. */
import { z } from 'zod'

/** The log levels the owner can choose (Settings → Log level); `MB_LOG_LEVEL` overrides it. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

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

export const DEFAULT_SETTINGS: Settings = {
  syncBind: 'loopback',
  syncPort: 4711,
  startAtLogin: false,
  notifications: true,
  logLevel: 'info',
  bookmarksPerReader: 2_000,
  notifyTargets: 'public',
}

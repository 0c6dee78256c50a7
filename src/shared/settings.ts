/** The owner's settings (docs/design.md#the-owners-window), with their defaults. */
import { z } from 'zod'

export const SettingsSchema = z.strictObject({
  /** The sync endpoint binds loopback unless the owner opts into the LAN. */
  syncBind: z.enum(['loopback', 'lan']),
  syncPort: z.number().int().min(1024).max(65535),
  startAtLogin: z.boolean(),
  notifications: z.boolean(),
})

export type Settings = z.infer<typeof SettingsSchema>

export const DEFAULT_SETTINGS: Settings = { syncBind: 'loopback', syncPort: 4711, startAtLogin: false, notifications: true }

/**
 * The owner's settings as they are before the owner changes any. A plain module (no zod), so the window's
 * Settings page can start its form from them without loading the schema library (docs/adr/0098).
 */
import type { Settings } from './settings'

export const DEFAULT_SETTINGS: Settings = {
  syncBind: 'loopback',
  syncPort: 4711,
  startAtLogin: false,
  notifications: true,
  logLevel: 'info',
  bookmarksPerReader: 2_000,
  shelf: true,
  notifyTargets: 'public',
  ntfyServer: 'https://ntfy.sh',
  ownerContact: '',
}

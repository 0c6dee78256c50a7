/** What the preload exposes on `window`, as the renderer sees it. */
import type { AdminResult } from '../shared/admin-api'
import type { AdminMethodName } from '../shared/admin-methods'

export type AdminBridge = { readonly [M in AdminMethodName]: (input: unknown) => Promise<AdminResult<unknown>> }

declare global {
  interface Window {
    mangaBookmark?: {
      readonly shell: 'electron'
      readonly admin: AdminBridge
      /** The main process asks the window to show a Series (a notification was clicked). */
      onOpenSeries(listener: (key: { site: string; seriesId: string }) => void): void
    }
  }
}
export {}

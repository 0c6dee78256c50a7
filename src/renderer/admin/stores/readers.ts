/** The Readers domain: add (the token shown once), rotate, add or end a device, remove, and bookmark a Series for a Reader. */
import { ref } from 'vue'
import type { CheckedBackupView, IssuedTokenView, ReaderView, RestoredView, SeriesRowView, SettingsView } from '../../../shared/admin-api'
import { AppError, type ErrorBody } from '../../../shared/errors'
import type { Settings } from '../../../shared/settings'
import { admin } from '../api'
import { attempt, attemptBeside, splitRefusal } from './problem'

/** What a bookmark by URL answered: the Series, or why not — said next to the field, not in the banner. */
export type BookmarkAnswer = { row: SeriesRowView } | { refused: ErrorBody }

export function useReaders() {
  const readers = ref<ReaderView[]>([])
  /** The token just issued, shown once. */
  const issued = ref<IssuedTokenView | null>(null)
  const refresh = async () => {
    const value = await attempt(() => admin.readers())
    if (value) readers.value = value
  }
  const show = async (token: IssuedTokenView | undefined) => {
    if (!token) return
    issued.value = token
    await refresh()
  }
  return {
    readers,
    issued,
    refresh,
    add: async (name: string) => show(await attempt(() => admin.addReader({ name }))),
    rotate: async (readerId: number) => show(await attempt(() => admin.rotateReaderToken({ readerId }))),
    /** A one-time sign-in for one more device of the Reader (docs/adr/0126): their other devices keep working. */
    addDevice: async (readerId: number) => show(await attempt(() => admin.addReaderDevice({ readerId }))),
    async endDevice(readerId: number, deviceId: number) {
      const value = await attempt(() => admin.endReaderDevice({ readerId, deviceId }))
      if (!value) return false
      readers.value = value
      return true
    },
    async remove(readerId: number) {
      const value = await attempt(() => admin.removeReader({ readerId }))
      if (!value) return false
      readers.value = value
      if (issued.value?.reader.id === readerId) issued.value = null
      return true
    },
    async addBookmark(readerId: number, url: string): Promise<BookmarkAnswer | undefined> {
      let refused: ErrorBody | undefined
      const row = await attempt(async () => {
        try {
          return await admin.addBookmark({ readerId, url })
        } catch (error) {
          // The app answered with a reason about this URL: it belongs next to the field. Anything else (signed
          // out, out of reach) is the window's banner, as for every call.
          if (!(error instanceof AppError) || ['unauthorized', 'offline', 'internal'].includes(error.code)) throw error
          refused = { code: error.code, message: error.message }
          return undefined
        }
      })
      await refresh()
      if (refused) return { refused }
      return row ? { row } : undefined
    },
    /**
     * The Series just bookmarked once its first read has named it (Acquisition runs in the background and takes
     * its turn in the Lane): asked a few times, a second apart; undefined when it has not been read by then.
     */
    async titleOnceRead(key: { site: string; seriesId: string }, tries = 6): Promise<string | undefined> {
      for (let i = 0; i < tries; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        const detail = await admin.seriesDetail({ site: key.site, seriesId: key.seriesId }).catch(() => undefined)
        if (detail?.row.title) return detail.row.title
      }
      return undefined
    },
    /**
     * Turns the local network on from the token screen (no restart: docs/adr/0077) and gives the sign-in link just
     * shown the address a phone can open. False when it could not.
     */
    async letTheNetworkIn() {
      const view = await attempt(() => admin.updateSettings({ syncBind: 'lan' }))
      const shown = issued.value
      if (!view || !shown) return false
      const { url, reachableFromOtherDevices } = view.readersPage
      // The same one-time code (docs/adr/0087) at the address a phone can open: only the host changed.
      const fragment = shown.address.signInUrl.split('#')[1]
      issued.value = { ...shown, address: { url, reachableFromOtherDevices, signInUrl: fragment ? `${url}#${fragment}` : '' } }
      return true
    },
  }
}

export function useSettings() {
  const view = ref<SettingsView | null>(null)
  const refused = ref<{ field: string | null; text: string } | null>(null)
  const backups = ref<CheckedBackupView[] | null>(null)
  return {
    view,
    /** The backups with their verdict (null until read: each is checked once, which takes a moment). */
    backups,
    listBackups: async () => {
      const value = await attempt(() => admin.backups())
      if (value) backups.value = value
    },
    /** Restores a backup over the database while the app runs; what it did, or undefined when it could not. */
    restore: async (file: string): Promise<RestoredView | undefined> => {
      const value = await attempt(() => admin.restoreBackup({ file }))
      if (value && view.value) view.value = { ...view.value, storage: value.storage }
      return value
    },
    refresh: async () => {
      const value = await attempt(() => admin.settings())
      if (value) view.value = value
    },
    /** Why the last save was refused, and the setting it is about (by its key) when the app named one. */
    refused,
    save: async (change: Partial<Settings>) => {
      const raw = ref<string | null>(null)
      let message = ''
      const value = await attemptBeside(async () => {
        try {
          return await admin.updateSettings(change)
        } catch (error) {
          message = (error as Error).message
          throw error
        }
      }, raw)
      const field =
        splitRefusal(message)
          .places.map((p) => p.split('.')[0]!)
          .find((p) => p in change) ?? null
      refused.value = raw.value === null ? null : { field, text: raw.value }
      if (value) view.value = value
      return Boolean(value)
    },
    /** Makes a backup now; the storage block comes back with it. */
    backupNow: async () => {
      const storage = await attempt(() => admin.backupNow())
      if (storage && view.value) view.value = { ...view.value, storage }
      return Boolean(storage)
    },
  }
}

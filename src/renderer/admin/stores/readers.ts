/** The Readers domain: add (the token shown once), rotate, remove, and bookmark a Series for a Reader. */
import { ref } from 'vue'
import type { IssuedTokenView, ReaderView, SettingsView } from '../../../shared/admin-api'
import type { Settings } from '../../../shared/settings'
import { admin } from '../api'
import { attempt } from './problem'

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
    async remove(readerId: number) {
      const value = await attempt(() => admin.removeReader({ readerId }))
      if (!value) return false
      readers.value = value
      if (issued.value?.reader.id === readerId) issued.value = null
      return true
    },
    async addBookmark(readerId: number, url: string) {
      const row = await attempt(() => admin.addBookmark({ readerId, url }))
      await refresh()
      return row
    },
  }
}

export function useSettings() {
  const view = ref<SettingsView | null>(null)
  return {
    view,
    refresh: async () => {
      const value = await attempt(() => admin.settings())
      if (value) view.value = value
    },
    save: async (change: Partial<Settings>) => {
      const value = await attempt(() => admin.updateSettings(change))
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

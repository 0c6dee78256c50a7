/**
 * The preload: the renderer's only door to the core. It exposes the admin contract's named functions —
 * built from the method list, each invoking its own IPC channel — and never `ipcRenderer` itself.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { ADMIN_METHODS, adminChannel } from '../shared/admin-methods'

const admin = Object.freeze(
  Object.fromEntries(ADMIN_METHODS.map((method) => [method, (input: unknown) => ipcRenderer.invoke(adminChannel(method), input)])),
)

contextBridge.exposeInMainWorld(
  'mangaBookmark',
  Object.freeze({
    shell: 'electron' as const,
    admin,
    onOpenSeries(listener: (key: { site: string; seriesId: string }) => void) {
      ipcRenderer.on('open-series', (_event, key: { site: string; seriesId: string }) => listener(key))
    },
  }),
)

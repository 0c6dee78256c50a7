/**
 * The preload: the renderer's only door to the core. It exposes named functions, never `ipcRenderer`.
 */
import { contextBridge } from 'electron'

contextBridge.exposeInMainWorld('mangaBookmark', Object.freeze({ shell: 'electron' as const }))

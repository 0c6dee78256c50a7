/**
 * IPC: one `ipcMain.handle` per admin method, each validating its input in main (the renderer is never
 * trusted) and answering plain data. Only the owner's window may call.
 */
import { JsonText } from '../admin/json-text'
import { ipcMain, type WebContents } from 'electron'
import { ADMIN_METHODS, adminChannel } from '../../shared/admin-methods'
import type { AdminCaller } from '../admin/validated'

export function registerAdminIpc(
  caller: AdminCaller,
  owner: () => WebContents | undefined,
  after?: (method: string, ok: boolean) => void,
): () => void {
  for (const method of ADMIN_METHODS) {
    ipcMain.handle(adminChannel(method), async (event, input: unknown) => {
      const window = owner()
      if (!window || event.sender !== window || event.senderFrame !== window.mainFrame || !event.senderFrame?.url.startsWith('file:')) {
        return { ok: false, error: { code: 'forbidden', message: "not the owner's window" } }
      }
      const result = await caller.call(method, input)
      after?.(method, result.ok)
      // IPC passes plain data only: an answer written as JSON text (json-text.ts) goes as what it holds.
      return result.ok && result.value instanceof JsonText ? { ok: true, value: await result.value.parse() } : result
    })
  }
  return () => {
    for (const method of ADMIN_METHODS) ipcMain.removeHandler(adminChannel(method))
  }
}

/**
 * The owner's window's one client of the admin contract. In Electron it calls the preload's named functions
 * (IPC); in the headless shell, one RPC route per method over loopback HTTP. Same type either way.
 */
import type { AdminApi, AdminResult } from '../../shared/admin-api'
import { ADMIN_METHODS, type AdminMethodName } from '../../shared/admin-methods'
import { AppError, isErrorCode } from '../../shared/errors'

type Transport = (method: AdminMethodName, input: unknown) => Promise<AdminResult<unknown>>

async function overHttp(method: AdminMethodName, input: unknown): Promise<AdminResult<unknown>> {
  try {
    const response = await fetch(`/admin/rpc/${method}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input ?? {}),
    })
    const json = (await response.json().catch(() => null)) as { value?: unknown; error?: { code?: unknown; message?: unknown } } | null
    if (response.ok && json && 'value' in json) return { ok: true, value: json.value }
    const code = isErrorCode(json?.error?.code) ? json.error.code : 'internal'
    return {
      ok: false,
      error: { code, message: typeof json?.error?.message === 'string' ? json.error.message : `HTTP ${response.status}` },
    }
  } catch {
    return { ok: false, error: { code: 'offline', message: 'cannot reach the app; is it running?' } }
  }
}

export function createAdminClient(transport?: Transport): AdminApi {
  const bridge = typeof window !== 'undefined' ? window.mangaBookmark?.admin : undefined
  const send: Transport = transport ?? (bridge ? (method, input) => bridge[method](input) : overHttp)
  const client: Record<string, (input?: unknown) => Promise<unknown>> = {}
  for (const method of ADMIN_METHODS) {
    client[method] = async (input?: unknown) => {
      const result = await send(method, input ?? {})
      if (!result.ok) throw new AppError(result.error.code, result.error.message)
      return result.value
    }
  }
  return client as unknown as AdminApi
}

/** The window's single client. */
export const admin: AdminApi = createAdminClient()

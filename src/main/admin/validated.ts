/**
 * The admin contract behind input validation: every transport (IPC in Electron, RPC in the headless shell)
 * calls this, never the implementation directly, so the renderer is never trusted.
 */
import { ADMIN_INPUTS, ADMIN_METHODS, type AdminApi, type AdminMethod, type AdminResult } from '../../shared/admin-api'
import { describeIssues, errorBody } from '../../shared/errors'

export interface AdminCaller {
  /** Validates `input` for `method` and calls it; never throws. */
  call(method: string, input: unknown): Promise<AdminResult<unknown>>
}

export function isAdminMethod(method: string): method is AdminMethod {
  return (ADMIN_METHODS as string[]).includes(method)
}

export function validatedAdmin(admin: AdminApi, log?: { error(obj: object, msg: string): void }): AdminCaller {
  return {
    async call(method, input) {
      if (!isAdminMethod(method))
        return { ok: false, error: { code: 'not-found', message: `no admin method "${String(method).slice(0, 60)}"` } }
      const parsed = ADMIN_INPUTS[method].safeParse(input ?? undefined)
      if (!parsed.success) {
        return { ok: false, error: { code: 'invalid-request', message: `${method}: ${describeIssues(parsed.error.issues)}` } }
      }
      try {
        const fn = admin[method] as (input: unknown) => Promise<unknown>
        return { ok: true, value: await fn.call(admin, parsed.data ?? {}) }
      } catch (error) {
        const body = errorBody(error)
        if (body.code === 'internal') log?.error({ err: error, method }, 'admin: call failed')
        return { ok: false, error: body }
      }
    },
  }
}

import { describe, expect, it } from 'vitest'
import { childEnvironment } from './playwright-launcher'

describe("the Chromium that renders Sites gets none of the app's secrets", () => {
  it("the app's own variables (the admin token among them) are left out; the rest is passed on", () => {
    const env = { MB_ADMIN_TOKEN: 'secret-admin-token', mb_log_level: 'debug', PATH: '/usr/bin', HOME: '/home/owner', LANG: 'C' }
    expect(childEnvironment(env)).toEqual({ PATH: '/usr/bin', HOME: '/home/owner', LANG: 'C' })
    expect(env.MB_ADMIN_TOKEN).toBe('secret-admin-token')
  })
})

/**
 * A sign-in link while the app runs (docs/adr/0127-a-sign-in-link-while-the-app-runs.md): `npm run admin-link` asks
 * through the database, as other commands do (docs/adr/0001-commands-through-the-database.md); the app looks twice a
 * second, takes each request's code into the admin listener's one-time codes and answers with its port.
 */
import type { Clock } from '../clock'
import type { Log } from '../log'
import type { Db } from '../store/database'
import { takeAdminSignInRequests } from '../store/admin-sign-in-requests'
import { ADMIN_CODE_VALUE } from './admin-http'
import type { SignInCodes } from '../access/sign-in-codes'

/** How often the app looks for a request: the command waits at most about this long for its link. */
export const ADMIN_LINK_LOOK_MS = 500

export interface AdminLinkWatch {
  db: Db
  codes: SignInCodes
  /** The admin listener's port, read when a request is taken. */
  port(): number
  /** The wall clock, for the stamps and the codes' expiry. */
  clock: Pick<Clock, 'now'>
  /**
   * The wait between looks, in real time whatever clock the app keeps (a person is waiting, as for the browser):
   * a fake clock in a test moved by days would otherwise wake it millions of times.
   */
  sleep: Clock['sleep']
  /** How long between looks; ADMIN_LINK_LOOK_MS unless a test asks for less. */
  everyMs?: number
  log: Pick<Log, 'warn' | 'info'>
  signal: AbortSignal
}

/** Takes waiting requests once; how many were taken. */
export async function takeAdminLinkRequests(watch: Pick<AdminLinkWatch, 'db' | 'codes' | 'port'>, now: number): Promise<number> {
  return takeAdminSignInRequests(watch.db, now, watch.port(), (r) => watch.codes.admit(r.codeHash, r.expiresAt, ADMIN_CODE_VALUE))
}

/** Looks for requests until `signal` aborts; a store that cannot be read now is said once, until it can again. */
export async function watchAdminLinkRequests(watch: AdminLinkWatch): Promise<void> {
  let failing = false
  while (!watch.signal.aborted) {
    try {
      const taken = await takeAdminLinkRequests(watch, watch.clock.now())
      if (taken > 0) watch.log.info({ taken }, 'admin link: a new sign-in link was asked for (npm run admin-link)')
      failing = false
    } catch (error) {
      if (!failing) watch.log.warn(`admin link: the requests of npm run admin-link cannot be read now: ${(error as Error).message}`)
      failing = true
    }
    await watch.sleep(watch.everyMs ?? ADMIN_LINK_LOOK_MS, watch.signal)
  }
}

/**
 * The use cases' dependencies on the fixture site server, as the app wires them: the fixture's Sites, a real
 * HTTP fetcher, the shared pacer and browser health on the test's clock (tests of acquire, search and follow).
 */
import type { Clock } from '../clock'
import type { FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { BrowserHealth } from '../fetch/browser-health'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { silentLog } from '../log'
import { SitePacer } from '../lanes/pacer'
import { createRegistry } from '../sites/registry'
import type { Db } from '../store/database'
import type { AcquireDeps } from '../use-cases/acquire'

export function fixtureDeps(db: Db, fixture: FixtureSite, clock: Clock): AcquireDeps {
  return {
    db,
    registry: createRegistry(fixtureSites(fixture.host)),
    fetchers: { http: createHttpFetcher({ timeoutMs: 2_000 }) },
    health: new BrowserHealth(clock),
    pacer: new SitePacer(clock),
    clock,
    log: silentLog,
  }
}

/**
 * The core's implementation of the owner's admin contract (src/shared/admin-api.ts), composed from its groups:
 * Series and chapters, Lanes and Sites, Readers and sign-in, the library's import and export, the settings and
 * the store, and the notifications. Each write is a row write answered with the freshly read row or block it
 * changed; nothing commands a Lane (docs/adr/0001). Inputs are validated by `validated()` before they reach these
 * functions.
 */
import type { AdminApi } from '../../shared/admin-api'
import { ownerNotifications } from './admin-notifications'
import { laneOperations } from './admin-lanes'
import { libraryOperations } from './admin-library'
import { readerOperations } from './admin-readers'
import { adminScope, type AdminContext } from './admin-scope'
import { searchOperations } from './admin-search'
import { seriesOperations } from './admin-series'
import { settingsOperations } from './admin-settings'

export function createAdmin(ctx: AdminContext): AdminApi {
  const scope = adminScope(ctx)
  return {
    ...seriesOperations(scope),
    ...laneOperations(scope),
    ...readerOperations(scope),
    ...libraryOperations(scope),
    ...settingsOperations(scope),
    ...ownerNotifications(ctx.core),
    ...searchOperations(scope),
  }
}

/** The owner's side of notifications in the admin contract: their channels, and every channel that keeps failing. */
import type { AdminApi, NotificationsAdminView } from '../../shared/admin-api'
import type { Core } from '../core'
import { channelsOf, failingChannels } from '../store/notify'
import { readSettings } from '../store/settings'
import { FAILING_AFTER } from '../notify/notifier'
import { presentChannel, replaceChannels } from '../notify/settings'

export function ownerNotifications(core: Core): Pick<AdminApi, 'notifications' | 'setNotificationChannels' | 'testNotifications'> {
  const db = core.store.db
  async function view(): Promise<NotificationsAdminView> {
    const failing = await failingChannels(db, FAILING_AFTER)
    return {
      channels: (await channelsOf(db, null)).map(presentChannel),
      failing: failing.map((c) => ({ reader: c.name, channel: presentChannel(c) })),
      targets: (await readSettings(db)).notifyTargets,
    }
  }
  return {
    notifications: () => view(),
    async setNotificationChannels(input) {
      const { notifyTargets } = await readSettings(db)
      await db.transaction().execute((trx) => replaceChannels(trx, null, input.channels, core.clock.now(), notifyTargets))
      return view()
    },
    testNotifications: async () => ({ results: await core.notifier.sendTest(null, null) }),
  }
}

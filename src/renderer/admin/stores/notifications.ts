/** The owner's notification channels (docs/adr/0074-…): read, replace, test; and every channel that keeps failing. */
import { ref } from 'vue'
import type { NotificationsAdminView, NotificationTestView } from '../../../shared/admin-api'
import { keptChannel } from '../../../shared/channel-inputs'
import type { ChannelInput } from '../../../shared/notify-schemas'
import { admin } from '../api'
import { attempt, attemptBeside } from './problem'

export function useNotifications() {
  const view = ref<NotificationsAdminView | null>(null)
  const tested = ref<NotificationTestView | null>(null)
  /** Why the last change of the channels was refused, said beside the form (null: it went through). */
  const refused = ref<string | null>(null)
  const replace = async (channels: ChannelInput[]) => {
    const value = await attemptBeside(() => admin.setNotificationChannels({ channels }), refused)
    if (value) view.value = value
    return Boolean(value)
  }
  /** The channels as they are, sent back unchanged: each id keeps its secret. */
  const others = () => (view.value?.channels ?? []).map(keptChannel)
  return {
    view,
    tested,
    refused,
    refresh: async () => {
      const value = await attempt(() => admin.notifications())
      if (value) view.value = value
    },
    add: (channel: ChannelInput) => replace([...others(), channel]),
    remove: (id: number) => replace(others().filter((c) => c.id !== id)),
    test: async () => {
      tested.value = (await attempt(() => admin.testNotifications())) ?? null
    },
  }
}

/**
 * The sync API's notification routes (docs/adr/0074-a-durable-outbox-for-notifications.md): a Reader reads and
 * replaces their channels and rules, and sends themselves a test message. Part of the one route table.
 */
import type { z } from 'zod'
import { AppError } from '../../shared/errors'
import * as N from '../../shared/notify-schemas'
import { putReaderNotifications, readerNotifications } from '../notify/settings'
import { readSettings } from '../store/settings'
import { route, type RouteContext, type SyncDeps } from './routes'

// The same cast as routes.ts's: this table is joined to that one in api.ts.

function notifyOf(deps: SyncDeps): NonNullable<SyncDeps['notify']> {
  if (!deps.notify) throw new AppError('not-found', 'notifications are not available on this endpoint')
  return deps.notify
}

async function view(deps: SyncDeps, readerId: number) {
  const notify = notifyOf(deps)
  const { notifyTargets } = await readSettings(deps.db)
  return readerNotifications(deps.db, readerId, { vapidPublicKey: notify.vapidPublicKey(), targets: notifyTargets })
}

export const NOTIFY_ROUTES = [
  route({
    method: 'GET',
    path: '/api/v1/me/notifications',
    summary:
      "The Reader's notification channels (Web Push, ntfy, webhook; secrets are never shown, a failing channel says why), their threshold, quiet hours and muted Series, and the VAPID public key to subscribe with.",
    auth: true,
    response: { status: 200, schema: N.NotificationsView, description: 'the settings' },
    errors: [401, 429],
    handle: async ({ reader, deps }) => ({ body: await view(deps, reader.id) }),
  }),
  route({
    method: 'PUT',
    path: '/api/v1/me/notifications',
    summary:
      'Replace the notification settings. A channel sent back with its `id` keeps its secret when none is given; a channel left out is removed. Target URLs must be public addresses unless the owner allowed local-network targets.',
    auth: true,
    body: N.NotificationsBody,
    response: { status: 200, schema: N.NotificationsView, description: 'the settings as written' },
    errors: [400, 401, 413, 415, 422, 429],
    handle: async ({ reader, body, deps }: RouteContext<unknown, unknown, z.infer<typeof N.NotificationsBody>>) => {
      const { notifyTargets } = await readSettings(deps.db)
      await putReaderNotifications(deps.db, reader.id, body, deps.clock.now(), notifyTargets)
      return { body: await view(deps, reader.id) }
    },
  }),
  route({
    method: 'POST',
    path: '/api/v1/me/notifications/test',
    summary: "Send a test message to each of the Reader's channels now, and say how each went.",
    auth: true,
    response: { status: 200, schema: N.TestResponse, description: 'one result per channel' },
    errors: [401, 429],
    handle: async ({ reader, deps }) => ({ body: { results: await notifyOf(deps).notifier.sendTest(reader.id, reader.name) } }),
  }),
]

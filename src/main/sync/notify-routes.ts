/**
 * The sync API's notification routes (docs/adr/0074-a-durable-outbox-for-notifications.md), one plugin: a Reader
 * reads and replaces their channels and rules, and sends themselves a test message.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AppError } from '../../shared/errors'
import * as N from '../../shared/notify-schemas'
import { putReaderNotifications, readerNotifications } from '../notify/settings'
import { readSettings } from '../store/settings'
import { authenticated } from './auth'
import { answer, REFUSAL, WITH_A_BODY } from './openapi'
import type { SyncDeps } from './routes'

function notifyOf(deps: SyncDeps): NonNullable<SyncDeps['notify']> {
  if (!deps.notify) throw new AppError('not-found', 'notifications are not available on this endpoint')
  return deps.notify
}

async function view(deps: SyncDeps, readerId: number) {
  const notify = notifyOf(deps)
  const { notifyTargets, ntfyServer, ownerContact } = await readSettings(deps.db)
  return readerNotifications(deps.db, readerId, {
    vapidPublicKey: notify.vapidPublicKey(),
    targets: notifyTargets,
    ntfyServer,
    pushContact: ownerContact !== '',
  })
}

const PATH = '/api/v1/me/notifications'

export const notifyRoutes: FastifyPluginAsyncZod<{ deps: SyncDeps }> = async (app, { deps }) => {
  app.get(
    PATH,
    {
      schema: {
        summary:
          "The Reader's notification channels (Web Push, ntfy, webhook; secrets are never shown, a failing channel says why), their threshold, quiet hours and muted Series, and the VAPID public key to subscribe with.",
        response: { 200: answer(N.NotificationsView, 'the settings'), 401: REFUSAL[401], 429: REFUSAL[429] },
      },
    },
    async (request) => view(deps, authenticated(request).id),
  )
  app.put(
    PATH,
    {
      schema: {
        summary:
          'Replace the notification settings. A channel sent back with its `id` keeps its secret when none is given; a channel left out is removed. Target URLs must be public addresses unless the owner allowed local-network targets.',
        body: N.NotificationsBody,
        response: { 200: answer(N.NotificationsView, 'the settings as written'), ...WITH_A_BODY, 401: REFUSAL[401], 429: REFUSAL[429] },
      },
    },
    async (request) => {
      const reader = authenticated(request)
      const { notifyTargets } = await readSettings(deps.db)
      await putReaderNotifications(deps.db, reader.id, request.body, deps.clock.now(), notifyTargets)
      return view(deps, reader.id)
    },
  )
  app.post(
    `${PATH}/test`,
    {
      schema: {
        summary: "Send a test message to each of the Reader's channels now, and say how each went.",
        response: { 200: answer(N.TestResponse, 'one result per channel'), 401: REFUSAL[401], 429: REFUSAL[429] },
      },
    },
    async (request) => {
      const reader = authenticated(request)
      return { results: await notifyOf(deps).notifier.sendTest(reader.id, reader.name) }
    },
  )
}

/**
 * A Reader's (or the owner's) notification settings as the sync API and the admin contract read and write them.
 * Writing replaces the list of channels: a channel given with its id keeps its secret when none is given, and
 * its state when nothing changed; one left out is removed with its undelivered messages. Every target URL is
 * checked against Settings → Notification targets before anything is written (docs/adr/0075-…).
 */
import type { ChannelKind } from '../../shared/channel-kinds'
import { AppError } from '../../shared/errors'
import type { ChannelInput, ChannelView, NotificationsBody, NotificationsView } from '../../shared/notify-schemas'
import type { Db } from '../store/database'
import {
  addChannel,
  channelsOf,
  putReaderPrefs,
  readerPrefs,
  removeChannel,
  updateChannel,
  type ChannelInput as StoredChannel,
} from '../store/notify'
import type { NotifyChannelRow } from '../store/schema'
import { readSecret, type ChannelSecret } from './channels'
import { FAILING_AFTER } from './notifier'
import { readMuted } from './prefs'
import { targetProblem, type TargetPolicy } from './send'

export function presentChannel(c: NotifyChannelRow): ChannelView {
  const secret = readSecret(c.secret)
  return {
    id: c.id,
    kind: c.kind,
    url: c.target,
    hasSecret: Boolean(secret.secret ?? secret.token ?? secret.auth),
    failing: c.failures >= FAILING_AFTER,
    failures: c.failures,
    lastError: c.last_error,
    lastErrorAt: c.last_error_at,
    lastOkAt: c.last_ok_at,
  }
}

export async function readerNotifications(
  db: Db,
  readerId: number,
  context: { vapidPublicKey: string; targets: TargetPolicy; ntfyServer: string; pushContact: boolean },
): Promise<NotificationsView> {
  const prefs = await readerPrefs(db, readerId)
  return {
    channels: (await channelsOf(db, readerId)).map(presentChannel),
    minUnread: prefs?.min_unread ?? 1,
    quietHours: prefs?.quiet_from && prefs.quiet_to ? { from: prefs.quiet_from, to: prefs.quiet_to } : null,
    timeZone: prefs?.time_zone ?? '',
    muted: readMuted(prefs?.muted ?? '[]'),
    vapidPublicKey: context.vapidPublicKey,
    targets: context.targets,
    ntfyServer: context.ntfyServer,
    pushContact: context.pushContact,
  }
}

/** Who is told a refusal: a Reader asks the owner; the owner changes the setting themselves. */
export type Audience = 'reader' | 'owner'

const ALLOW_ADVICE: Record<Audience, string> = {
  reader: 'Only public addresses are allowed: the owner can allow the local network in Settings → Notification targets.',
  owner: 'Only public addresses are allowed now: choose "The local network too" under Notification targets above, and save.',
}

/** A refused target as a sentence for its audience, with what to do. */
export function targetRefusal(problem: string, audience: Audience): string {
  const sentence = `${problem[0]!.toUpperCase()}${problem.slice(1)}.`
  return /not a public/.test(problem) ? `${sentence} ${ALLOW_ADVICE[audience]}` : sentence
}

/** Writes a Reader's rules and channels in one transaction; a bad target changes nothing. */
export async function putReaderNotifications(
  db: Db,
  readerId: number,
  body: NotificationsBody,
  now: number,
  policy: TargetPolicy,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await replaceChannels(trx, readerId, body.channels, now, policy)
    await putReaderPrefs(trx, {
      reader_id: readerId,
      min_unread: body.minUnread,
      quiet_from: body.quietHours?.from ?? '',
      quiet_to: body.quietHours?.to ?? '',
      time_zone: body.timeZone ?? '',
      muted: JSON.stringify(body.muted.map((m) => [m.site, m.seriesId])),
      updated_at: now,
    })
  })
}

/** Replaces the channels of a Reader (or the owner's, with null). */
export async function replaceChannels(
  db: Db,
  readerId: number | null,
  inputs: readonly ChannelInput[],
  now: number,
  policy: TargetPolicy,
): Promise<void> {
  const audience: Audience = readerId === null ? 'owner' : 'reader'
  const existing = await channelsOf(db, readerId)
  const kept = new Set<number>()
  for (const input of inputs) {
    const url = input.kind === 'webpush' ? input.endpoint : input.url
    const problem = targetProblem(url, policy)
    if (problem) throw new AppError('invalid-request', targetRefusal(problem, audience))
    // The same browser subscribing again is the same channel.
    const same =
      existing.find((c) => c.id === input.id && c.kind === input.kind) ??
      (input.kind === 'webpush' ? existing.find((c) => c.kind === 'webpush' && c.target === input.endpoint) : undefined)
    const stored = storedChannel(input, same ? readSecret(same.secret) : null)
    if (!same) {
      kept.add(await addChannel(db, readerId, stored, now))
      continue
    }
    kept.add(same.id)
    if (same.target !== stored.target || same.secret !== stored.secret) await updateChannel(db, same.id, stored)
  }
  for (const c of existing) if (!kept.has(c.id)) await removeChannel(db, c.id)
}

/** How each kind's input is stored: its target, and its secret (kept from before when the input leaves it out). */
const STORED: { [K in ChannelKind]: (input: Extract<ChannelInput, { kind: K }>, previous: ChannelSecret | null) => StoredChannel } = {
  webpush(input, previous) {
    const keys = input.keys ?? (previous?.p256dh && previous.auth ? { p256dh: previous.p256dh, auth: previous.auth } : null)
    if (!keys) throw new AppError('invalid-request', 'A new push subscription needs its keys: turn notifications on again on that device.')
    return { kind: 'webpush', target: input.endpoint, secret: JSON.stringify({ p256dh: keys.p256dh, auth: keys.auth }) }
  },
  ntfy(input, previous) {
    const token = input.token ?? previous?.token
    return { kind: 'ntfy', target: input.url, secret: token ? JSON.stringify({ token }) : '' }
  },
  webhook(input, previous) {
    const secret = input.secret ?? previous?.secret
    if (!secret) throw new AppError('invalid-request', 'A new webhook needs a signing secret of 16 characters or more.')
    return { kind: 'webhook', target: input.url, secret: JSON.stringify({ secret }) }
  },
}

function storedChannel<K extends ChannelKind>(input: Extract<ChannelInput, { kind: K }>, previous: ChannelSecret | null): StoredChannel {
  return STORED[input.kind as K](input, previous)
}

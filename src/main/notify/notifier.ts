/**
 * The notifier (docs/adr/0074-a-durable-outbox-for-notifications.md): after each pass it turns the pass's New
 * Chapters (kept in `notify_chapters` by the transaction that recorded them) into one digest per Reader and one
 * outbox message per channel — in one transaction, which also deletes the chapters it read — and a delivery loop
 * sends the outbox, retrying with backoff across restarts. A push subscription the push service says is gone
 * (404/410) is removed; a channel that keeps failing says why.
 */
import { AppError } from '../../shared/errors'
import type { Clock } from '../clock'
import type { Log } from '../log'
import type { Db } from '../store/database'
import {
  channelDelivered,
  channelFailed,
  channelsOf,
  deleteChapters,
  dueMessages,
  enqueue,
  getChannel,
  heldMessage,
  messageDone,
  messageRetry,
  nextDueAt,
  pendingChapters,
  readerPrefs,
  removeChannel,
  replaceMessage,
} from '../store/notify'
import type { NotifyChannelRow, NotifyOutboxRow } from '../store/schema'
import { channelRequest } from './channels'
import { buildDigests, mergeDigests, newestPerSeries, quietUntil, type Digest, type ReaderRules } from './digest'
import { rulesFromRow } from './prefs'
import { sendTo, type TargetPolicy } from './send'
import { holdersWithUnread, type HolderUnread } from './unread'
import type { VapidKeys } from './vapid'

/** Waits between tries of one message: 30 s, 2 min, 10 min, 30 min, 1 h, then 3 h. */
export const BACKOFF_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000]
/** A message is given up after this many tries (about a day and a half); its channel keeps the reason. */
export const MAX_ATTEMPTS = 12
/** A channel that failed this many times in a row is shown as failing, with the reason. */
export const FAILING_AFTER = 3
/** A Reader (or the owner) may send a test message this often. */
export const TEST_EVERY_MS = 5_000
/** The loop looks at the outbox at least this often (a wall clock step is noticed within it). */
const LOOP_MAX_WAIT_MS = 60_000

export const backoffMs = (attempts: number): number => BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1] ?? BACKOFF_MS[0]!

export interface NotifierDeps {
  db: Db
  clock: Clock
  log: Log
  vapid: () => VapidKeys
  /** Settings → Notification targets, read before each delivery round. */
  policy: () => Promise<TargetPolicy>
  /** Each digest made (the simulation's observer): the Site whose pass it follows ('' after a restart). */
  onDigest?(site: string, digests: ReadonlyMap<number, Digest>): void
}

export interface TestResult {
  channelId: number
  kind: NotifyChannelRow['kind']
  ok: boolean
  error?: string
}

export interface Notifier {
  /** Digests the New Chapters waiting (one Site's after its pass; every Site's after a restart). */
  digest(site?: string): Promise<void>
  /** Sends every message that is due; resolves when the round ends. */
  deliverDue(): Promise<void>
  /** Sends a test message to each channel of a Reader (or the owner's with null), now, outside the outbox. */
  sendTest(readerId: number | null, reader: string | null): Promise<TestResult[]>
  /** Runs the delivery loop (first the digest a crash may have left), until `stop()`. */
  start(): void
  wake(): void
  stop(): Promise<void>
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const { db, clock, log } = deps
  let chain: Promise<unknown> = Promise.resolve()
  /** Digests and delivery rounds run one at a time. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work)
    chain = next.catch(() => undefined)
    return next
  }
  let stopping: AbortController | null = null
  let waking = new AbortController()
  let loop: Promise<void> | null = null
  const lastTest = new Map<number | null, number>()

  const notifier: Notifier = {
    digest: (site) =>
      serial(async () => {
        const digests = await digestPending(deps, site)
        if (digests) deps.onDigest?.(site ?? '', digests)
      }).catch((error: unknown) => log.error({ err: error, site }, 'notify: the digest failed; it is made again after the next pass')),
    deliverDue: () => serial(() => deliverRound(deps)),
    sendTest: (readerId, reader) => {
      // A test sends at once, outside the outbox: not more often than this, so a Reader cannot flood a target.
      const last = lastTest.get(readerId) ?? -Infinity
      if (clock.monotonic() - last < TEST_EVERY_MS)
        return Promise.reject(new AppError('rate-limited', `one test message every ${TEST_EVERY_MS / 1000} s; try again in a moment`))
      lastTest.set(readerId, clock.monotonic())
      return serial(async () => {
        const policy = await deps.policy()
        const digest: Digest = {
          reader,
          newChapters: [
            { site: 'test', seriesId: 'test', title: 'Manga Bookmark test message', chapter: 1, label: 'Test', chapterUrl: '' },
          ],
        }
        const results: TestResult[] = []
        for (const channel of await channelsOf(db, readerId)) {
          const outcome = await sendOne(deps, channel, digest, `test-${clock.now()}-${channel.id}`, policy)
          results.push({ channelId: channel.id, kind: channel.kind, ok: outcome === null, error: outcome || undefined })
        }
        return results
      })
    },
    start() {
      if (loop) return
      stopping = new AbortController()
      const signal = stopping.signal
      loop = (async () => {
        await notifier.digest()
        while (!signal.aborted) {
          await notifier.deliverDue().catch((error: unknown) => log.error({ err: error }, 'notify: a delivery round failed'))
          const next = await nextDueAt(db).catch(() => null)
          const wait = next === null ? LOOP_MAX_WAIT_MS : Math.min(LOOP_MAX_WAIT_MS, Math.max(1_000, next - clock.now()))
          if (signal.aborted) break
          await clock.sleep(wait, AbortSignal.any([signal, waking.signal]))
          if (waking.signal.aborted) waking = new AbortController()
        }
      })()
    },
    wake: () => waking.abort(),
    async stop() {
      stopping?.abort()
      await loop
      loop = null
      await chain
    },
  }
  return notifier
}

/** The rules of each Reader holding one of the Series (a Reader with none stored has the defaults). */
async function rulesFor(db: Db, holders: Iterable<readonly HolderUnread[]>): Promise<Map<number, ReaderRules>> {
  const rules = new Map<number, ReaderRules>()
  for (const list of holders)
    for (const h of list) if (!rules.has(h.readerId)) rules.set(h.readerId, rulesFromRow(await readerPrefs(db, h.readerId)))
  return rules
}

/** One transaction: the waiting New Chapters become outbox messages, and are deleted. */
async function digestPending(deps: NotifierDeps, site: string | undefined): Promise<Map<number, Digest> | null> {
  const now = deps.clock.now()
  return deps.db.transaction().execute(async (trx) => {
    const rows = await pendingChapters(trx, site)
    if (rows.length === 0) return null
    const holders = new Map<string, HolderUnread[]>()
    for (const c of newestPerSeries(rows))
      holders.set(`${c.site}/${c.series_id}`, await holdersWithUnread(trx, { site: c.site, seriesId: c.series_id }))
    const rules = await rulesFor(trx, holders.values())
    const { readers, owner } = buildDigests(rows, holders, (id) => rules.get(id)!)
    for (const [readerId, digest] of readers) {
      const until = quietUntil(rules.get(readerId)!, now)
      for (const channel of await channelsOf(trx, readerId)) await queue(trx, channel.id, digest, until, now)
    }
    if (owner) for (const channel of await channelsOf(trx, null)) await queue(trx, channel.id, owner, null, now)
    await deleteChapters(
      trx,
      rows.map((r) => r.id),
    )
    return readers
  })
}

/** Queues a digest for a channel: at once, or held to the end of quiet hours — joined to the one held already. */
async function queue(db: Db, channelId: number, digest: Digest, until: number | null, now: number): Promise<void> {
  if (until !== null) {
    const held = await heldMessage(db, channelId, now)
    if (held) return replaceMessage(db, held.id, JSON.stringify(mergeDigests(JSON.parse(held.message) as Digest, digest)))
  }
  await enqueue(db, { channel_id: channelId, message: JSON.stringify(digest), created_at: now, not_before: until ?? now })
}

async function deliverRound(deps: NotifierDeps): Promise<void> {
  const policy = await deps.policy()
  for (;;) {
    const due = await dueMessages(deps.db, deps.clock.now(), 20)
    if (due.length === 0) return
    for (const message of due) await deliverMessage(deps, message, policy)
  }
}

async function deliverMessage(deps: NotifierDeps, message: NotifyOutboxRow, policy: TargetPolicy): Promise<void> {
  const { db, clock, log } = deps
  const channel = await getChannel(db, message.channel_id)
  if (!channel) return messageDone(db, message.id)
  const failure = await sendOne(deps, channel, JSON.parse(message.message) as Digest, `mb-${message.id}`, policy)
  if (failure === null) return messageDone(db, message.id)
  if (failure === GONE) return
  const attempts = message.attempts + 1
  if (attempts >= MAX_ATTEMPTS) {
    log.warn({ channel: channel.id, kind: channel.kind, attempts, reason: failure }, 'notify: a message was given up')
    return messageDone(db, message.id)
  }
  await messageRetry(db, message.id, clock.now() + backoffMs(attempts), failure)
}

const GONE = 'the push service says this subscription is gone'

/** Sends a digest on a channel and records how it went on the channel; the failure's reason, or null. */
async function sendOne(
  deps: NotifierDeps,
  channel: NotifyChannelRow,
  digest: Digest,
  deliveryId: string,
  policy: TargetPolicy,
): Promise<string | null> {
  const { db, clock, log } = deps
  let reason: string
  try {
    const answer = await sendTo(channelRequest(channel, digest, deliveryId, deps.vapid), policy)
    if (answer.status >= 200 && answer.status < 300) {
      await channelDelivered(db, channel.id, clock.now())
      return null
    }
    if (channel.kind === 'webpush' && (answer.status === 404 || answer.status === 410)) {
      log.info({ channel: channel.id, status: answer.status }, 'notify: a push subscription is gone; removed')
      await removeChannel(db, channel.id)
      return GONE
    }
    reason =
      answer.status >= 300 && answer.status < 400
        ? `HTTP ${answer.status}: a redirect, not followed`
        : `HTTP ${answer.status}${answer.body ? `: ${answer.body.slice(0, 120)}` : ''}`
  } catch (error) {
    reason = (error as Error).message
  }
  log.warn({ channel: channel.id, kind: channel.kind, reason }, 'notify: a message was not delivered')
  await channelFailed(db, channel.id, reason, clock.now())
  return reason
}

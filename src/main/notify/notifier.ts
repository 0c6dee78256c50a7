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
  channelsOfAll,
  deleteChapters,
  dueMessagesOf,
  enqueueAll,
  getChannel,
  heldMessagesOf,
  messageDone,
  messageRetry,
  newDeliveryId,
  nextDueAt,
  ownersWithDue,
  pendingChapters,
  readerName,
  readerPrefs,
  readersPrefs,
  removeChannel,
  replaceMessage,
} from '../store/notify'
import type { NotifyChannelRow, NotifyOutboxRow } from '../store/schema'
import { channelRequest, senderOf } from './channels'
import { buildDigests, mergeDigests, newestPerSeries, quietUntil, type Digest, type ReaderRules } from './digest'
import { rulesFromRow } from './prefs'
import { plainReason, SEND_TIMEOUT_MS, sendTo, type TargetPolicy } from './send'
import { holdersWithUnreadOf, type HolderUnread } from './unread'
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
  /** Digests run one at a time (each is one transaction; no network): a slow target never holds one. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work)
    chain = next.catch(() => undefined)
    return next
  }
  let stopping: AbortController | null = null
  let waking = new AbortController()
  let loop: Promise<void> | null = null
  const sends = new AbortController()
  const queues = createQueues(deps, sends.signal, () => waking.abort())
  const tests = createTests(deps, sends.signal)

  const notifier: Notifier = {
    digest: (site) =>
      serial(async () => {
        const digests = await digestPending(deps, site)
        if (digests) deps.onDigest?.(site ?? '', digests)
      }).catch((error: unknown) => log.error({ err: error, site }, 'notify: the digest failed; it is made again after the next pass')),
    deliverDue: () => queues.drain(),
    sendTest: (readerId, reader) => tests.send(readerId, reader),
    start() {
      if (loop) return
      stopping = new AbortController()
      const signal = stopping.signal
      loop = (async () => {
        await notifier.digest()
        while (!signal.aborted) {
          // Starts a queue for each Reader with a message due and no queue running; never waits for one.
          await queues.dispatch().catch((error: unknown) => log.error({ err: error }, 'notify: a delivery round failed'))
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
      sends.abort()
      await loop
      loop = null
      await Promise.all([chain, queues.drain(), tests.idle()])
    },
  }
  return notifier
}

/** At most this many messages are being sent at once, all Readers together. */
export const MAX_SENDING = 8
/** At most this many test messages are being sent at once, all Readers together (apart from deliveries). */
export const MAX_TESTING = 8

/** A counting semaphore: `take` resolves when a place is free; `give` frees it. */
function places(size: number) {
  let free = size
  const waiting: Array<() => void> = []
  return {
    take: () => (free > 0 ? (free--, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve))),
    give: () => {
      const next = waiting.shift()
      if (next) next()
      else free++
    },
  }
}

/**
 * One queue per Reader (and one for the owner), sent in order, one message at a time; the queues run side by
 * side under MAX_SENDING. A Reader whose targets never answer holds only their own queue (docs/adr/0120-…).
 */
function createQueues(deps: NotifierDeps, signal: AbortSignal, finished: () => void) {
  const running = new Map<number | null, Promise<void>>()
  const sending = places(MAX_SENDING)
  const run = async (owner: number | null) => {
    const policy = await deps.policy()
    const tried = new Set<number>()
    const done = delivered(deps)
    const batch = async (due: readonly NotifyOutboxRow[]) => {
      for (const message of due) {
        if (signal.aborted) return
        tried.add(message.id)
        await sending.take()
        await deliverMessage(deps, message, policy, signal, done).finally(sending.give)
      }
    }
    try {
      while (!signal.aborted) {
        const due = (await dueMessagesOf(deps.db, owner, deps.clock.now(), BATCH)).filter((m) => !tried.has(m.id))
        if (due.length === 0) return
        await batch(due)
        await done.flush()
      }
    } finally {
      await done.flush()
    }
  }
  const start = (owner: number | null) => {
    const queue = run(owner)
      .catch((error: unknown) => deps.log.error({ err: error }, 'notify: a delivery queue failed'))
      .finally(() => {
        running.delete(owner)
        finished()
      })
    running.set(owner, queue)
  }
  return {
    /** Starts a queue for each owner with a message due that has none running. */
    async dispatch(): Promise<void> {
      if (signal.aborted) return
      for (const owner of await ownersWithDue(deps.db, deps.clock.now())) if (!running.has(owner)) start(owner)
    },
    /** Dispatches, then waits until every queue ran dry (what is due now is sent or retried later). */
    async drain(): Promise<void> {
      await this.dispatch()
      while (running.size > 0) await Promise.all(running.values())
    },
  }
}

/**
 * Test messages, sent at once, outside the outbox and apart from the deliveries: a Reader (or the owner) may
 * send one every TEST_EVERY_MS and one at a time; a test's channels are sent side by side, all tests under
 * MAX_TESTING.
 */
function createTests(deps: NotifierDeps, signal: AbortSignal) {
  const lastTest = new Map<number | null, number>()
  const inFlight = new Map<number | null, Promise<TestResult[]>>()
  const testing = places(MAX_TESTING)
  const one = async (channel: NotifyChannelRow, digest: Digest, policy: TargetPolicy, name: string): Promise<TestResult> => {
    await testing.take()
    try {
      const outcome = await sendOne(deps, channel, digest, newDeliveryId(), policy, { signal, reader: name })
      return { channelId: channel.id, kind: channel.kind, ok: outcome === null, error: outcome || undefined }
    } finally {
      testing.give()
    }
  }
  return {
    send(readerId: number | null, reader: string | null): Promise<TestResult[]> {
      const last = lastTest.get(readerId) ?? -Infinity
      if (inFlight.has(readerId) || deps.clock.monotonic() - last < TEST_EVERY_MS)
        return Promise.reject(new AppError('rate-limited', `one test message every ${TEST_EVERY_MS / 1000} s; try again in a moment`))
      lastTest.set(readerId, deps.clock.monotonic())
      const digest: Digest = {
        reader,
        newChapters: [{ site: 'test', seriesId: 'test', title: 'Manga Bookmark test message', chapter: 1, label: 'Test', chapterUrl: '' }],
      }
      const work = (async () => {
        const policy = await deps.policy()
        const channels = await channelsOf(deps.db, readerId)
        return Promise.all(channels.map((c) => one(c, digest, policy, reader ?? 'the owner')))
      })().finally(() => inFlight.delete(readerId))
      inFlight.set(readerId, work)
      return work
    },
    idle: () => Promise.allSettled([...inFlight.values()]),
  }
}

/** The rules of each Reader holding one of the Series (a Reader with none stored has the defaults): one read. */
async function rulesFor(db: Db, holders: Iterable<readonly HolderUnread[]>): Promise<Map<number, ReaderRules>> {
  const ids = new Set<number>()
  for (const list of holders) for (const h of list) ids.add(h.readerId)
  const stored = await readersPrefs(db, [...ids])
  return new Map([...ids].map((id) => [id, rulesFromRow(stored.get(id))]))
}

/**
 * One transaction: the waiting New Chapters become outbox messages, and are deleted. A fixed number of
 * statements whatever the Readers and Series (docs/adr/0170-digests-in-sets.md): the chapters, their holders with
 * their unread counts, the holders' rules, their channels, the messages held for quiet hours, the new messages.
 */
async function digestPending(deps: NotifierDeps, site: string | undefined): Promise<Map<number, Digest> | null> {
  const now = deps.clock.now()
  return deps.db.transaction().execute(async (trx) => {
    const rows = await pendingChapters(trx, site)
    if (rows.length === 0) return null
    const holders = await holdersWithUnreadOf(
      trx,
      newestPerSeries(rows).map((c) => ({ site: c.site, seriesId: c.series_id })),
    )
    const rules = await rulesFor(trx, holders.values())
    const { readers, owner } = buildDigests(rows, holders, (id) => rules.get(id)!)
    const channels = await channelsOfAll(trx, [...readers.keys()])
    const queued: Queued[] = []
    for (const [readerId, digest] of readers) {
      const until = quietUntil(rules.get(readerId)!, now)
      for (const channel of channels.get(readerId) ?? []) queued.push({ channelId: channel.id, digest, until })
    }
    if (owner) for (const channel of channels.get(null) ?? []) queued.push({ channelId: channel.id, digest: owner, until: null })
    await queueAll(trx, queued, now)
    await deleteChapters(
      trx,
      rows.map((r) => r.id),
    )
    return readers
  })
}

interface Queued {
  channelId: number
  digest: Digest
  /** The end of the Reader's quiet hours, or null to send at once. */
  until: number | null
}

/** Queues each digest on its channel: at once, or held to the end of quiet hours — joined to the one held already. */
async function queueAll(db: Db, queued: readonly Queued[], now: number): Promise<void> {
  const held = await heldMessagesOf(
    db,
    queued.filter((q) => q.until !== null).map((q) => q.channelId),
    now,
  )
  const fresh: Array<{ channel_id: number; message: string; created_at: number; not_before: number }> = []
  for (const { channelId, digest, until } of queued) {
    const joined = until === null ? undefined : held.get(channelId)
    if (joined) await replaceMessage(db, joined.id, JSON.stringify(mergeDigests(JSON.parse(joined.message) as Digest, digest)))
    else fresh.push({ channel_id: channelId, message: JSON.stringify(digest), created_at: now, not_before: until ?? now })
  }
  await enqueueAll(db, fresh)
}

/** A queue reads this many due messages at a time; their bookkeeping is one transaction. */
const BATCH = 10

/**
 * The bookkeeping of a queue's batch (docs/adr/0170-digests-in-sets.md): each message delivered is deleted and
 * its channel marked delivered in ONE transaction at the end of the batch, not two synced commits per message. A
 * crash before it sends those messages again, with the same delivery ids (docs/adr/0118-…), as a crash between
 * a send and its commit always could. Anything else written about a channel first writes what is pending, so
 * the channel's rows change in the order things happened.
 */
function delivered(deps: NotifierDeps) {
  const messages: number[] = []
  const channels = new Map<number, number>()
  return {
    add(messageId: number, channelId: number, at: number) {
      messages.push(messageId)
      channels.set(channelId, at)
    },
    /** Whether a channel delivered in this batch (its stored failures are about to be reset). */
    has: (channelId: number) => channels.has(channelId),
    async flush(): Promise<void> {
      if (messages.length === 0 && channels.size === 0) return
      const ids = messages.splice(0)
      const delivered = [...channels]
      channels.clear()
      await deps.db.transaction().execute(async (trx) => {
        for (const id of ids) await messageDone(trx, id)
        for (const [channelId, at] of delivered) await channelDelivered(trx, channelId, at)
      })
    },
  }
}

type Delivered = ReturnType<typeof delivered>

async function deliverMessage(
  deps: NotifierDeps,
  message: NotifyOutboxRow,
  policy: TargetPolicy,
  signal: AbortSignal,
  done: Delivered,
): Promise<void> {
  const { db, clock, log } = deps
  const stored = await getChannel(db, message.channel_id)
  if (!stored) return messageDone(db, message.id)
  // A channel delivered earlier in this batch has no failures, though its row says so until the batch is written.
  const channel = done.has(stored.id) ? { ...stored, failures: 0 } : stored
  const reader = channel.reader_id === null ? 'the owner' : await readerName(db, channel.reader_id)
  const digest = JSON.parse(message.message) as Digest
  const deliveryId = message.delivery_id || newDeliveryId()
  const failure = await sendOne(deps, channel, digest, deliveryId, policy, { signal, reader, done: done.flush })
  if (failure === null) return done.add(message.id, channel.id, clock.now())
  if (failure === GONE || signal.aborted) return
  const attempts = message.attempts + 1
  if (attempts >= MAX_ATTEMPTS) {
    log.warn(
      { reader, channel: channel.id, kind: channel.kind, attempts, reason: failure },
      `notify: a message to ${describe(reader, channel)} was given up after ${attempts} tries: ${failure}`,
    )
    return messageDone(db, message.id)
  }
  await messageRetry(db, message.id, await retryAt(db, channel, clock.now() + backoffMs(attempts)), failure)
}

/**
 * When a failed message is tried again: after its backoff, but never inside its Reader's quiet hours — a retry due
 * in them waits to their end, as a first send does (the owner's channels have none).
 */
export async function retryAt(db: Db, channel: Pick<NotifyChannelRow, 'reader_id'>, due: number): Promise<number> {
  if (channel.reader_id === null) return due
  return quietUntil(rulesFromRow(await readerPrefs(db, channel.reader_id)), due) ?? due
}

const GONE = 'the push service says this subscription is gone'

/** A channel as a warning names it: whose, what kind, and the target's host (never its path: a topic is a secret). */
function describe(reader: string, channel: NotifyChannelRow): string {
  let host = ''
  try {
    host = new URL(channel.target).host
  } catch {
    host = 'an unreadable URL'
  }
  const whose = reader === 'the owner' ? "the owner's" : `Reader ${JSON.stringify(reader)}'s`
  return `${whose} ${channel.kind} channel ${channel.id} (${host})`
}

/**
 * Sends a digest on a channel and records how it went on the channel; the failure's plain reason, or null. The
 * terminal is told once per episode: at a channel's first failure since it last delivered (docs/adr/0120-…).
 */
async function sendOne(
  deps: NotifierDeps,
  channel: NotifyChannelRow,
  digest: Digest,
  deliveryId: string,
  policy: TargetPolicy,
  how: { signal: AbortSignal; reader: string; done?: () => Promise<void> },
): Promise<string | null> {
  const { db, clock, log } = deps
  let reason: string
  let detail: string
  try {
    const answer = await sendTo(channelRequest(channel, digest, deliveryId, deps.vapid, clock.now()), policy, SEND_TIMEOUT_MS, how.signal)
    if (answer.status >= 200 && answer.status < 300) {
      // A delivery from the outbox is written with its batch (how.done); a test message at once.
      if (!how.done) await channelDelivered(db, channel.id, clock.now())
      return null
    }
    if (senderOf(channel).gone(answer.status)) {
      log.info({ channel: channel.id, status: answer.status }, 'notify: a push subscription is gone; removed')
      await removeChannel(db, channel.id)
      return GONE
    }
    reason = plainReason(answer)
    detail = `HTTP ${answer.status}`
  } catch (error) {
    if (how.signal.aborted) return 'stopped'
    reason = plainReason(error as Error)
    detail = (error as Error).message
  }
  const line = `notify: a message to ${describe(how.reader, channel)} was not delivered: ${reason}`
  const fields = { reader: how.reader, channel: channel.id, kind: channel.kind, reason, detail }
  if (channel.failures === 0) log.warn(fields, `${line}; told once until it delivers again`)
  else log.debug(fields, line)
  await how.done?.()
  await channelFailed(db, channel.id, reason, clock.now())
  return reason
}

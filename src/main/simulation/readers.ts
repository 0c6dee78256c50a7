/**
 * The simulated Readers as people (docs/adr/0122-the-simulation-delivers-to-loopback-receivers.md): each has
 * notification rules — a threshold of unread chapters, quiet hours in their own time zone, a Series or two muted —
 * and channels of each kind leading to the simulated receivers; the outbox a digest fills is read as it is made,
 * and its messages are delivered by the notifier's own delivery round while the fake clock stands still.
 */
import type { Statement } from 'better-sqlite3'
import type { Core } from '../core'
import { addChannel, putReaderPrefs } from '../store/notify'
import { writeSettings } from '../store/settings'
import type { NotifyChannelKind } from '../store/schema'
import type { Household } from './agenda'
import { updateBookmark } from '../store/bookmarks'
import { CAUGHT_UP } from './actions'
import { releasedBy, type World } from './catalogue'
import type { EventLog, ReaderEvent } from './events'
import type { Random } from './random'
import { pushKeys, receiverEpisodes, type Receivers } from './receivers'

/** Each Reader's rules and channels, by their place among the Readers (a fifth would take the first's). */
const PEOPLE: ReadonlyArray<{
  minUnread: number
  quiet: { from: string; to: string; timeZone: string } | null
  channels: readonly NotifyChannelKind[]
  mutes: number
}> = [
  { minUnread: 1, quiet: { from: '22:00', to: '07:00', timeZone: 'Europe/London' }, channels: ['webhook', 'webpush'], mutes: 0 },
  { minUnread: 2, quiet: { from: '23:30', to: '08:00', timeZone: 'America/New_York' }, channels: ['ntfy'], mutes: 1 },
  { minUnread: 1, quiet: { from: '00:00', to: '09:00', timeZone: 'Asia/Tokyo' }, channels: ['webhook'], mutes: 0 },
  { minUnread: 3, quiet: null, channels: ['webpush', 'ntfy', 'webhook'], mutes: 1 },
]

/** Sets up each Reader's rules and channels, one receiver each; targets on loopback need the owner's consent. */
export async function seedReaders(opts: {
  core: Core
  world: World
  readers: readonly number[]
  household: Household
  receivers: Receivers
  rng: Random
  log: EventLog
}): Promise<void> {
  const { core, world, readers, household, receivers, rng, log } = opts
  const db = core.store.db
  const now = core.clock.now()
  await writeSettings(db, { notifyTargets: 'local-network' })
  let n = 0
  for (const [i, reader] of readers.entries()) {
    const person = PEOPLE[i % PEOPLE.length]!
    const held = world.series.filter((s) => household.held.get(s.key)?.has(reader)).map((s) => s.key)
    const muted = person.mutes > 0 && held.length > 0 ? [rng.pick(held)] : []
    await putReaderPrefs(db, {
      reader_id: reader,
      min_unread: person.minUnread,
      quiet_from: person.quiet?.from ?? '',
      quiet_to: person.quiet?.to ?? '',
      time_zone: person.quiet?.timeZone ?? '',
      muted: JSON.stringify(muted.map((k) => [k.slice(0, k.indexOf('/')), k.slice(k.indexOf('/') + 1)])),
      updated_at: now,
    })
    await seedProgress(core, world, reader, i, held, rng)
    const channels: ReaderEvent['channels'] = []
    for (const kind of person.channels) {
      n++
      const secret = kind === 'webpush' ? pushKeys(rng) : kind === 'webhook' ? { secret: rng.hex(32) } : { token: rng.hex(16) }
      const id = await addChannel(db, reader, { kind, target: receivers.target(kind, n), secret: JSON.stringify(secret) }, now)
      receivers.add({
        id,
        reader,
        kind,
        path: `/${kind}/${n}`,
        episodes: receiverEpisodes(rng.fork(`receiver ${n}`), world.start, world.end),
        rng: rng.fork(`deliveries ${n}`),
      })
      channels.push({ id, kind })
    }
    log.add({ type: 'reader', reader, minUnread: person.minUnread, quiet: person.quiet, muted, channels })
  }
}

/**
 * Where a Reader stands in each Series they hold at the start: read to the newest, some chapters behind, far
 * behind, or (now and then) never opened — as their habit (CAUGHT_UP) makes likely.
 */
async function seedProgress(core: Core, world: World, reader: number, place: number, held: readonly string[], rng: Random): Promise<void> {
  for (const key of held) {
    const series = world.series.find((s) => s.key === key)!
    const released = releasedBy(series, world.start)
    if (!released.length || rng.chance(0.1)) continue
    const behind = rng.chance(CAUGHT_UP[place % CAUGHT_UP.length]!) ? 0 : rng.int(1, Math.min(40, released.length - 1))
    const progress = released[released.length - 1 - behind]!.number
    const now = core.clock.now()
    await updateBookmark(core.store.db, reader, { site: series.site, seriesId: series.seriesId }, { progress, progressAt: now }, now)
  }
}

/** The outbox as a digest left it: the rows it added (read at once, on the core's own connection). */
export class OutboxWatch {
  #known = new Set<string>()
  #all: Statement | undefined
  #nextDue: Statement | undefined

  constructor(
    private readonly core: () => Core,
    private readonly log: EventLog,
  ) {}

  /**
   * After a digest: enters the rows it queued — those not in the outbox at the last look, known by their delivery id
   * (a row's id is used again once the rows above it are gone; a delivery id never is).
   */
  observe(site: string): void {
    this.#all ??= this.core().store.sqlite.prepare(
      'SELECT id, delivery_id, channel_id, created_at, not_before, message FROM notify_outbox ORDER BY id',
    )
    const rows = this.#all.all() as Array<{
      id: number
      delivery_id: string
      channel_id: number
      created_at: number
      not_before: number
      message: string
    }>
    const keyOf = (r: (typeof rows)[number]) => r.delivery_id
    const added = rows.filter((r) => !this.#known.has(keyOf(r)))
    this.#known = new Set(rows.map(keyOf))
    if (added.length === 0) return
    this.log.add({
      type: 'outbox',
      site,
      rows: added.map((r) => ({
        id: r.id,
        deliveryId: r.delivery_id,
        channel: r.channel_id,
        createdAt: r.created_at,
        notBefore: r.not_before,
        series: (JSON.parse(r.message) as { newChapters: Array<{ site: string; seriesId: string }> }).newChapters.map(
          (c) => `${c.site}/${c.seriesId}`,
        ),
      })),
    })
  }

  /** Runs the notifier's delivery round when a message is due (the clock stands still meanwhile). */
  async deliver(): Promise<void> {
    const core = this.core()
    this.#nextDue ??= core.store.sqlite.prepare('SELECT MIN(next_attempt_at) AS at FROM notify_outbox')
    const row = this.#nextDue.get() as { at: number | null }
    if (row.at === null || row.at > core.clock.now()) return
    await core.notifier.deliverDue().catch(() => undefined)
  }
}

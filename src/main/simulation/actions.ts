/**
 * The agenda's items as they come due: the world's own (a release, a wall-clock step, the machine sleeping and
 * waking, another process holding the database's lock) and the owner's and Readers' actions (Check now, Pause,
 * Resume, Finish, new bookmarks, Sightings), each entered in the event log with how it went.
 */
import { PAUSE_DURATIONS, type AdminApi } from '../../shared/admin-api'
import type { Core } from '../core'
import type { Db } from '../store/database'
import { updateBookmark } from '../store/bookmarks'
import { recordSighting } from '../store/sightings'
import { bookmarkByUrl, type AcquireDeps } from '../use-cases/acquire'
import type { FakeClock } from '../testing/clock'
import type { Household, Item, ItemOf } from './agenda'
import { releasedBy, type SimSeries, type World } from './catalogue'
import type { EventLog, RequestEvent } from './events'
import type { Random } from './random'

export interface ActorDeps {
  world: World
  clock: FakeClock
  log: EventLog
  core: Core
  /** The store's handle as the core uses it (faults injected). */
  db: Db
  admin: AdminApi
  /** The core's, with the Sites' view that marks each request as an Acquisition's. */
  acquireDeps: AcquireDeps
  household: Household
  readers: readonly number[]
  rng: Random
  /** The Lanes' requests not yet closed by a check: a machine going to sleep drops them. */
  openChecks: Map<string, RequestEvent[]>
  /** The injected database faults: a lock held by another process sets `lockedUntil`. */
  dbFaults: { lockedUntil: number }
  /** Enters the Series row as the store will have it once the queries queued before are run. */
  snapshotLatest(site: string, seriesId: string, after: 'check' | 'sighting'): void
  /** Keeps a started piece of work until it settles (the run waits for them all at its end). */
  track(work: Promise<unknown>): void
  /** Enters a Reader's view of a Series (unread count, next chapter) as the app will show it once the queries before have run. */
  snapshotUnread(readerId: number, series: SimSeries): void
}

/** The chance a Reader reads a Series to its newest chapter in a session (else they stop some chapters behind). */
export const CAUGHT_UP = [0.9, 0.3, 0.8, 0.1]

type ActionEntry = Parameters<EventLog['add']>[0] & { type: 'action' }

export class Actor {
  #asleep = false
  /** A flood sent while the machine slept: the Reader's device sends it again once the app answers. */
  #heldFlood: ItemOf<'bookmark-burst'> | null = null
  /** The Readers' reading, a stream of its own so it reshuffles no other action. */
  readonly #reading: Random

  constructor(private readonly d: ActorDeps) {
    this.#reading = d.rng.fork('reading')
  }

  /** Runs one item. Nobody uses the app while the machine sleeps; the world goes on. */
  async run(item: Item): Promise<void> {
    switch (item.kind) {
      case 'release':
        return this.#release(item)
      case 'clock-step':
        this.d.clock.stepWall(item.stepMs)
        this.d.log.add({ type: 'action', action: 'clock-step', stepMs: item.stepMs, result: 'ok' })
        return
      case 'machine-sleep':
        return this.#sleep()
      case 'machine-wake':
        return this.#wake()
      case 'database-locked':
        this.d.dbFaults.lockedUntil = this.d.clock.monotonic() + item.forMs
        return
    }
    if (this.#asleep && item.kind === 'bookmark-burst' && item.flood) this.#heldFlood = item
    if (this.#asleep) return
    switch (item.kind) {
      case 'check-now':
        return this.#checkNow(item)
      case 'pause':
        return this.#pause(item)
      case 'resume':
        return this.#resume(item)
      case 'finish':
      case 'unfinish':
        return this.#finish(item.kind === 'finish')
      case 'bookmark':
        return this.#bookmarkFresh()
      case 'bookmark-burst':
        return this.#bookmarkBurst(item)
      case 'bookmark-second':
        return this.#bookmarkSecond()
      case 'sighting':
        return this.#sighting(item)
      case 'read':
        return this.#read(item)
    }
  }

  /** A Reader reads one to three of their Series on the Site and records Progress: to the newest, or stopping behind. */
  async #read(item: ItemOf<'read'>): Promise<void> {
    const { world, household, readers, clock, db } = this.d
    const rng = this.#reading
    const readerId = readers[item.reader]!
    const mine = world.series.filter((s) => household.held.get(s.key)?.has(readerId))
    for (let n = mine.length ? rng.int(1, 3) : 0; n > 0; n--) {
      const series = rng.pick(mine)
      const released = releasedBy(series, clock.monotonic())
      if (!released.length) continue
      const behind = rng.chance(CAUGHT_UP[item.reader % CAUGHT_UP.length]!) ? 0 : rng.int(1, Math.min(8, released.length - 1))
      const progress = released[released.length - 1 - behind]!.number
      const key = { site: series.site, seriesId: series.seriesId }
      await this.#record(
        { type: 'action', action: 'progress', site: series.site, series: series.key, reader: readerId, chapter: progress, result: '' },
        async () => {
          await updateBookmark(db, readerId, key, { progress, progressAt: clock.now() }, clock.now())
        },
      )
      this.d.snapshotUnread(readerId, series)
    }
  }

  #release(item: ItemOf<'release'>): void {
    const { household: state } = this.d
    const holders = state.held.get(item.series.key)?.size ?? 0
    this.d.log.add({
      type: 'release',
      site: item.series.site,
      series: item.series.key,
      chapter: item.chapter.number,
      tracked: holders > 0 && !state.finished.has(item.series.key),
      readers: holders,
      eligible: this.#eligible(item.series.site),
    })
  }

  async #sleep(): Promise<void> {
    if (this.#asleep) return
    this.#asleep = true
    this.d.log.add({ type: 'action', action: 'lanes-stop', result: 'ok' })
    await this.d.core.stopLanes()
    for (const key of this.d.openChecks.keys()) if (key.startsWith('lane|')) this.d.openChecks.delete(key)
  }

  async #wake(): Promise<void> {
    if (!this.#asleep) return
    this.#asleep = false
    this.d.log.add({ type: 'action', action: 'lanes-start', result: 'ok' })
    await this.d.core.startLanes()
    const flood = this.#heldFlood
    this.#heldFlood = null
    if (flood) this.#bookmarkBurst(flood)
  }

  async #checkNow(item: ItemOf<'check-now'>): Promise<void> {
    const finished = this.d.household.finished
    const held = this.#heldSeries().filter((x) => (!item.site || x.site === item.site) && (!item.finished || finished.has(x.key)))
    if (!held.length) return
    const series = this.d.rng.pick(held)
    return this.#record({ type: 'action', action: 'check-now', site: series.site, series: series.key, result: '' }, async () => {
      const row = await this.d.admin.forceSeriesPoll({ site: series.site, seriesId: series.seriesId })
      return { pending: row.pending }
    })
  }

  async #pause(item: ItemOf<'pause'>): Promise<void> {
    const { admin, log } = this.d
    // The duration the simulation chose goes in the log: the pause is judged from the press, not the store.
    await this.#record(
      { type: 'action', action: 'pause', site: item.site, durationMs: PAUSE_DURATIONS[item.duration], result: '' },
      async () => {
        const lane = await admin.pauseLane({ site: item.site, duration: item.duration })
        log.add({ type: 'lane', site: item.site, pausedUntil: lane.pausedUntil, refuseUntil: lane.refuseUntil })
      },
    )
  }

  async #resume(item: ItemOf<'resume'>): Promise<void> {
    const { admin, log } = this.d
    await this.#record({ type: 'action', action: 'resume', site: item.site, result: '' }, async () => {
      const lane = await admin.resumeLane({ site: item.site })
      log.add({ type: 'lane', site: item.site, pausedUntil: lane.pausedUntil, refuseUntil: lane.refuseUntil })
    })
  }

  async #finish(finishing: boolean): Promise<void> {
    const { household: state, rng, admin } = this.d
    // The owner shelves Series that stopped coming out (and now and then one that had not).
    const candidates = this.#heldSeries().filter(
      (s) =>
        state.finished.has(s.key) !== finishing &&
        (!finishing || ['finished', 'hiatus'].includes(s.schedule[s.schedule.length - 1]!.cadence) || rng.chance(0.1)),
    )
    if (!candidates.length) return
    const series = rng.pick(candidates)
    if (finishing) state.finished.add(series.key)
    else state.finished.delete(series.key)
    const action = finishing ? 'finish' : 'unfinish'
    return this.#record({ type: 'action', action, site: series.site, series: series.key, result: '' }, async () => {
      await (finishing ? admin.finishSeries : admin.unfinishSeries)({ site: series.site, seriesId: series.seriesId })
    })
  }

  #bookmarkFresh(): void {
    const { world, household: state, rng, readers } = this.d
    const fresh = world.series.filter((s) => !s.flood && !state.known.has(s.key))
    if (!fresh.length) return
    this.d.track(this.#bookmark(rng.pick(fresh), rng.pick(readers)))
  }

  /** A Reader imports a handful of Series of one Site at once (a flood: the flood's hundreds). */
  #bookmarkBurst(item: ItemOf<'bookmark-burst'>): void {
    const { world, household: state, rng, readers } = this.d
    const site = item.site ?? rng.pick(world.sites).site.key
    const fresh = world.series.filter((s) => s.site === site && !state.known.has(s.key) && !s.flood === !item.flood)
    const readerId = item.reader !== undefined ? readers[item.reader]! : rng.pick(readers)
    for (const series of fresh.slice(0, item.count ?? rng.int(3, 6))) this.d.track(this.#bookmark(series, readerId))
  }

  #bookmarkSecond(): void {
    const { household: state, rng, readers } = this.d
    const held = this.#heldSeries().filter((s) => state.held.get(s.key)!.size < readers.length)
    if (!held.length) return
    const series = rng.pick(held)
    const readerId = rng.pick(readers.filter((r) => !state.held.get(series.key)!.has(r)))
    this.d.track(this.#bookmark(series, readerId))
  }

  async #sighting(item: ItemOf<'sighting'>): Promise<void> {
    const { household: state, rng, clock } = this.d
    let series = item.series
    let chapter = item.chapter
    if (!series) {
      const held = this.#heldSeries()
      if (!held.length) return
      series = rng.pick(held)
      const highest = releasedBy(series, clock.monotonic()).at(-1)?.number ?? 1
      chapter = item.flavour === 'bogus' ? Math.floor(highest) + rng.int(2, 20) : Math.max(1, Math.floor(highest) - rng.int(1, 3))
    }
    const holders = [...(state.held.get(series.key) ?? [])]
    if (!holders.length || chapter === undefined) return
    const target = series
    const readerId = rng.pick(holders)
    await this.#record({ type: 'action', action: 'sighting', site: target.site, series: target.key, chapter, result: '' }, async () => {
      await recordSighting(this.d.db, {
        site: target.site,
        seriesId: target.seriesId,
        readerId,
        chapter: chapter!,
        sightedAt: clock.now(),
        now: clock.now(),
      })
    })
    this.d.snapshotLatest(target.site, target.seriesId, 'sighting')
  }

  /** A Reader bookmarks a Series by pasting its URL (now and then a chapter's): an Acquisition when the app had no row for it. */
  #bookmark(series: SimSeries, readerId: number): Promise<void> {
    const { household: state, rng } = this.d
    const acquired = !state.held.get(series.key)?.size && !state.known.has(series.key)
    const pasted = rng.chance(0.25) && /\/$/.test(series.url) ? `${series.url}chapter-1/` : series.url
    state.known.add(series.key)
    const holders = state.held.get(series.key) ?? new Set<number>()
    holders.add(readerId)
    state.held.set(series.key, holders)
    return this.#record(
      { type: 'action', action: 'bookmark', site: series.site, series: series.key, reader: readerId, result: '' },
      async () => {
        await bookmarkByUrl(this.d.acquireDeps, { readerId, url: pasted })
        return { acquired }
      },
    )
  }

  /** Runs an action and enters it in the log with its result: ok, or the error's message. */
  async #record(action: ActionEntry, work: () => Promise<Record<string, unknown> | void>): Promise<void> {
    try {
      const extra = (await work()) ?? {}
      this.d.log.add({ ...action, ...extra, result: 'ok' })
    } catch (error) {
      this.d.log.add({ ...action, result: (error as Error).message || String(error) })
    }
  }

  #heldSeries(): SimSeries[] {
    return this.d.world.series.filter((s) => this.d.household.held.get(s.key)?.size)
  }

  /** The Series of `site` its Lane checks: held by a Reader and not Finished. */
  #eligible(site: string): number {
    const { world, household: state } = this.d
    return world.series.filter((s) => s.site === site && state.held.get(s.key)?.size && !state.finished.has(s.key)).length
  }
}

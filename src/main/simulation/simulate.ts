/**
 * The simulation (docs/adr/0020-the-simulation.md): the real core — store on a temporary SQLite file, Lanes,
 * pass, adapters, chapter parser, Acquisition, the admin operations, Sightings — run for days on the fake
 * clock against simulated Sites served in process, with faults, the owner's and Readers' actions and
 * wall-clock steps; every request, check, pass, release and action goes into an event log, and the
 * invariants are checked over it.
 */
import { inlineReader } from '../sites/page-reader'
import type { Cadence, Pace } from '../sites/site'
import { carryForward } from '../store/passes'
import type { PassRow } from '../store/schema'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { storedChapterNumbers } from '../store/chapters'
import type { KyselyPlugin } from 'kysely'
import { pino, type Logger } from 'pino'
import { PAUSE_DURATIONS, type PauseDuration } from '../../shared/admin-api'
import { createAdmin } from '../admin/admin'
import type { CheckOutcome } from '../lanes/check'
import { startCore, type Core } from '../core'
import type { Db, Store } from '../store/database'
import { addBookmark } from '../store/bookmarks'
import { laneRow } from '../store/lanes'
import { addSeries, finishSeries, getSeries, markLatestChecked, recordCheckResult } from '../store/series'
import { recordSighting } from '../store/sightings'
import type { Site } from '../sites/site'
import type { AcquireDeps } from '../use-cases/acquire'
import type { Digest } from '../notify/digest'
import { bookmarkByUrl } from '../use-cases/acquire'
import { FakeClock } from '../testing/clock'
import { buildWorld, DAY, HOUR, releasedBy, type SimChapter, type SimSeries, type World } from './catalogue'
import { checkInvariants, type CheckerConfig } from './checker'
import {
  DB_FAULT_MARK,
  EventLog,
  type Caller,
  type CheckEvent,
  type FaultKind,
  type NotifyEvent,
  type RequestEvent,
  type SimEvent,
} from './events'
import { Random } from './random'
import { buildReport, type SimulationReport } from './report'
import { LONGEST_REQUEST_MS, SimSites, type FaultEpisode, type FaultRates } from './sim-sites'

export type Level = 'none' | 'some' | 'many'
export const LEVELS: readonly Level[] = ['none', 'some', 'many']

export interface SimulationOptions {
  /** How long to run; a fraction of a day is fine (tests). */
  days: number
  series: number
  sites: number
  seed: number
  /** Request faults, fault episodes, wall-clock steps and machine sleeps. */
  faults?: Level
  /** Every Site's cadence (default `fixed`): the same world, checked once per rest or by each Series' rhythm. */
  cadence?: Cadence
  /** The owner's and Readers' actions: Check now, Pause, Finish, new bookmarks, Sightings. */
  actions?: Level
  /** Per-request (and per-query, `database`) fault rates over the ones `faults` sets. */
  faultRates?: Partial<FaultRates>
  /** Where the temporary store goes (default: /dev/shm where it exists, else the system's temp folder). */
  tmpDir?: string
  /** Called after each simulated day. */
  onDay?(day: number): void
  /** Scripted steps added to the seeded agenda. */
  scenario?: readonly ScenarioStep[]
  /** Pace settings every Site takes over its own. */
  pace?: Partial<Pace>
  /** The share of Series the household holds at the start (default 0.85); the rest are there to bookmark. */
  held?: number
  /** Called with the store before it is closed and deleted (tests compare it with the report). */
  inspect?(store: Store): Promise<void>
  /** Receives the whole event log at the end (for a reproduction or a closer look). */
  onEvents?(events: readonly SimEvent[]): void
}

/** The simulation's start: a Monday, 00:00 UTC (world time and, until a step, the app's wall clock). */
export const SIM_START = Date.UTC(2025, 0, 6)
const READERS = ['Ada', 'Bo', 'Cy', 'Dee']

const FAULT_RATES: Record<Level, FaultRates> = {
  none: { '5xx': 0, timeout: 0, challenge: 0, empty: 0, 'no-chapter': 0, 'browser-dies': 0, database: 0 },
  some: { '5xx': 0.01, timeout: 0.004, challenge: 0.002, empty: 0.003, 'no-chapter': 0.003, 'browser-dies': 0.01, database: 0.00002 },
  many: { '5xx': 0.04, timeout: 0.015, challenge: 0.008, empty: 0.012, 'no-chapter': 0.012, 'browser-dies': 0.04, database: 0.0001 },
}
const FAULT_SCALE: Record<Level, number> = { none: 0, some: 1, many: 4 }
const ACTION_SCALE: Record<Level, number> = { none: 0, some: 1, many: 3 }

/** Per day, at level `some`. */
const ACTION_RATES = {
  'check-now': 6,
  pause: 0.4,
  finish: 0.3,
  unfinish: 0.1,
  bookmark: 1.5,
  'bookmark-burst': 0.25,
  'bookmark-second': 0.5,
  'sighting-bogus': 0.3,
  'sighting-stale': 0.3,
} as const
/** The chance a Reader reports a tracked release shortly after it comes out. */
const SIGHTING_OF_RELEASE = 0.12
const DISTURBANCE_RATES = { 'clock-step': 0.3, 'machine-sleep': 0.25, outage: 0.1, 'challenge-episode': 0.07 } as const

type Item =
  | { at: number; kind: 'release'; series: SimSeries; chapter: SimChapter }
  | { at: number; kind: 'sighting'; flavour: 'real' | 'bogus' | 'stale'; series?: SimSeries; chapter?: number }
  | { at: number; kind: 'pause'; site: string; duration: PauseDuration; resumeAfter: number | null }
  | { at: number; kind: 'resume'; site: string }
  | { at: number; kind: 'finish' | 'unfinish' | 'bookmark' | 'bookmark-second' }
  | { at: number; kind: 'check-now'; site?: string }
  | { at: number; kind: 'bookmark-burst'; site?: string; count?: number; reader?: number }
  | { at: number; kind: 'clock-step'; stepMs: number }
  | { at: number; kind: 'machine-sleep' | 'machine-wake' }
  | { at: number; kind: 'database-locked'; forMs: number }

/**
 * One step of a scripted scenario, `at` ms after the start; a Site is given by its index in the run's
 * Sites. Scenarios add to the seeded agenda (run them with `faults: 'none', actions: 'none'` for a minimal
 * reproduction).
 */
export type ScenarioStep =
  | { at: number; do: 'clock-step'; stepMs: number }
  | { at: number; do: 'machine-sleep'; forMs: number }
  | { at: number; do: 'pause'; site: number; duration: PauseDuration }
  | { at: number; do: 'resume'; site: number }
  /** Check now on a Series of the Site a Reader holds. */
  | { at: number; do: 'check-now'; site: number }
  /** A Reader (`reader`: its index among the Readers; else any) bookmarks `count` new Series of the Site at once. */
  | { at: number; do: 'bookmark-burst'; site: number; count: number; reader?: number }
  /** Another process holds the database's lock: every store query fails for `forMs`. */
  | { at: number; do: 'database-locked'; forMs: number }

export async function simulate(options: SimulationOptions): Promise<SimulationReport> {
  const realStart = performance.now()
  const faults = options.faults ?? 'some'
  const rates: FaultRates = { ...FAULT_RATES[faults], ...options.faultRates }
  const actions = options.actions ?? 'some'
  const root = new Random(options.seed)
  const start = SIM_START
  const end = start + options.days * DAY
  const world = buildWorld(root.fork('world'), {
    sites: options.sites,
    series: options.series,
    start,
    end,
    cadence: options.cadence ?? 'fixed',
    ...(options.pace ? { pace: options.pace } : {}),
    ...(options.held !== undefined ? { held: options.held } : {}),
  })
  const clock = new FakeClock(start)
  const log = new EventLog(clock)
  const episodes = makeEpisodes(root.fork('episodes'), world, faults)

  // Requests are grouped into checks by who asked and for which Series; a check's report closes its group.
  const openChecks = new Map<string, RequestEvent[]>()
  const sites = new SimSites({
    world,
    clock,
    log,
    rng: root.fork('faults'),
    rates,
    episodes,
    onRequest: (event) => {
      const key = `${event.caller}|${event.series}`
      const open = openChecks.get(key)
      if (open) open.push(event)
      else openChecks.set(key, [event])
    },
  })
  const logProblems = new Map<string, number>()
  let core: Core | undefined
  // The handle as opened, for the simulation's own reads (never faulted), and the faulting one the core uses.
  let rawDb: Db | undefined
  const dbFaults = { active: false, rng: root.fork('database'), rate: rates.database, injected: 0, lockedUntil: 0 }
  const dbFaultPlugin: KyselyPlugin = {
    transformQuery(args) {
      const locked = dbFaults.lockedUntil > clock.monotonic()
      if (dbFaults.active && (locked || (dbFaults.rate > 0 && dbFaults.rng.next() < dbFaults.rate))) {
        const what = describeQuery(args.node)
        dbFaults.injected++
        log.add({ type: 'db-fault', what })
        throw new Error(`${DB_FAULT_MARK} (SQLITE_BUSY: database is locked) on ${what}`)
      }
      return args.node
    },
    transformResult: async (args) => args.result,
  }

  const onCheck = (caller: Caller, site: string, seriesId: string, outcome: CheckOutcome, reason: string) => {
    const series = `${site}/${seriesId}`
    const key = `${caller}|${series}`
    const requests = openChecks.get(key) ?? []
    openChecks.delete(key)
    const served = requests.reduce<number | null>(
      (max, r) => (r.served !== null && (max === null || r.served > max) ? r.served : max),
      null,
    )
    const reported = outcome === 'chapter' ? Number(/^chapter (.+)$/.exec(reason)?.[1]) : null
    const first = requests[0]
    const listed = requests.reduce<number[] | null>((last, r) => r.listed ?? last, null)
    const event = log.add({
      type: 'check',
      site,
      series,
      caller,
      outcome,
      reason,
      startMono: first?.mono ?? clock.monotonic(),
      startWall: first?.wall ?? clock.now(),
      requests: requests.length,
      faults: [
        ...requests.flatMap((r) => (r.fault ? [r.fault] : [])),
        ...(reason.includes(DB_FAULT_MARK) ? ['database' as FaultKind] : []),
      ],
      served,
      reported: reported !== null && Number.isFinite(reported) ? reported : null,
      listed,
      stored: null as number[] | null,
    } satisfies Omit<CheckEvent, 'seq' | 'mono' | 'wall'>)
    if (outcome === 'chapter') snapshotLatest(site, seriesId, 'check')
    // The chapter list as stored once the check is recorded (read after the queries queued before it).
    if (outcome === 'chapter') void storedChapterNumbers(rawDb!, { site, seriesId }).then((numbers) => (event.stored = numbers))
    // An Acquisition records its refusal before it logs; a Lane logs its check first (see the log hook).
    if (outcome === 'refused' && caller === 'acquisition') snapshotLane(site)
  }

  /** The Series row as it is once the queries queued before this one have run (the order they were made in). */
  const snapshotLatest = (site: string, seriesId: string, after: 'check' | 'sighting') => {
    const event = log.add({ type: 'latest', site, series: `${site}/${seriesId}`, chapter: null as number | null, source: '', after })
    void getSeries(rawDb!, { site, seriesId }).then((row) => {
      event.chapter = row?.latest_chapter ?? null
      event.source = row?.latest_source ?? ''
    })
  }
  const snapshotLane = (site: string) => {
    const event = log.add({ type: 'lane', site, pausedUntil: 0, refuseUntil: 0 })
    void laneRow(rawDb!, site).then((row) => {
      event.pausedUntil = row.paused_until
      event.refuseUntil = row.refuse_until
    })
  }

  // The core logs every check it makes; the simulation reads those calls (never their JSON) through a hook.
  const appLog: Logger = pino({
    level: 'debug',
    hooks: {
      logMethod(args, _method, level) {
        const [first, second] = args as unknown[]
        const fields = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {}
        const message = typeof first === 'string' ? first : typeof second === 'string' ? second : ''
        const site = String(fields.site ?? '')
        if (message === 'lane: checked') onCheck('lane', site, String(fields.series), fields.outcome as CheckOutcome, String(fields.reason))
        else if (message === 'acquire: read a new Series')
          onCheck('acquisition', site, String(fields.series), fields.outcome as CheckOutcome, String(fields.reason))
        else if (message === 'lane: refused; backing off') snapshotLane(site)
        else if (message === 'lane: pass failed')
          log.add({ type: 'pass-failed', site, message: String((fields.err as Error | undefined)?.message ?? fields.err) })
        if (level >= 40) logProblems.set(message, (logProblems.get(message) ?? 0) + 1)
      },
    },
  })

  /** Each Site's newest pass row, as the store has it or will (a held row). */
  const lastRows = new Map<string, PassRow>()
  const dir = mkdtempSync(join(options.tmpDir ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir()), 'mb-sim-'))
  let timersFired = 0
  try {
    core = await startCore({
      dataDir: dir,
      clock,
      log: appLog,
      sites: world.sites.map((s) => s.site),
      http: sites.http('lane'),
      browser: sites.browser('lane'),
      // Pages are read in process: a worker thread would read in real time while the clock is fake.
      reader: inlineReader,
      wrapDb: (db) => {
        rawDb = db
        return db.withPlugin(dbFaultPlugin)
      },
      onDigest: (site, digests) => log.add(notifyEvent(core!, site, digests)),
      onPass: (site, result) => {
        // A row the store could not take is held by the Lane and written later with these very figures, carried
        // forward from the row before it as the store does (docs/adr/0045-storage-faults.md): it is this pass's row.
        const row = result.row ?? (result.unwritten ? { id: 0, ...carryForward(result.unwritten, lastRows.get(site.key)) } : null)
        if (row) lastRows.set(site.key, row)
        log.add({
          type: 'pass',
          site: site.key,
          row,
          newChapters: result.newChapters.map((c) => ({ series: `${c.site}/${c.seriesId}`, chapter: c.chapter })),
        })
        // The Lane may have bounded its own pause or refusal (a clock set back): read the row it acted on.
        if (result.row?.skip === 'paused' || result.row?.skip === 'refusing') snapshotLane(site.key)
      },
    })
    const db = core.store.db
    const admin = createAdmin({ core, shell: 'headless', listening: () => 'simulation' })
    // Acquisitions get the same Sites through their own view, so each request says who asked.
    const acquireDeps: AcquireDeps = {
      ...core.acquireDeps,
      fetchers: { http: sites.http('acquisition'), browser: sites.browser('acquisition') },
    }

    const readers: number[] = []
    for (const name of READERS) readers.push((await admin.addReader({ name })).reader.id)
    const state = await seedHousehold(core, world, readers, root.fork('household'), log)

    const agenda = makeAgenda(root.fork('agenda'), world, faults, actions, state)
    for (const step of options.scenario ?? []) for (const item of scenarioItems(step, world)) agendaInsert(agenda, item)
    const rng = root.fork('actions')
    let asleep = false
    const inflight = new Set<Promise<unknown>>()
    const track = (work: Promise<unknown>) => {
      const p = work.finally(() => inflight.delete(p))
      inflight.add(p)
    }
    const siteOf = (key: string) => world.sites.find((s) => s.site.key === key)!.site
    const heldSeries = () => world.series.filter((s) => state.held.get(s.key)?.size)
    const eligible = (site: string) =>
      world.series.filter((s) => s.site === site && state.held.get(s.key)?.size && !state.finished.has(s.key)).length

    const record = async (
      action: Parameters<typeof log.add>[0] & { type: 'action' },
      work: () => Promise<Record<string, unknown> | void>,
    ) => {
      try {
        const extra = (await work()) ?? {}
        log.add({ ...action, ...extra, result: 'ok' })
      } catch (error) {
        log.add({ ...action, result: (error as Error).message || String(error) })
      }
    }

    const bookmark = (series: SimSeries, readerId: number) => {
      const acquired = !state.held.get(series.key)?.size && !state.known.has(series.key)
      const pasted = rng.chance(0.25) && /\/$/.test(series.url) ? `${series.url}chapter-1/` : series.url
      state.known.add(series.key)
      const holders = state.held.get(series.key) ?? new Set<number>()
      holders.add(readerId)
      state.held.set(series.key, holders)
      return record(
        { type: 'action', action: 'bookmark', site: series.site, series: series.key, reader: readerId, result: '' },
        async () => {
          await bookmarkByUrl(acquireDeps, { readerId, url: pasted })
          return { acquired }
        },
      )
    }

    const run = async (item: Item): Promise<void> => {
      switch (item.kind) {
        case 'release': {
          const holders = state.held.get(item.series.key)?.size ?? 0
          log.add({
            type: 'release',
            site: item.series.site,
            series: item.series.key,
            chapter: item.chapter.number,
            tracked: holders > 0 && !state.finished.has(item.series.key),
            readers: holders,
            eligible: eligible(item.series.site),
          })
          return
        }
        case 'clock-step':
          clock.stepWall(item.stepMs)
          log.add({ type: 'action', action: 'clock-step', stepMs: item.stepMs, result: 'ok' })
          return
        case 'machine-sleep':
          if (asleep) return
          asleep = true
          log.add({ type: 'action', action: 'lanes-stop', result: 'ok' })
          await core!.stopLanes()
          for (const key of openChecks.keys()) if (key.startsWith('lane|')) openChecks.delete(key)
          return
        case 'machine-wake':
          if (!asleep) return
          asleep = false
          log.add({ type: 'action', action: 'lanes-start', result: 'ok' })
          await core!.startLanes()
          return
        case 'database-locked':
          dbFaults.lockedUntil = clock.monotonic() + item.forMs
          return
      }
      // Nobody uses the app while the machine sleeps.
      if (asleep) return
      switch (item.kind) {
        case 'check-now': {
          const held = heldSeries().filter((x) => !item.site || x.site === item.site)
          if (!held.length) return
          const series = rng.pick(held)
          return record({ type: 'action', action: 'check-now', site: series.site, series: series.key, result: '' }, async () => {
            const row = await admin.forceSeriesPoll({ site: series.site, seriesId: series.seriesId })
            return { pending: row.pending }
          })
        }
        case 'pause':
          // The duration the simulation chose goes in the log: the pause is judged from the press, not the store.
          await record(
            { type: 'action', action: 'pause', site: item.site, durationMs: PAUSE_DURATIONS[item.duration], result: '' },
            async () => {
              const lane = await admin.pauseLane({ site: item.site, duration: item.duration })
              log.add({ type: 'lane', site: item.site, pausedUntil: lane.pausedUntil, refuseUntil: lane.refuseUntil })
            },
          )
          return
        case 'resume':
          await record({ type: 'action', action: 'resume', site: item.site, result: '' }, async () => {
            const lane = await admin.resumeLane({ site: item.site })
            log.add({ type: 'lane', site: item.site, pausedUntil: lane.pausedUntil, refuseUntil: lane.refuseUntil })
          })
          return
        case 'finish':
        case 'unfinish': {
          const finishing = item.kind === 'finish'
          // The owner shelves Series that stopped coming out (and now and then one that had not).
          const candidates = heldSeries().filter(
            (s) =>
              state.finished.has(s.key) !== finishing &&
              (!finishing || ['finished', 'hiatus'].includes(s.schedule[s.schedule.length - 1]!.cadence) || rng.chance(0.1)),
          )
          if (!candidates.length) return
          const series = rng.pick(candidates)
          if (finishing) state.finished.add(series.key)
          else state.finished.delete(series.key)
          return record({ type: 'action', action: item.kind, site: series.site, series: series.key, result: '' }, async () => {
            await (finishing ? admin.finishSeries : admin.unfinishSeries)({ site: series.site, seriesId: series.seriesId })
          })
        }
        case 'bookmark': {
          const fresh = world.series.filter((s) => !state.known.has(s.key))
          if (!fresh.length) return
          track(bookmark(rng.pick(fresh), rng.pick(readers)))
          return
        }
        case 'bookmark-burst': {
          // A Reader imports a handful of Series of one Site at once.
          const site = item.site ?? rng.pick(world.sites).site.key
          const fresh = world.series.filter((s) => s.site === site && !state.known.has(s.key))
          const readerId = item.reader !== undefined ? readers[item.reader]! : rng.pick(readers)
          for (const series of fresh.slice(0, item.count ?? rng.int(3, 6))) track(bookmark(series, readerId))
          return
        }
        case 'bookmark-second': {
          const held = heldSeries().filter((s) => state.held.get(s.key)!.size < readers.length)
          if (!held.length) return
          const series = rng.pick(held)
          const readerId = rng.pick(readers.filter((r) => !state.held.get(series.key)!.has(r)))
          track(bookmark(series, readerId))
          return
        }
        case 'sighting': {
          let series = item.series
          let chapter = item.chapter
          if (!series) {
            const held = heldSeries()
            if (!held.length) return
            series = rng.pick(held)
            const highest = releasedBy(series, clock.monotonic()).at(-1)?.number ?? 1
            chapter = item.flavour === 'bogus' ? Math.floor(highest) + rng.int(2, 20) : Math.max(1, Math.floor(highest) - rng.int(1, 3))
          }
          const holders = [...(state.held.get(series.key) ?? [])]
          if (!holders.length || chapter === undefined) return
          const target = series
          const readerId = rng.pick(holders)
          await record({ type: 'action', action: 'sighting', site: target.site, series: target.key, chapter, result: '' }, async () => {
            await recordSighting(db, {
              site: target.site,
              seriesId: target.seriesId,
              readerId,
              chapter: chapter!,
              sightedAt: clock.now(),
              now: clock.now(),
            })
          })
          snapshotLatest(target.site, target.seriesId, 'sighting')
          return
        }
      }
    }

    log.add({ type: 'action', action: 'lanes-start', result: 'ok' })
    await core.startLanes()
    dbFaults.active = true
    const driver = (async () => {
      for (const item of agenda) {
        const wait = item.at - clock.monotonic()
        if (wait > 0) await clock.sleep(wait)
        if (item.kind === 'pause' && item.resumeAfter !== null) {
          agendaInsert(agenda, { at: item.at + item.resumeAfter, kind: 'resume', site: item.site })
        }
        track(run(item))
      }
    })()
    for (let day = 1; day <= Math.ceil(options.days); day++) {
      timersFired += await clock.runQuiet(Math.min(DAY, end - clock.monotonic()))
      options.onDay?.(day)
    }

    log.add({ type: 'action', action: 'lanes-stop', result: 'ok' })
    await core.stopLanes()
    dbFaults.active = false
    await clock.runQuiet(10 * 60_000)
    await Promise.allSettled([...inflight])
    void driver
    // Let the last snapshots fill in.
    await clock.runQuiet(0)

    options.onEvents?.(log.events)
    await options.inspect?.(core.store)
    const config = checkerConfig(world, siteOf)
    const checked = checkInvariants(log.events, config)
    return buildReport({
      options: { ...options, faults, actions },
      world,
      events: log.events,
      checked,
      config,
      faultsInjected: { ...sites.faultsInjected, database: dbFaults.injected },
      browserLaunches: sites.browserLaunches.count,
      logProblems: Object.fromEntries(logProblems),
      runtime: { realMs: Math.round(performance.now() - realStart), timersFired, events: log.events.length },
    })
  } finally {
    await core?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The checker's view of each Site: its pace, whether it is a browser Site, and how long one check may take. */
export function checkerConfig(world: World, siteOf: (key: string) => Site): CheckerConfig {
  return {
    end: world.end,
    sites: Object.fromEntries(
      world.sites.map((s) => [
        s.site.key,
        {
          pace: siteOf(s.site.key).pace,
          browser: s.site.fetcher === 'browser',
          // A check makes up to three requests; each may take the longest a request can, and a browser check
          // may first wait for the shared tab (another check of the same length).
          checkSlackMs: (s.site.fetcher === 'browser' ? 2 : 1) * 3 * LONGEST_REQUEST_MS,
        },
      ]),
    ),
  }
}

interface Household {
  /** Readers holding each Series. */
  held: Map<string, Set<number>>
  finished: Set<string>
  /** Series the app has a row for (held now or once). */
  known: Set<string>
}

/**
 * The household as the simulation finds it: most Series already bookmarked, checked within the last rest
 * and their Latest Chapter known — the steady state, from the first minute.
 */
async function seedHousehold(core: Core, world: World, readers: number[], rng: Random, log: EventLog): Promise<Household> {
  const db = core.store.db
  const held = new Map<string, Set<number>>()
  const finished = new Set<string>()
  const known = new Set<string>()
  for (const series of world.series) {
    const key = { site: series.site, seriesId: series.seriesId }
    let checkedAt = 0
    let latest: number | null = null
    if (series.initiallyHeld) {
      const pace = core.registry.get(series.site)!.pace
      await addSeries(db, { ...key, seriesUrl: series.url, now: world.start - 30 * DAY })
      const holders = new Set<number>()
      while (holders.size < series.initialReaders) holders.add(rng.pick(readers))
      for (const readerId of holders) await addBookmark(db, { ...key, readerId, now: world.start - 30 * DAY })
      const newest = releasedBy(series, world.start).at(-1)!
      checkedAt = Math.round(world.start - rng.between(0, pace.restMs))
      await recordCheckResult(db, {
        ...key,
        found: { chapter: newest.number, label: newest.label, url: series.url },
        title: series.title,
        now: checkedAt,
      })
      await markLatestChecked(db, key, checkedAt)
      latest = newest.number
      if (series.initiallyFinished) {
        await finishSeries(db, key, world.start - DAY)
        finished.add(series.key)
      }
      held.set(series.key, holders)
      known.add(series.key)
    }
    log.add({
      type: 'seed',
      site: series.site,
      series: series.key,
      held: series.initiallyHeld,
      readers: held.get(series.key)?.size ?? 0,
      holders: [...(held.get(series.key) ?? [])],
      finished: finished.has(series.key),
      latest,
      checkedAt,
    })
  }
  return { held, finished, known }
}

function poisson(rng: Random, perDay: number, from: number, to: number): number[] {
  const out: number[] = []
  if (perDay <= 0) return out
  for (let t = from + rng.exponential(DAY / perDay); t < to; t += rng.exponential(DAY / perDay)) out.push(Math.round(t))
  return out
}

function makeEpisodes(rng: Random, world: World, faults: Level): FaultEpisode[] {
  const scale = FAULT_SCALE[faults]
  const episodes: FaultEpisode[] = []
  for (const { site } of world.sites) {
    for (const at of poisson(rng, DISTURBANCE_RATES.outage * scale, world.start, world.end))
      episodes.push({ site: site.key, from: at, to: at + rng.between(10 * 60_000, 2 * HOUR), fault: rng.chance(0.7) ? '5xx' : 'timeout' })
    for (const at of poisson(rng, DISTURBANCE_RATES['challenge-episode'] * scale, world.start, world.end))
      episodes.push({ site: site.key, from: at, to: at + rng.between(30 * 60_000, 6 * HOUR), fault: 'challenge' })
  }
  return episodes
}

function makeAgenda(rng: Random, world: World, faults: Level, actions: Level, household: Household): Item[] {
  const { start, end } = world
  const items: Item[] = []
  for (const series of world.series) {
    for (const chapter of series.chapters) {
      if (chapter.at < start || chapter.at >= end) continue
      items.push({ at: chapter.at, kind: 'release', series, chapter })
      // A Reader reading on the Site reports what they saw, often before the app has checked.
      if (ACTION_SCALE[actions] && household.held.get(series.key)?.size && rng.chance(SIGHTING_OF_RELEASE))
        items.push({
          at: chapter.at + Math.round(rng.between(60_000, 45 * 60_000)),
          kind: 'sighting',
          flavour: 'real',
          series,
          chapter: chapter.number,
        })
    }
  }
  const a = ACTION_SCALE[actions]
  for (const kind of ['check-now', 'finish', 'unfinish', 'bookmark', 'bookmark-burst', 'bookmark-second'] as const)
    for (const at of poisson(rng, ACTION_RATES[kind] * a, start, end)) items.push({ at, kind })
  for (const at of poisson(rng, ACTION_RATES['sighting-bogus'] * a, start, end)) items.push({ at, kind: 'sighting', flavour: 'bogus' })
  for (const at of poisson(rng, ACTION_RATES['sighting-stale'] * a, start, end)) items.push({ at, kind: 'sighting', flavour: 'stale' })
  for (const at of poisson(rng, ACTION_RATES.pause * a, start, end)) {
    const duration = rng.weighted<PauseDuration>([
      ['1h', 70],
      ['6h', 25],
      ['24h', 5],
    ])
    // Half the time the owner resumes before the pause runs out.
    const resumeAfter = rng.chance(0.5) ? Math.round(rng.between(5 * 60_000, PAUSE_DURATIONS[duration])) : null
    items.push({ at, kind: 'pause', site: rng.pick(world.sites).site.key, duration, resumeAfter })
  }
  const f = FAULT_SCALE[faults]
  for (const at of poisson(rng, DISTURBANCE_RATES['clock-step'] * f, start, end))
    items.push({ at, kind: 'clock-step', stepMs: (rng.chance(0.5) ? -1 : 1) * rng.int(1, 6) * HOUR })
  let awakeFrom = start
  for (const at of poisson(rng, DISTURBANCE_RATES['machine-sleep'] * f, start, end)) {
    if (at < awakeFrom) continue
    const wake = Math.round(at + rng.between(HOUR, 8 * HOUR))
    items.push({ at, kind: 'machine-sleep' }, { at: wake, kind: 'machine-wake' })
    awakeFrom = wake + HOUR
  }
  return items.sort((x, y) => x.at - y.at)
}

/** The agenda items of one scenario step. */
function scenarioItems(step: ScenarioStep, world: World): Item[] {
  const at = world.start + step.at
  const site = (index: number) => {
    const found = world.sites[index]
    if (!found) throw new Error(`simulation: scenario step at ${step.at} ms names Site ${index}; there are ${world.sites.length}`)
    return found.site.key
  }
  switch (step.do) {
    case 'clock-step':
      return [{ at, kind: 'clock-step', stepMs: step.stepMs }]
    case 'machine-sleep':
      return [
        { at, kind: 'machine-sleep' },
        { at: at + step.forMs, kind: 'machine-wake' },
      ]
    case 'pause':
      return [{ at, kind: 'pause', site: site(step.site), duration: step.duration, resumeAfter: null }]
    case 'resume':
      return [{ at, kind: 'resume', site: site(step.site) }]
    case 'check-now':
      return [{ at, kind: 'check-now', site: site(step.site) }]
    case 'bookmark-burst':
      return [
        {
          at,
          kind: 'bookmark-burst',
          site: site(step.site),
          count: step.count,
          ...(step.reader !== undefined ? { reader: step.reader } : {}),
        },
      ]
    case 'database-locked':
      return [{ at, kind: 'database-locked', forMs: step.forMs }]
  }
}

function agendaInsert(agenda: Item[], item: Item): void {
  // The driver is walking the agenda with for…of; inserting after the current position is seen in order.
  let index = agenda.length
  while (index > 0 && agenda[index - 1]!.at > item.at) index--
  agenda.splice(index, 0, item)
}

/** What a query is, in a few words ("insert into poll_passes"), from its operation tree. */
function describeQuery(node: unknown): string {
  const root = node as { kind?: string }
  const verb = {
    SelectQueryNode: 'select from',
    InsertQueryNode: 'insert into',
    UpdateQueryNode: 'update',
    DeleteQueryNode: 'delete from',
  }[root.kind ?? '']
  if (!verb) return 'a raw query'
  let table = ''
  const walk = (value: unknown): void => {
    if (table || !value || typeof value !== 'object') return
    const v = value as { kind?: string; table?: { identifier?: { name?: string } } }
    if (v.kind === 'TableNode' && v.table?.identifier?.name) {
      table = v.table.identifier.name
      return
    }
    for (const child of Object.values(v)) walk(child)
  }
  walk(node)
  return `${verb} ${table || 'a table'}`
}

/** A digest as the checker reads it: each message's Series, and those its Reader holds now (read from the bookmarks). */
function notifyEvent(core: Core, site: string, digests: ReadonlyMap<number, Digest>): Omit<NotifyEvent, 'seq' | 'mono' | 'wall'> {
  const holds = core.store.sqlite.prepare('SELECT 1 FROM bookmarks WHERE reader_id = ? AND site = ? AND series_id = ?')
  return {
    type: 'notify',
    site,
    messages: [...digests].map(([reader, digest]) => ({
      reader,
      series: digest.newChapters.map((c) => `${c.site}/${c.seriesId}`),
      held: digest.newChapters.filter((c) => holds.get(reader, c.site, c.seriesId)).map((c) => `${c.site}/${c.seriesId}`),
    })),
  }
}

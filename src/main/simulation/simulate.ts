/**
 * The simulation (docs/adr/0020-the-simulation.md): the real core — store on a temporary SQLite file, Lanes,
 * pass, adapters, chapter parser, Acquisition, the admin operations, Sightings — run for days on the fake
 * clock against simulated Sites served in process, with faults, the owner's and Readers' actions and
 * wall-clock steps; every request, check, pass, release and action goes into an event log, and the
 * invariants are checked over it.
 *
 * A run goes in stages, each handed the one object that carries the run's state (`Run`): the world set up
 * (catalogue, Sites, faults), the core started on it (its log, store and passes watched), the household seeded
 * and the agenda made, the clock run with the agenda's items coming due, then the log judged and reported.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KyselyPlugin } from 'kysely'
import { pino, type Logger } from 'pino'
import { createAdmin } from '../admin/admin'
import { startCore, type Core } from '../core'
import type { CheckOutcome } from '../lanes/check'
import type { PassResult } from '../lanes/pass'
import type { Digest } from '../notify/digest'
import { inlineReader } from '../sites/page-reader'
import { presentAll } from '../reads/present'
import type { Cadence, Pace, Site } from '../sites/site'
import { addBookmark } from '../store/bookmarks'
import { storedChapterNumbers } from '../store/chapters'
import type { Db, Store } from '../store/database'
import { laneRow } from '../store/lanes'
import { carryForward } from '../store/passes'
import type { PassRow } from '../store/schema'
import { addSeries, finishSeries, getSeries, markLatestChecked, recordCheckResult } from '../store/series'
import { FakeClock } from '../testing/clock'
import type { AcquireDeps } from '../use-cases/acquire'
import { Actor } from './actions'
import {
  agendaInsert,
  FLOOD_WINDOW_HOURS,
  makeAgenda,
  readingItems,
  scenarioMoments,
  makeEpisodes,
  scenarioItems,
  type Household,
  type Item,
  type Level,
  type ScenarioStep,
} from './agenda'
import { buildWorld, DAY, HOUR, releasedBy, type SimSeries, type World } from './catalogue'
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
import { OutboxWatch, seedReaders } from './readers'
import { Receivers } from './receivers'
import { storedLabels } from './site-edits'
import { LONGEST_REQUEST_MS, SimSites, type FaultRates } from './sim-sites'
import { Moves, planMoves } from './sim-search'
import { SearchActor, searchMoments, type SearchMoment } from './search-actor'

export { LEVELS, type Level, type ScenarioStep } from './agenda'

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
  /**
   * How many Series one Reader floods a Site with (scenarioMoments' flood; default FLOOD_SERIES when actions are on
   * and the run reaches the flood's hours, else none): Series of their own, beside `series`.
   */
  flood?: number
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

/** What a run carries from stage to stage. */
interface Run {
  readonly options: SimulationOptions
  readonly faults: Level
  readonly actions: Level
  /** The seeded stream each part of the run forks its own from. */
  readonly root: Random
  readonly world: World
  readonly clock: FakeClock
  readonly log: EventLog
  readonly sites: SimSites
  /** Requests are grouped into checks by who asked and for which Series; a check's report closes its group. */
  readonly openChecks: Map<string, RequestEvent[]>
  /** Warnings and errors the app logged, by message. */
  readonly logProblems: Map<string, number>
  readonly dbFaults: DbFaults
  /** Each Site's newest pass row, as the store has it or will (a held row). */
  readonly lastRows: Map<string, PassRow>
  /** Work started by the agenda's items, until it settles. */
  readonly inflight: Set<Promise<unknown>>
  /** The handle as opened, for the simulation's own reads (never faulted); the core uses the faulting one. */
  rawDb?: Db
  core?: Core
  timersFired: number
  /** The Readers' receivers (their ledger goes into the log) and the outbox as digests fill it. */
  readonly receivers: Receivers
  readonly outbox: OutboxWatch
  /** The Series the Sites move to a new slug (sim-search.ts). */
  readonly moves: Moves
}

/** The store's injected faults: at `rate` per query while `active`, and every query while another process holds the lock. */
interface DbFaults {
  active: boolean
  rng: Random
  rate: number
  injected: number
  lockedUntil: number
}

export async function simulate(options: SimulationOptions): Promise<SimulationReport> {
  const realStart = performance.now()
  const run = setUpWorld(options)
  const dir = mkdtempSync(join(options.tmpDir ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir()), 'mb-sim-'))
  try {
    await run.receivers.listen()
    const core = await startRunCore(run, dir)
    const { agenda, actor, searching } = await seedRun(run, core)
    void driveSearching(run, searching)
    await runClock(run, core, agenda, actor)
    options.onEvents?.(run.log.events)
    await options.inspect?.(core.store)
    return judge(run, realStart)
  } finally {
    await run.core?.stop()
    await run.receivers.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The world (Sites, Series, their releases), its clock and event log, the fault episodes and the Sites that serve it. */
function setUpWorld(options: SimulationOptions): Run {
  const faults = options.faults ?? 'some'
  const rates: FaultRates = { ...FAULT_RATES[faults], ...options.faultRates }
  const root = new Random(options.seed)
  const start = SIM_START
  const world = buildWorld(root.fork('world'), {
    sites: options.sites,
    series: options.series,
    start,
    end: start + options.days * DAY,
    cadence: options.cadence ?? 'fixed',
    pace: options.pace,
    held: options.held,
    flood: options.flood ?? defaultFlood(options),
  })
  const clock = new FakeClock(start)
  const log = new EventLog(clock)
  const episodes = makeEpisodes(root.fork('episodes'), world, faults)
  const openChecks = new Map<string, RequestEvent[]>()
  // Moves are the Sites' doing, but only the owner's answer ends them: none in a run without actions.
  const moves = (options.actions ?? 'some') !== 'none' ? planMoves(root.fork('moves'), world) : new Moves([])
  const sites = new SimSites({
    moves,
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
  const run: Run = {
    options,
    faults,
    actions: options.actions ?? 'some',
    root,
    world,
    clock,
    log,
    sites,
    openChecks,
    logProblems: new Map(),
    dbFaults: { active: false, rng: root.fork('database'), rate: rates.database, injected: 0, lockedUntil: 0 },
    lastRows: new Map(),
    inflight: new Set(),
    timersFired: 0,
    receivers: new Receivers(clock, log, world.end),
    outbox: new OutboxWatch(() => run.core!, log),
    moves,
  }
  return run
}

/**
 * Series in the default run's flood: three times what a rest of the flood's Site holds (60 checks at a minute
 * apart), so the flood's Reader holds past their share however many Readers hold a Series there.
 */
export const FLOOD_SERIES = 180

function defaultFlood(options: SimulationOptions): number {
  return (options.actions ?? 'some') !== 'none' && options.days * DAY > FLOOD_WINDOW_HOURS[1] * HOUR ? FLOOD_SERIES : 0
}

/** The real core on a fresh store in `dir`, fetching from the simulated Sites; its log, queries, passes and digests watched. */
async function startRunCore(run: Run, dir: string): Promise<Core> {
  const { world, clock, log, sites } = run
  const faulting = dbFaultPlugin(run)
  run.core = await startCore({
    dataDir: dir,
    clock,
    log: appLogger(run),
    sites: world.sites.map((s) => s.site),
    http: sites.http('lane'),
    browser: sites.browser('lane'),
    // Pages are read in process: a worker thread would read in real time while the clock is fake.
    reader: inlineReader,
    // Covers come from the simulated Sites, each in their ledger (sim-sites.ts).
    fetchImage: sites.image(),
    wrapDb: (db) => {
      run.rawDb = db
      return db.withPlugin(faulting)
    },
    onDigest: (site, digests) => {
      log.add(notifyEvent(run.core!, site, digests))
      run.outbox.observe(site)
    },
    onPass: (site, result) => observePass(run, site, result),
  })
  return run.core
}

/** The household's Readers, bookmarks and Series as the run finds them, the agenda, and the actor that carries it out. */
async function seedRun(run: Run, core: Core): Promise<{ agenda: Item[]; actor: Actor; searching: Searching }> {
  const { world, log, root } = run
  const admin = createAdmin({ core, shell: 'headless', listening: () => 'simulation' })
  // Acquisitions get the same Sites through their own view, so each request says who asked.
  const acquireDeps: AcquireDeps = {
    ...core.acquireDeps,
    fetchers: { http: run.sites.http('acquisition'), browser: run.sites.browser('acquisition') },
  }
  const readers: number[] = []
  for (const name of READERS) readers.push((await admin.addReader({ name })).reader.id)
  const household = await seedHousehold(core, world, readers, root.fork('household'), log)
  await seedReaders({ core, world, readers, household, receivers: run.receivers, rng: root.fork('readers'), log })

  const agenda = makeAgenda(root.fork('agenda'), world, run.faults, run.actions, household)
  if (run.actions !== 'none') {
    for (const item of readingItems(root.fork('reading'), world, readers.length)) agendaInsert(agenda, item)
    for (const item of scenarioMoments(root.fork('moments'), world, household)) agendaInsert(agenda, item)
  }
  for (const step of run.options.scenario ?? []) for (const item of scenarioItems(step, world)) agendaInsert(agenda, item)
  const actor = new Actor({
    world,
    clock: run.clock,
    log,
    core,
    db: core.store.db,
    admin,
    acquireDeps,
    household,
    readers,
    rng: root.fork('actions'),
    openChecks: run.openChecks,
    dbFaults: run.dbFaults,
    snapshotLatest: (site, seriesId, after) => snapshotLatest(run, site, seriesId, after),
    track: (work) => track(run, work),
    snapshotUnread: (readerId, series) => snapshotUnread(run, readerId, series),
  })
  const searching: Searching = {
    moments: run.actions !== 'none' ? searchMoments(root.fork('searches'), world, run.moves, run.actions, readers.length) : [],
    actor: new SearchActor({
      world,
      clock: run.clock,
      log,
      admin,
      acquireDeps,
      sites: run.sites,
      moves: run.moves,
      household,
      readers,
      track: (work) => track(run, work),
      snapshotUnread: (readerId, series) => snapshotUnread(run, readerId, series),
    }),
  }
  return { agenda, actor, searching }
}

/** The searches' and moves' own agenda and the actor that carries it out (search-actor.ts). */
interface Searching {
  moments: SearchMoment[]
  actor: SearchActor
}

/** Walks the searches' and moves' agenda on the clock, beside the main one. */
async function driveSearching(run: Run, searching: Searching): Promise<void> {
  for (const moment of searching.moments) {
    const wait = moment.at - run.clock.monotonic()
    if (wait > 0) await run.clock.sleep(wait)
    track(run, searching.actor.run(moment))
  }
}

/**
 * The clock run a day at a time with the Lanes working, the store's faults on and the agenda's items coming
 * due; then the Lanes stopped, the faults off and the work in flight let finish.
 */
async function runClock(run: Run, core: Core, agenda: Item[], actor: Actor): Promise<void> {
  const { clock, log, options } = run
  log.add({ type: 'action', action: 'lanes-start', result: 'ok' })
  await core.startLanes()
  run.dbFaults.active = true
  const driver = driveAgenda(run, agenda, actor)
  for (let day = 1; day <= Math.ceil(options.days); day++) {
    await runDelivering(run, Math.min(DAY, run.world.end - clock.monotonic()))
    options.onDay?.(day)
  }

  log.add({ type: 'action', action: 'lanes-stop', result: 'ok' })
  await core.stopLanes()
  run.dbFaults.active = false
  await runDelivering(run, 10 * 60_000)
  await Promise.allSettled([...run.inflight])
  void driver
  // Let the last snapshots fill in.
  await clock.runQuiet(0)
}

/** How often the notifier's delivery round runs: its own loop's longest wait. */
const DELIVERY_EVERY_MS = 60_000

/**
 * Runs the clock `ms` on, a minute at a time, with the notifier's delivery round between: its real loopback I/O
 * happens while the fake clock stands still, so a run stays deterministic (docs/adr/0122-…).
 */
async function runDelivering(run: Run, ms: number): Promise<void> {
  const until = run.clock.monotonic() + ms
  while (run.clock.monotonic() < until) {
    run.timersFired += await run.clock.runQuiet(Math.min(DELIVERY_EVERY_MS, until - run.clock.monotonic()))
    await run.outbox.deliver()
  }
}

/** Walks the agenda on the clock, starting each item when it comes due (a pause the owner ends early adds its resume). */
async function driveAgenda(run: Run, agenda: Item[], actor: Actor): Promise<void> {
  const { clock } = run
  for (const item of agenda) {
    const wait = item.at - clock.monotonic()
    if (wait > 0) await clock.sleep(wait)
    if (item.kind === 'pause' && item.resumeAfter !== null) {
      agendaInsert(agenda, { at: item.at + item.resumeAfter, kind: 'resume', site: item.site })
    }
    track(run, actor.run(item))
  }
}

function track(run: Run, work: Promise<unknown>): void {
  const p = work.finally(() => run.inflight.delete(p))
  run.inflight.add(p)
}

/** The invariants checked over the event log, and the run's report. */
function judge(run: Run, realStart: number): SimulationReport {
  const { world, log, options } = run
  const siteOf = (key: string) => world.sites.find((s) => s.site.key === key)!.site
  const config = checkerConfig(world, siteOf)
  const checked = checkInvariants(log.events, config)
  return buildReport({
    options: { ...options, faults: run.faults, actions: run.actions },
    world,
    events: log.events,
    checked,
    config,
    faultsInjected: { ...run.sites.faultsInjected, database: run.dbFaults.injected },
    browserLaunches: run.sites.browserLaunches.count,
    feedRequests: run.sites.feedRequests.count,
    logProblems: Object.fromEntries(run.logProblems),
    runtime: { realMs: Math.round(performance.now() - realStart), timersFired: run.timersFired, events: log.events.length },
  })
}

/** Fails the core's queries as the run's database faults say: by chance while active, and all of them while locked. */
function dbFaultPlugin(run: Run): KyselyPlugin {
  const { dbFaults, clock, log } = run
  return {
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
}

/** The core logs every check it makes; the simulation reads those calls (never their JSON) through a hook. */
function appLogger(run: Run): Logger {
  const { log, logProblems } = run
  return pino({
    level: 'debug',
    hooks: {
      logMethod(args, _method, level) {
        const [first, second] = args as unknown[]
        const fields = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {}
        const message = typeof first === 'string' ? first : typeof second === 'string' ? second : ''
        const site = String(fields.site ?? '')
        if (message === 'lane: checked')
          observeCheck(run, 'lane', site, String(fields.series), fields.outcome as CheckOutcome, String(fields.reason))
        else if (message === 'acquire: read a new Series')
          observeCheck(run, 'acquisition', site, String(fields.series), fields.outcome as CheckOutcome, String(fields.reason))
        else if (fields.event === 'lane-refused') snapshotLane(run, site)
        // A Reader's search refused records the Lane's refusal too (search-site.ts): the Lane must keep it.
        else if (message === 'search: refused; the Lane backs off') snapshotLane(run, site)
        else if (message === 'lane: pass failed')
          log.add({ type: 'pass-failed', site, message: String((fields.err as Error | undefined)?.message ?? fields.err) })
        if (level >= 40) logProblems.set(message, (logProblems.get(message) ?? 0) + 1)
      },
    },
  })
}

/** A check the core logged, entered with the requests it made (closing their group) and what they served. */
function observeCheck(run: Run, caller: Caller, site: string, seriesId: string, outcome: CheckOutcome, reason: string): void {
  const { log, clock, openChecks } = run
  const series = `${site}/${seriesId}`
  const key = `${caller}|${series}`
  const requests = openChecks.get(key) ?? []
  openChecks.delete(key)
  const served = requests.reduce<number | null>((max, r) => (r.served !== null && (max === null || r.served > max) ? r.served : max), null)
  const reported = outcome === 'chapter' ? Number(/^chapter (.+)$/.exec(reason)?.[1]) : null
  const first = requests[0]
  const listed = requests.reduce<number[] | null>((last, r) => r.listed ?? last, null)
  const edited = requests.reduce<RequestEvent['edited']>((last, r) => (r.listed ? r.edited : last), undefined)
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
    faults: [...requests.flatMap((r) => (r.fault ? [r.fault] : [])), ...(reason.includes(DB_FAULT_MARK) ? ['database' as FaultKind] : [])],
    served,
    reported: reported !== null && Number.isFinite(reported) ? reported : null,
    listed,
    stored: null as number[] | null,
    ...(edited ? { edited, storedLabels: null as Record<string, string> | null } : {}),
  } satisfies Omit<CheckEvent, 'seq' | 'mono' | 'wall'>)
  if (outcome === 'chapter') snapshotLatest(run, site, seriesId, 'check')
  // The chapter list as stored once the check is recorded (read after the queries queued before it).
  if (outcome === 'chapter') void storedChapterNumbers(run.rawDb!, { site, seriesId }).then((numbers) => (event.stored = numbers))
  if (outcome === 'chapter' && edited) void storedLabels(run.rawDb!, { site, seriesId }).then((labels) => (event.storedLabels = labels))
  // An Acquisition records its refusal before it logs; a Lane logs its check first (see the log hook).
  if (outcome === 'refused' && caller === 'acquisition') snapshotLane(run, site)
}

/** A pass the core reported, entered with its row (or the one it holds to write later) and its New Chapters. */
function observePass(run: Run, site: Site, result: PassResult): void {
  // A row the store could not take is held by the Lane and written later with these very figures, carried
  // forward from the row before it as the store does (docs/adr/0045-storage-faults.md): it is this pass's row.
  const row = result.row ?? (result.unwritten ? { id: 0, ...carryForward(result.unwritten, run.lastRows.get(site.key)) } : null)
  if (row) run.lastRows.set(site.key, row)
  run.log.add({
    type: 'pass',
    site: site.key,
    row,
    newChapters: result.newChapters.map((c) => ({ series: `${c.site}/${c.seriesId}`, chapter: c.chapter })),
  })
  // The Lane may have bounded its own pause or refusal (a clock set back): read the row it acted on.
  if (result.row?.skip === 'paused' || result.row?.skip === 'refusing') snapshotLane(run, site.key)
}

/** The Series row as it is once the queries queued before this one have run (the order they were made in). */
function snapshotLatest(run: Run, site: string, seriesId: string, after: 'check' | 'sighting'): void {
  const event = run.log.add({ type: 'latest', site, series: `${site}/${seriesId}`, chapter: null as number | null, source: '', after })
  void getSeries(run.rawDb!, { site, seriesId }).then((row) => {
    event.chapter = row?.latest_chapter ?? null
    event.source = row?.latest_source ?? ''
  })
}

/** A Reader's view of a Series as the sync API shows it, once the queries queued before this one have run. */
function snapshotUnread(run: Run, readerId: number, series: SimSeries): void {
  const event = run.log.add({
    type: 'unread',
    reader: readerId,
    site: series.site,
    series: series.key,
    progress: null as number | null,
    unread: 0,
    next: null as number | null,
    latest: null as number | null,
    source: '',
  })
  void presentAll(run.rawDb!, readerId).then((views) => {
    const view = views.find((v) => v.site === series.site && v.seriesId === series.seriesId)
    if (!view) return
    event.progress = view.progress
    event.unread = view.unreadCount
    event.next = view.nextChapter?.number ?? null
    event.latest = view.series.latestChapter
    event.source = view.series.latestSource
  })
}

/** The Lane row of `site` as it is once the queries queued before this one have run. */
function snapshotLane(run: Run, site: string): void {
  const event = run.log.add({ type: 'lane', site, pausedUntil: 0, refuseUntil: 0 })
  void laneRow(run.rawDb!, site).then((row) => {
    event.pausedUntil = row.paused_until
    event.refuseUntil = row.refuse_until
  })
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

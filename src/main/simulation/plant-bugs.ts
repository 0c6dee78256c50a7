/**
 * The bugs the plant tests (`plants-*.test.ts`) plant in the core, one at a time, through test-only wrappers of the
 * real modules: each test file hands `vi.mock` these factories (a factory may only import), so the production code
 * carries no trace of them. Only types are imported here statically, so the modules wrapped load after `vi.mock`.
 * A run with no bug planted is the baseline: none of the rules fires.
 */
import type { Fetchers } from '../fetch/fetcher'
import type * as Decisions from '../lanes/decisions'
import type * as Pacer from '../lanes/pacer'
import type * as Due from '../store/due'
import type * as SeriesStore from '../store/series'
import type * as NotifyStore from '../store/notify'
import type * as Chapters from '../store/chapters'
import type * as DigestModule from '../notify/digest'
import type { Digest } from '../notify/digest'
import type * as Acquire from '../use-cases/acquire'
import type * as Html from '../sites/html'
import type * as Passes from '../store/passes'
import type * as Sightings from '../store/sightings'
import type { AcquireDeps } from '../use-cases/acquire'
import type { RuleName } from './checker'
import type { SimulationReport } from './report'
import type { SimulationOptions } from './simulate'

export type Bug =
  | ''
  | 'refusal-backoff-in-seconds'
  | 'finish-not-kept'
  | 'fraction-dropped'
  | 'gap-halved'
  | 'acquisition-own-turn'
  | 'check-now-takes-no-gap'
  | 'message-per-chapter'
  | 'quiet-hours-ignored'
  | 'outbox-row-deleted-before-delivery'
  | 'unread-off-by-one'
  | 'fractional-move-not-new'
  | 'paused-acquisition'
  | 'vanished-chapter-new-again'
  | 'fair-share-ignored'
  | 'rest-halved'
  | 'newest-row-dropped'
  | 'failed-check-counted-twice'
  | 'rest-doubled'
  | 'sighting-lowers-latest'
  | 'newest-chapter-not-stored'
  | 'digested-chapters-kept'
  | 'fraction-is-adapter-error'
  | 'gate-not-read-after-wait'
  | 'paused-lane-sleeps-out-pause'
  | 'relabel-not-stored'

/** The bug switched on; for check-now-takes-no-gap, how many of each Site's next Lane turns are a Check now'd Series'. */
export const plant = { bug: '' as Bug, forcedTurns: new Map<string, number>() }

type Original = <T>() => Promise<T>

/**
 * The backoff stored in seconds where ms were meant: a thousandth of it. Acquisition blind to the owner's pause; or
 * the pass blind to it once it has waited its turn. A paused Lane sleeping the pause out (a Resume unseen till then).
 */
export async function decisions(importOriginal: Original) {
  const real = await importOriginal<typeof Decisions>()
  return {
    ...real,
    refusalLength: (...args: Parameters<typeof real.refusalLength>) => {
      const length = real.refusalLength(...args)
      return plant.bug === 'refusal-backoff-in-seconds' ? { ...length, ms: Math.ceil(length.ms / 1000) } : length
    },
    // Acquisition reads the gate without the owner's pause (told apart by its frames: the Lane's gate is pass.ts's).
    laneGate: (...args: Parameters<typeof real.laneGate>) => {
      const gate = real.laneGate(...args)
      // The gate read only as the pass opens, not again after the wait for a turn (a Pause pressed meanwhile unseen).
      if (plant.bug === 'gate-not-read-after-wait' && new Error().stack?.includes('stillDueNow')) return null
      if (plant.bug !== 'paused-acquisition' || gate !== 'paused' || !new Error().stack?.includes('use-cases/acquire')) return gate
      return args[0].refuse_until > args[1] ? 'refusing' : null
    },
    sleepAfter: (...args: Parameters<typeof real.sleepAfter>) => {
      const [f] = args
      if (plant.bug === 'paused-lane-sleeps-out-pause' && f.skip === 'paused') return Math.max(1, f.lane.paused_until - f.now)
      return real.sleepAfter(...args)
    },
  }
}

/** A Finish the store does not keep; a chapter number stored without its fraction (10.5 → 10); and the moves below. */
export async function seriesStore(importOriginal: Original) {
  const real = await importOriginal<typeof SeriesStore>()
  return {
    ...real,
    finishSeries: (...args: Parameters<typeof real.finishSeries>) =>
      plant.bug === 'finish-not-kept' ? Promise.resolve() : real.finishSeries(...args),
    recordCheckResult: async (db: Parameters<typeof real.recordCheckResult>[0], input: Parameters<typeof real.recordCheckResult>[1]) => {
      const report = await real.recordCheckResult(
        db,
        plant.bug === 'fraction-dropped' ? { ...input, found: { ...input.found, chapter: Math.floor(input.found.chapter) } } : input,
      )
      // The Latest Chapter follows the Site down when it withdraws its newest chapter: the return is new again.
      if (
        plant.bug === 'vanished-chapter-new-again' &&
        report.move === 'none' &&
        report.previous !== null &&
        input.found.chapter < report.previous
      )
        await db
          .updateTable('series')
          .set({ latest_chapter: input.found.chapter })
          .where('site', '=', input.site)
          .where('series_id', '=', input.seriesId)
          .execute()
      // A move within one whole chapter (10 → 10.5) taken for no New Chapter.
      const within = report.previous !== null && Math.floor(report.previous) === Math.floor(input.found.chapter)
      return plant.bug === 'fractional-move-not-new' && report.newChapter && within ? { ...report, newChapter: false } : report
    },
  }
}

/**
 * One outbox message per New Chapter instead of one digest (a digest of several Series queued as one message for
 * each); a message deleted from the outbox as it is taken for delivery (lost when the delivery fails); a digest's
 * New Chapters not deleted once digested.
 */
export async function notifyStore(importOriginal: Original) {
  const real = await importOriginal<typeof NotifyStore>()
  return {
    ...real,
    // A digest's messages go in as multi-row inserts (docs/adr/0170-digests-in-sets.md): the plant splits each into
    // one message per chapter there.
    enqueueAll: async (db: Parameters<typeof real.enqueueAll>[0], rows: Parameters<typeof real.enqueueAll>[1]) => {
      if (plant.bug !== 'message-per-chapter') return real.enqueueAll(db, rows)
      const split = rows.flatMap((row) => {
        const digest = JSON.parse(row.message) as Digest
        return digest.newChapters.length < 2
          ? [row]
          : digest.newChapters.map((c) => ({ ...row, message: JSON.stringify({ ...digest, newChapters: [c] }) }))
      })
      return real.enqueueAll(db, split)
    },
    // The digest's New Chapters left in the store: every later digest of the Site tells of them again.
    deleteChapters: (...args: Parameters<typeof real.deleteChapters>) =>
      plant.bug === 'digested-chapters-kept' ? Promise.resolve() : real.deleteChapters(...args),
    // The notifier takes each Reader's queue on its own (docs/adr/0120-one-queue-per-reader.md).
    dueMessagesOf: async (...args: Parameters<typeof real.dueMessagesOf>) => {
      const due = await real.dueMessagesOf(...args)
      if (plant.bug === 'outbox-row-deleted-before-delivery') for (const m of due) await real.messageDone(args[0], m.id)
      return due
    },
  }
}

/** Quiet hours not applied: every digest goes out at once. */
export async function digest(importOriginal: Original) {
  const real = await importOriginal<typeof DigestModule>()
  return {
    ...real,
    quietUntil: (...args: Parameters<typeof real.quietUntil>) => (plant.bug === 'quiet-hours-ignored' ? null : real.quietUntil(...args)),
  }
}

/**
 * The unread count one too many once a Reader has read something (the Progress chapter counted as unread); a
 * chapter list stored without the chapters a New Chapter brought, or without the new labels a Site gave.
 */
export async function chapters(importOriginal: Original) {
  const real = await importOriginal<typeof Chapters>()
  return {
    ...real,
    unreadCount: (...args: Parameters<typeof real.unreadCount>) =>
      real.unreadCount(...args) + (plant.bug === 'unread-off-by-one' && args[1] !== null ? 1 : 0),
    // The list stored as it stood before the check: what a New Chapter brought (above the previous Latest) left out.
    storeChapters: (...args: Parameters<typeof real.storeChapters>) => {
      const [, , served, , previous] = args
      if (plant.bug === 'newest-chapter-not-stored' && previous !== null) args[2] = served.filter((c) => c.number <= previous)
      // A chapter's new label not taken (a stored chapter compared by number and link alone).
      if (plant.bug === 'relabel-not-stored') return keepLabels(real)(...args)
      return real.storeChapters(...args)
    },
  }
}

/** storeChapters with the labels of the chapters stored already kept over those served. */
function keepLabels(real: typeof Chapters): typeof Chapters.storeChapters {
  return async (db, key, served, now, previous) => {
    const stored = new Map((await real.chapterList(db, key, { limit: 1000 })).map((c) => [c.number, c.label]))
    return real.storeChapters(
      db,
      key,
      served.map((c) => ({ ...c, label: stored.get(c.number) ?? c.label })),
      now,
      previous,
    )
  }
}

/**
 * A pass takes the Series it read in their order, forced first, one Lane turn each: the read says how many of a
 * Site's next Lane turns are a Check now'd Series'. Fair share ignored: the due query reads in check-stamp order
 * alone, whoever holds how many.
 */
export async function due(importOriginal: Original) {
  const real = await importOriginal<typeof Due>()
  return {
    ...real,
    dueFigures: (...args: Parameters<typeof real.dueFigures>) => {
      if (plant.bug === 'rest-halved') args[2] = halfRest(args[2])
      if (plant.bug === 'rest-doubled') args[2] = scaledRest(args[2], 2)
      return real.dueFigures(...args)
    },
    dueSeries: async (...args: Parameters<typeof real.dueSeries>) => {
      if (plant.bug === 'fair-share-ignored') args[2] = { ...args[2], restCapacity: undefined }
      if (plant.bug === 'rest-halved') args[2] = halfRest(args[2])
      if (plant.bug === 'rest-doubled') args[2] = scaledRest(args[2], 2)
      const rows = await real.dueSeries(...args)
      plant.forcedTurns.set(args[1], rows.filter((r) => r.forced).length)
      return rows
    },
  }
}

/** A Series due after half its rest (a rest cutoff from the rest's half: now − rest / 2; the ceiling is a day). */
function halfRest(cutoffs: Due.DueCutoffs): Due.DueCutoffs {
  return scaledRest(cutoffs, 1 / 2)
}

/** A Series due after `factor` times its rest (now − rest × factor; the ceiling is a day): the rest counted twice at 2. */
function scaledRest(cutoffs: Due.DueCutoffs, factor: number): Due.DueCutoffs {
  const now = cutoffs.ceilingCutoff + 86_400_000
  return { ...cutoffs, restCutoff: now - (now - cutoffs.restCutoff) * factor }
}

/**
 * An HTML chapter list read without its first row (a newest-first list loses its newest chapter); or one with a
 * fractional chapter refused as unreadable (a whole-number pattern: the served page counted an error).
 */
export async function html(importOriginal: Original) {
  const real = await importOriginal<typeof Html>()
  const { AdapterError } = await import('../sites/site')
  return {
    ...real,
    distinctChapters: (...args: Parameters<typeof real.distinctChapters>) => {
      const chapters = real.distinctChapters(...args)
      if (plant.bug === 'fraction-is-adapter-error' && chapters.some((c) => !Number.isInteger(c.number)))
        throw new AdapterError('a chapter number is not a whole number')
      return plant.bug === 'newest-row-dropped' && chapters.length > 1 ? chapters.slice(1) : chapters
    },
  }
}

/**
 * A Sighting lower than the Latest Chapter taken as a raise (the "higher" test left out): within the lead of what
 * a check last found, it writes the Latest Chapter down to what the Reader saw.
 */
export async function sightings(importOriginal: Original) {
  const real = await importOriginal<typeof Sightings>()
  const { getSeries, checkedChapter } = await import('../store/series')
  return {
    ...real,
    recordSighting: async (db: Parameters<typeof real.recordSighting>[0], input: Parameters<typeof real.recordSighting>[1]) => {
      const before = plant.bug === 'sighting-lowers-latest' ? await getSeries(db, input) : undefined
      const report = await real.recordSighting(db, input)
      if (!before || before.latest_chapter === null || input.chapter >= before.latest_chapter) return report
      await db
        .updateTable('series')
        .set({
          latest_chapter: input.chapter,
          latest_source: 'sighting',
          latest_changed_at: input.now,
          checked_chapter: checkedChapter(before),
        })
        .where('site', '=', input.site)
        .where('series_id', '=', input.seriesId)
        .execute()
      return { ...report, raised: true }
    },
  }
}

/** A pass row that counts each failed check twice (once as failed, once more as an error). */
export async function passes(importOriginal: Original) {
  const real = await importOriginal<typeof Passes>()
  return {
    ...real,
    insertPasses: (db: Parameters<typeof real.insertPasses>[0], rows: Parameters<typeof real.insertPasses>[1]) =>
      real.insertPasses(db, plant.bug === 'failed-check-counted-twice' ? rows.map((r) => ({ ...r, errors: r.errors * 2 })) : rows),
  }
}

/** Every turn waits half the spacing asked for; or a Check now'd Series is sent at once, without the Lane's gap. */
export async function pacer(importOriginal: Original) {
  const real = await importOriginal<typeof Pacer>()
  class PlantedPacer extends real.SitePacer {
    override turn(site: string, spacingMs: number, signal?: AbortSignal) {
      const forced = plant.forcedTurns.get(site) ?? 0
      if (forced > 0) plant.forcedTurns.set(site, forced - 1)
      if (plant.bug === 'check-now-takes-no-gap' && forced > 0) return super.turn(site, 0, signal)
      return super.turn(site, plant.bug === 'gap-halved' ? spacingMs / 2 : spacingMs, signal)
    }
    /** An Acquisition's turn: not one of the Lane's, so it takes none of the forced turns. */
    acquisitionTurn(site: string, spacingMs: number, signal?: AbortSignal) {
      return super.turn(site, plant.bug === 'gap-halved' ? spacingMs / 2 : spacingMs, signal)
    }
  }
  return { ...real, SitePacer: PlantedPacer }
}

/** Acquisition takes its turns from a pacer of its own, blind to the Lane's requests (and the Lane to its). */
export async function acquire(importOriginal: Original) {
  const real = await importOriginal<typeof Acquire>()
  const { SitePacer } = await import('../lanes/pacer')
  const own = new WeakMap<Fetchers, InstanceType<typeof SitePacer>>()
  return {
    ...real,
    bookmarkByUrl: (deps: AcquireDeps, input: Parameters<typeof real.bookmarkByUrl>[1]) => {
      if (plant.bug === 'check-now-takes-no-gap') {
        // The Acquisition's turns kept apart from the Lane's, so only the Lane's count the forced ones.
        const shared = deps.pacer as AcquireDeps['pacer'] & { acquisitionTurn: AcquireDeps['pacer']['turn'] }
        const pacer = { turn: shared.acquisitionTurn.bind(shared) } as unknown as AcquireDeps['pacer']
        return real.bookmarkByUrl({ ...deps, pacer }, input)
      }
      if (plant.bug !== 'acquisition-own-turn') return real.bookmarkByUrl(deps, input)
      if (!own.has(deps.fetchers)) own.set(deps.fetchers, new SitePacer(deps.clock))
      return real.bookmarkByUrl({ ...deps, pacer: own.get(deps.fetchers)! }, input)
    },
  }
}

/**
 * The issue's yardstick: a plain `npm run simulate` (3 days, 40 Series, 4 Sites, faults and actions `some`, the
 * seeded agenda alone) on one seed.
 */
export const plainRun = (seed: number): SimulationOptions => ({ days: 3, series: 40, sites: 4, seed, faults: 'some', actions: 'some' })

/** Simulated time: not worth a timeout (Vitest reads 0 as none). */
export const NO_WALL_TIME_LIMIT = 0

const DAY_MS = 86_400_000

/** A plain run on `seed` with `bug` planted: the rules that fired, each with the run's day it first fired. */
export async function runPlanted(bug: Bug, seed: number): Promise<{ fired: Map<RuleName, number>; report: SimulationReport }> {
  // Loaded here, after the test file's vi.mock calls, so the core it starts is the wrapped one.
  const { SIM_START, simulate } = await import('./simulate')
  plant.bug = bug
  plant.forcedTurns.clear()
  try {
    const report = await simulate(plainRun(seed))
    const fired = new Map<RuleName, number>()
    for (const v of report.invariantViolations) if (!fired.has(v.rule)) fired.set(v.rule, Math.floor((v.mono - SIM_START) / DAY_MS) + 1)
    if (process.env.PLANT_PRINT)
      console.warn(`plant ${bug || '(none)'} seed ${seed}: ${[...fired].map(([r, d]) => `${r} day ${d}`).join(', ') || 'nothing fired'}`)
    return { fired, report }
  } finally {
    plant.bug = ''
  }
}

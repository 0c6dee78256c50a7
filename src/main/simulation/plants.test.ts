/**
 * The rules judged from outside (issue 24, docs/adr/0070) each catch a small, realistic bug planted in the core.
 * The bugs are planted by test-only wrappers around the real modules (vi.mock), switched on one at a time; the
 * production code carries no trace of them. A run with no bug planted is the baseline: none of these rules fires.
 *
 * `PLANT_RUN=days,series,sites` sizes the runs (default a CI-sized 1,24,4) and prints the day each rule first
 * fired, for a longer look (docs/reliability.md).
 */
import { describe, expect, it, vi } from 'vitest'
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
import type { AcquireDeps } from '../use-cases/acquire'
import { DAY } from './catalogue'
import type { RuleName } from './checker'
import { READER_RULES } from './checker-readers'
import { SIM_START, simulate, type SimulationOptions } from './simulate'

type Bug =
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
/** The bug switched on; for check-now-takes-no-gap, how many of each Site's next Lane turns are a Check now'd Series'. */
const plant = vi.hoisted(() => ({ bug: '' as string, forcedTurns: new Map<string, number>() }))

// The backoff stored in seconds where ms were meant: a thousandth of it.
vi.mock('../lanes/decisions', async (importOriginal) => {
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
      if (plant.bug !== 'paused-acquisition' || gate !== 'paused' || !new Error().stack?.includes('use-cases/acquire')) return gate
      return args[0].refuse_until > args[1] ? 'refusing' : null
    },
  }
})

// A Finish the store does not keep; a chapter number stored without its fraction (10.5 → 10).
vi.mock('../store/series', async (importOriginal) => {
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
})

// One outbox message per chapter instead of one digest; a message deleted from the outbox as it is taken for
// delivery (lost when the delivery fails).
vi.mock('../store/notify', async (importOriginal) => {
  const real = await importOriginal<typeof NotifyStore>()
  return {
    ...real,
    enqueue: async (db: Parameters<typeof real.enqueue>[0], row: Parameters<typeof real.enqueue>[1]) => {
      const digest = JSON.parse(row.message) as Digest
      if (plant.bug !== 'message-per-chapter' || digest.newChapters.length < 2) return real.enqueue(db, row)
      for (const c of digest.newChapters) await real.enqueue(db, { ...row, message: JSON.stringify({ ...digest, newChapters: [c] }) })
    },
    dueMessages: async (...args: Parameters<typeof real.dueMessages>) => {
      const due = await real.dueMessages(...args)
      if (plant.bug === 'outbox-row-deleted-before-delivery') for (const m of due) await real.messageDone(args[0], m.id)
      return due
    },
  }
})

// Quiet hours not applied: every digest goes out at once.
vi.mock('../notify/digest', async (importOriginal) => {
  const real = await importOriginal<typeof DigestModule>()
  return {
    ...real,
    quietUntil: (...args: Parameters<typeof real.quietUntil>) => (plant.bug === 'quiet-hours-ignored' ? null : real.quietUntil(...args)),
  }
})

// The unread count one too many once a Reader has read something (the Progress chapter counted as unread).
vi.mock('../store/chapters', async (importOriginal) => {
  const real = await importOriginal<typeof Chapters>()
  return {
    ...real,
    unreadCount: (...args: Parameters<typeof real.unreadCount>) =>
      real.unreadCount(...args) + (plant.bug === 'unread-off-by-one' && args[1] !== null ? 1 : 0),
  }
})

// A pass takes the Series it read in their order, forced first, one Lane turn each: the read says how many of a
// Site's next Lane turns are a Check now'd Series'.
vi.mock('../store/due', async (importOriginal) => {
  const real = await importOriginal<typeof Due>()
  return {
    ...real,
    dueSeries: async (...args: Parameters<typeof real.dueSeries>) => {
      const rows = await real.dueSeries(...args)
      plant.forcedTurns.set(args[1], rows.filter((r) => r.forced).length)
      return rows
    },
  }
})

// Every turn waits half the spacing asked for; or a Check now'd Series is sent at once, without the Lane's gap.
vi.mock('../lanes/pacer', async (importOriginal) => {
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
})

// Acquisition takes its turns from a pacer of its own, blind to the Lane's requests (and the Lane to its).
vi.mock('../use-cases/acquire', async (importOriginal) => {
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
})

const OUTSIDE: readonly RuleName[] = [
  'refusal-respected',
  'finished-not-polled',
  'latest-recorded',
  'gap-kept',
  'acquisition-paced',
  ...READER_RULES,
]
const [days, series, sites] = (process.env.PLANT_RUN ?? '1,24,4').split(',').map(Number) as [number, number, number]
/**
 * `PLANT_RUN=default` plants each bug in a plain `npm run simulate` (3 days, 40 Series, 4 Sites, faults and
 * actions `some`, the seeded agenda alone) on the seed `PLANT_SEED` (default 1): the issue's yardstick.
 */
const options: SimulationOptions =
  process.env.PLANT_RUN === 'default'
    ? { days: 3, series: 40, sites: 4, seed: Number(process.env.PLANT_SEED ?? 1), faults: 'some', actions: 'some' }
    : {
        days,
        series,
        sites,
        seed: 3,
        faults: 'some',
        actions: 'some',
        // Refusals often enough to meet one in a day; new bookmarks at once, so Acquisitions meet the Lane.
        faultRates: { challenge: 0.02 },
        scenario: [
          { at: 5 * 3_600_000, do: 'bookmark-burst', site: 0, count: 4 },
          { at: 9 * 3_600_000, do: 'bookmark-burst', site: 1, count: 4 },
        ],
      }
/** Simulated time: not worth a timeout (Vitest reads 0 as none). */
const NO_WALL_TIME_LIMIT = 0

async function run(bug: Bug) {
  plant.bug = bug
  plant.forcedTurns.clear()
  try {
    const report = await simulate(options)
    const fired = new Map<RuleName, number>()
    for (const v of report.invariantViolations) if (!fired.has(v.rule)) fired.set(v.rule, Math.floor((v.mono - SIM_START) / DAY) + 1)
    if (process.env.PLANT_RUN)
      console.warn(`plant ${bug || '(none)'}: ${[...fired].map(([r, d]) => `${r} day ${d}`).join(', ') || 'nothing fired'}`)
    return { fired, report }
  } finally {
    plant.bug = ''
  }
}

describe('bugs planted in the core, caught from outside', () => {
  it(
    'with no bug planted none of the rules fires, and the run meets what the plants need',
    async () => {
      const { fired, report } = await run('')
      expect(OUTSIDE.filter((r) => fired.has(r))).toEqual([])
      expect(report.refusals.withRetryAfter + (report.refusals.byForm.challenge ?? 0)).toBeGreaterThan(0)
      expect(report.requests.byCaller.acquisition).toBeGreaterThan(0)
    },
    NO_WALL_TIME_LIMIT,
  )

  it.each([
    ['refusal-backoff-in-seconds', 'refusal-respected'],
    ['finish-not-kept', 'finished-not-polled'],
    ['fraction-dropped', 'latest-recorded'],
    ['gap-halved', 'gap-kept'],
    ['acquisition-own-turn', 'acquisition-paced'],
    ['check-now-takes-no-gap', 'gap-kept'],
    ['quiet-hours-ignored', 'quiet-hours-kept'],
    ['unread-off-by-one', 'unread-as-served'],
    ['paused-acquisition', 'closed-lane-silent'],
  ] as const)(
    '%s is caught by %s',
    async (bug, rule) => {
      const { fired } = await run(bug)
      expect([...fired.keys()]).toContain(rule)
    },
    NO_WALL_TIME_LIMIT,
  )

  // These need moments a CI-sized day seldom holds (a receiver failing as a message goes out, a fractional
  // release, a chapter withdrawn and back): a plain 3-day run meets them (PLANT_RUN=default, seed 1).
  it.skipIf(process.env.PLANT_RUN !== 'default').each([
    ['outbox-row-deleted-before-delivery', 'delivered-at-least-once'],
    ['fractional-move-not-new', 'new-chapter-complete'],
    ['vanished-chapter-new-again', 'no-new-chapter-unchanged'],
  ] as const)(
    '%s is caught by %s in a plain run',
    async (bug, rule) => {
      const { fired } = await run(bug)
      expect([...fired.keys()]).toContain(rule)
    },
    NO_WALL_TIME_LIMIT,
  )

  // Not caught yet by a plain 3-day run on seed 1: two New Chapters for one Reader in one pass are rare in a
  // 40-Series world, even with the machine asleep over two releases (issue 39's closing note).
  it.skip('message-per-chapter is caught by one-digest-per-reader-per-pass', async () => {
    const { fired } = await run('message-per-chapter')
    expect([...fired.keys()]).toContain('one-digest-per-reader-per-pass')
  })
})

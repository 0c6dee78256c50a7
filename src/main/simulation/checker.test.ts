import { describe, expect, it } from 'vitest'
import { DEFAULT_PACE } from '../sites/site'
import type { PassRow } from '../store/schema'
import { checkInvariants, type CheckerConfig, type RuleName } from './checker'
import type { ActionEvent, CheckEvent, SimEvent } from './events'

const T0 = 1_736_121_600_000
const MIN = 60_000
const HOUR = 60 * MIN
const S = 'a/x'

const config: CheckerConfig = {
  end: T0 + 10 * 24 * HOUR,
  sites: { a: { pace: { ...DEFAULT_PACE }, browser: false, checkSlackMs: 1_000 } },
}

/** Writes a log by hand: `at(ms)` moves time (monotonic; the wall follows it plus every step so far). */
class Log {
  readonly events: SimEvent[] = []
  #mono = T0
  #offset = 0

  at(ms: number): this {
    this.#mono = T0 + ms
    return this
  }

  add(event: Record<string, unknown> & { type: SimEvent['type'] }): this {
    this.events.push({ seq: this.events.length, mono: this.#mono, wall: this.#mono + this.#offset, ...event } as unknown as SimEvent)
    return this
  }

  step(ms: number): this {
    this.#offset += ms
    return this.action('clock-step', { stepMs: ms })
  }

  action(action: ActionEvent['action'], extra: Partial<ActionEvent> = {}): this {
    return this.add({ type: 'action', action, result: 'ok', ...extra })
  }

  request(
    extra: {
      caller?: 'lane' | 'acquisition'
      first?: boolean
      fault?: string | null
      served?: number | null
      series?: string
      url?: string
    } = {},
  ): this {
    return this.add({
      type: 'request',
      site: 'a',
      series: S,
      caller: 'lane',
      first: true,
      url: 'https://a.example/manga/x/',
      fault: null,
      served: 10,
      ...extra,
    })
  }

  check(extra: Partial<CheckEvent> = {}): this {
    const mono = this.#mono
    return this.add({
      type: 'check',
      site: 'a',
      series: S,
      caller: 'lane',
      outcome: 'chapter',
      reason: 'chapter 10',
      startMono: mono,
      startWall: mono + this.#offset,
      requests: 1,
      faults: [],
      served: 10,
      reported: 10,
      ...extra,
    })
  }

  pass(row: Partial<PassRow> | null, newChapters: Array<{ series: string; chapter: number }> = []): this {
    const full: PassRow | null = row && {
      id: this.events.length,
      site: 'a',
      started_at: this.#mono,
      ended_at: this.#mono + this.#offset,
      skip: '',
      due: 1,
      gap: 72_000,
      clamped: 0,
      checked: 0,
      refused: 0,
      unreachable: 0,
      no_chapter: 0,
      unfetchable: 0,
      errors: 0,
      ...row,
    }
    return this.add({ type: 'pass', site: 'a', row: full, newChapters })
  }

  seed(latest: number | null = 10, checkedAt = 0): this {
    return this.add({ type: 'seed', site: 'a', series: S, held: true, readers: 1, finished: false, latest, checkedAt })
  }

  lane(pausedUntil: number, refuseUntil = 0): this {
    return this.add({ type: 'lane', site: 'a', pausedUntil, refuseUntil })
  }

  release(chapter: number, extra: { tracked?: boolean; readers?: number; eligible?: number } = {}): this {
    return this.add({ type: 'release', site: 'a', series: S, chapter, tracked: true, readers: 2, eligible: 50, ...extra })
  }

  latest(chapter: number | null, source: string, after: 'check' | 'sighting' = 'check'): this {
    return this.add({ type: 'latest', site: 'a', series: S, chapter, source, after })
  }
}

const rulesOf = (log: Log): RuleName[] => [...new Set(checkInvariants(log.events, config).violations.map((v) => v.rule))]

describe('one-row-per-pass', () => {
  it('a pass that ends with no row while the Lanes run, or that fails, breaks it', () => {
    expect(rulesOf(new Log().action('lanes-start').at(MIN).pass(null).action('lanes-stop'))).toEqual(['one-row-per-pass'])
    expect(
      rulesOf(new Log().action('lanes-start').at(MIN).add({ type: 'pass-failed', site: 'a', message: 'boom' }).action('lanes-stop')),
    ).toEqual(['one-row-per-pass'])
  })

  it('a pass whose own row write met a database fault has nothing to write it with', () => {
    const failed = (what: string) =>
      new Log()
        .action('lanes-start')
        .at(MIN)
        .add({ type: 'db-fault', what })
        .add({ type: 'pass-failed', site: 'a', message: `simulated database fault (SQLITE_BUSY: database is locked) on ${what}` })
        .action('lanes-stop')
    expect(rulesOf(failed('insert into poll_passes'))).toEqual([])
    expect(rulesOf(failed('select from poll_lanes'))).toEqual(['one-row-per-pass'])
  })

  it('a pass abandoned by a stop before its first check may leave no row', () => {
    expect(rulesOf(new Log().action('lanes-start').at(MIN).pass({ skip: 'nothing-eligible' }).action('lanes-stop').pass(null))).toEqual([])
  })
})

describe('counts-add-up', () => {
  it('a row counting more checks than its pass made breaks it', () => {
    const log = new Log().check().pass({ checked: 2, due: 3 })
    const { violations } = checkInvariants(log.events, config)
    expect(violations.map((v) => v.rule)).toEqual(['counts-add-up'])
    expect(violations[0]!.message).toMatch(/checked is 2, the pass's checks say 1/)
  })

  it('a skipped row states the previous figures or its own with checked 0; anything else breaks it', () => {
    const after = (row: Partial<PassRow>) =>
      new Log()
        .check()
        .pass({ checked: 1, due: 3, gap: 72_000 })
        .pass({ skip: 'paused', ...row })
    expect(rulesOf(after({ checked: 1, due: 3, gap: 72_000 }))).toEqual([])
    expect(rulesOf(after({ checked: 0, due: 2, gap: 72_000 }))).toEqual([])
    expect(rulesOf(after({ checked: 0, due: 0, gap: 0 }))).toEqual(['counts-add-up'])
    expect(rulesOf(after({ checked: 4, due: 4, gap: 72_000 }))).toEqual(['counts-add-up'])
  })

  it('a worked row with Series due and nothing checked or tried is a stall', () => {
    expect(rulesOf(new Log().pass({ checked: 0, due: 2, gap: 72_000 }))).toEqual(['counts-add-up'])
    expect(rulesOf(new Log().pass({ checked: 0, due: 0, gap: 72_000 }))).toEqual([])
    expect(rulesOf(new Log().check().pass({ checked: 1, due: 2, gap: 72_000 }))).toEqual([])
  })

  it('an error counted in the row must be one of its checks', () => {
    const log = new Log()
      .request({ fault: '5xx' })
      .check({ outcome: 'error', reason: 'HTTP 503', faults: ['5xx'], served: null, reported: null })
    expect(rulesOf(log.pass({ checked: 1, errors: 1 }))).toEqual([])
    expect(rulesOf(new Log().check().pass({ checked: 1, errors: 1 }))).toEqual(['counts-add-up', 'error-needs-fault'])
  })
})

describe('error-needs-fault', () => {
  it('a failed check with no fault injected is a violation and an unexplained error', () => {
    const log = new Log().check({ outcome: 'error', reason: 'check failed: near "where": syntax error', served: 10, reported: null })
    const result = checkInvariants(log.events, config)
    expect(result.violations.map((v) => v.rule)).toEqual(['error-needs-fault'])
    expect(result.unexplainedErrors).toMatchObject([{ series: S, outcome: 'error', reason: 'check failed: near "where": syntax error' }])
  })

  it('a database fault explains an error only when one was injected during the check', () => {
    const check = {
      outcome: 'error' as const,
      reason: 'check stamp failed: simulated database fault',
      faults: ['database' as const],
      served: null,
      reported: null,
    }
    expect(rulesOf(new Log().add({ type: 'db-fault', what: 'update series' }).check(check))).toEqual([])
    expect(rulesOf(new Log().check(check))).toEqual(['error-needs-fault'])
  })

  it('the fault must explain the outcome: a 5xx explains an error, not a no-chapter', () => {
    expect(rulesOf(new Log().check({ outcome: 'error', faults: ['timeout'], served: null, reported: null }))).toEqual([])
    expect(rulesOf(new Log().check({ outcome: 'no-chapter', faults: ['5xx'], served: null, reported: null }))).toEqual([
      'error-needs-fault',
    ])
  })
})

describe('closed-lane-silent', () => {
  it('a request while paused breaks it, from the Lane or from an Acquisition', () => {
    const paused = () => new Log().action('pause', { site: 'a', durationMs: HOUR })
    expect(
      rulesOf(
        paused()
          .at(10 * MIN)
          .request(),
      ),
    ).toEqual(['closed-lane-silent'])
    expect(
      rulesOf(
        paused()
          .at(10 * MIN)
          .request({ caller: 'acquisition' }),
      ),
    ).toEqual(['closed-lane-silent'])
    expect(
      rulesOf(
        paused()
          .at(61 * MIN)
          .request({ caller: 'acquisition' }),
      ),
    ).toEqual([])
  })

  it('no request at all inside the refusal backoff, Acquisition included', () => {
    expect(
      rulesOf(
        new Log()
          .lane(0, T0 + 15 * MIN)
          .at(5 * MIN)
          .request({ caller: 'acquisition' }),
      ),
    ).toEqual(['closed-lane-silent'])
    expect(
      rulesOf(
        new Log()
          .lane(0, T0 + 15 * MIN)
          .at(16 * MIN)
          .request(),
      ),
    ).toEqual([])
  })

  it('a step forward of the wall clock past the pause ends it', () => {
    expect(
      rulesOf(
        new Log()
          .action('pause', { site: 'a', durationMs: HOUR })
          .at(10 * MIN)
          .step(2 * HOUR)
          .request(),
      ),
    ).toEqual([])
  })

  it('a pause is judged from the press and the duration chosen, not from what the app stored (issue 24)', () => {
    // The app stored a pause of a minute for a press of an hour: its requests 10 minutes in break the rule.
    const log = new Log().action('pause', { site: 'a', durationMs: HOUR }).lane(T0 + MIN)
    expect(rulesOf(log.at(10 * MIN).request())).toEqual(['closed-lane-silent'])
    // The app stored a pause no press asked for: nothing to judge there.
    expect(
      rulesOf(
        new Log()
          .lane(T0 + HOUR)
          .at(10 * MIN)
          .request(),
      ),
    ).toEqual([])
  })

  it('a Resume, or a new Pause, ends the window of the press before it', () => {
    const pressed = () => new Log().action('pause', { site: 'a', durationMs: 6 * HOUR }).at(HOUR)
    expect(
      rulesOf(
        pressed()
          .action('resume', { site: 'a' })
          .at(HOUR + MIN)
          .request(),
      ),
    ).toEqual([])
    expect(
      rulesOf(
        pressed()
          .action('pause', { site: 'a', durationMs: HOUR })
          .at(2 * HOUR + MIN)
          .request(),
      ),
    ).toEqual([])
  })
})

/** The rules judged from the Sites' ledger and the simulation's own actions (issue 24), alone: other rules may also see a hand-written log. */
const OUTSIDE: readonly RuleName[] = ['refusal-respected', 'finished-not-polled', 'latest-recorded', 'gap-kept', 'acquisition-paced']
const judged = (log: Log): RuleName[] => rulesOf(log).filter((r) => OUTSIDE.includes(r))

describe("refusal-respected (the Sites' ledger)", () => {
  const refused = (extra: { askedMs?: number | null; retryAfter?: string | null; form?: string; caller?: string } = {}) =>
    new Log()
      .request()
      .add({ type: 'refusal', site: 'a', series: S, caller: 'lane', form: 'challenge', retryAfter: null, askedMs: null, ...extra })

  it('no request from anyone within the backoff after a refusal the Site answered, whatever the app stored', () => {
    expect(
      judged(
        refused()
          .at(5 * MIN)
          .request({ caller: 'acquisition', series: 'a/y' }),
      ),
    ).toEqual(['refusal-respected'])
    // The app stored no refusal at all (a backoff shortened to nothing): the Site's ledger still says it refused.
    expect(
      judged(
        refused()
          .lane(0, 0)
          .at(5 * MIN)
          .request(),
      ),
    ).toEqual(['refusal-respected'])
    expect(
      judged(
        refused()
          .at(15 * MIN)
          .request(),
      ),
    ).toEqual([])
  })

  it('a Retry-After longer than the backoff is the window, in either form; a shorter one leaves the backoff', () => {
    const seconds = () => refused({ form: '429', retryAfter: '5400', askedMs: 5_400_000 })
    expect(judged(seconds().at(HOUR).request())).toEqual(['refusal-respected'])
    expect(
      judged(
        seconds()
          .at(90 * MIN)
          .request(),
      ),
    ).toEqual([])
    const date = refused({ form: '503', retryAfter: 'Mon, 06 Jan 2025 00:45:00 GMT', askedMs: 2_700_000 })
    expect(judged(date.at(30 * MIN).request())).toEqual(['refusal-respected'])
    expect(
      judged(
        refused({ form: '429', retryAfter: '120', askedMs: 120_000 })
          .at(10 * MIN)
          .request(),
      ),
    ).toEqual(['refusal-respected'])
  })

  it('a request at the instant of the refusal was on its way; a step forward of the wall clock shortens the wait', () => {
    expect(judged(refused().request({ caller: 'acquisition' }))).not.toContain('refusal-respected')
    expect(
      judged(
        refused()
          .at(5 * MIN)
          .step(HOUR)
          .at(6 * MIN)
          .request(),
      ),
    ).toEqual([])
  })
})

describe('finished-not-polled', () => {
  it('a Finished Series fetched with no Check now since its last request breaks it', () => {
    const finished = () => new Log().request().at(HOUR).action('finish', { site: 'a', series: S })
    expect(
      judged(
        finished()
          .at(3 * HOUR)
          .request(),
      ),
    ).toEqual(['finished-not-polled'])
    expect(
      judged(
        finished()
          .at(2 * HOUR)
          .action('check-now', { site: 'a', series: S })
          .at(3 * HOUR)
          .request(),
      ),
    ).toEqual([])
    // The press was served: the request after the one that served it needs another.
    expect(
      judged(
        finished()
          .at(2 * HOUR)
          .action('check-now', { site: 'a', series: S })
          .request()
          .at(4 * HOUR)
          .request(),
      ),
    ).toEqual(['finished-not-polled'])
  })

  it('Finished before the run counts; an Unfinish ends it; a request just after the Finish was due before it', () => {
    const seeded = new Log().add({ type: 'seed', site: 'a', series: S, held: true, readers: 1, finished: true, latest: 10, checkedAt: 0 })
    expect(judged(seeded.at(HOUR).request())).toEqual(['finished-not-polled'])
    const unfinished = new Log().action('finish', { site: 'a', series: S }).at(HOUR).action('unfinish', { site: 'a', series: S })
    expect(judged(unfinished.at(2 * HOUR).request())).toEqual([])
    expect(judged(new Log().action('finish', { site: 'a', series: S }).at(500).request())).toEqual([])
  })
})

describe('latest-recorded', () => {
  it('a check served 10.5 that left the store at 10 breaks it', () => {
    const log = new Log().seed(10).check({ served: 10.5, reported: 10.5, reason: 'chapter 10.5' }).latest(10, 'check')
    const violations = checkInvariants(log.events, config).violations.filter((v) => v.rule === 'latest-recorded')
    expect(violations).toHaveLength(1)
    expect(violations[0]!.message).toBe('lane check was served chapter 10.5; the store holds 10 (check)')
  })

  it('the chapter served, or a higher Sighting standing, keeps it', () => {
    expect(judged(new Log().seed(10).check({ served: 10.5, reported: 10.5 }).latest(10.5, 'check'))).not.toContain('latest-recorded')
    expect(judged(new Log().seed(10).check({ served: 10.5, reported: 10.5 }).latest(14, 'sighting'))).not.toContain('latest-recorded')
    expect(judged(new Log().seed(10).check({ served: 11, reported: 11 }).latest(10.5, 'sighting'))).toContain('latest-recorded')
  })
})

describe('gap-kept and acquisition-paced', () => {
  const GAP = 72_000
  it("two Lane requests closer than their pass's gap break gap-kept, even when both are past minGapMs", () => {
    const log = new Log()
      .request()
      .at(GAP / 2)
      .request({ series: 'a/y' })
      .pass({ gap: GAP, checked: 2, due: 2 })
    const violations = checkInvariants(log.events, config).violations.filter((v) => v.rule === 'gap-kept')
    expect(violations).toHaveLength(1)
    expect(violations[0]!.message).toBe(`lane then lane request ${GAP / 2} ms apart; the pass's gap is ${GAP} ms`)
    expect(judged(new Log().request().at(GAP).request({ series: 'a/y' }).pass({ gap: GAP, checked: 2, due: 2 }))).toEqual([])
  })

  it(`within ${1} ms only, and across passes: the later request's pass's gap`, () => {
    const across = new Log()
      .request()
      .pass({ gap: GAP, checked: 1 })
      .at(GAP - 2)
      .request({ series: 'a/y' })
      .pass({ gap: GAP, checked: 1 })
    expect(judged(across)).toEqual(['gap-kept'])
    expect(
      judged(
        new Log()
          .request()
          .at(GAP - 1)
          .request({ series: 'a/y' })
          .pass({ gap: GAP, checked: 2, due: 2 }),
      ),
    ).toEqual([])
  })

  it("a Lane request closer than its pass's gap after an Acquisition's breaks acquisition-paced", () => {
    const log = new Log().request({ caller: 'acquisition', series: 'a/y' }).at(10_000).request().pass({ gap: GAP, checked: 1 })
    expect(judged(log)).toEqual(['acquisition-paced'])
    expect(judged(new Log().request({ caller: 'acquisition', series: 'a/y' }).at(GAP).request().pass({ gap: GAP, checked: 1 }))).toEqual([])
  })

  it('a pass that wrote no row gives no gap to judge by', () => {
    expect(
      judged(new Log().request().at(10_000).request({ series: 'a/y' }).add({ type: 'pass-failed', site: 'a', message: 'x' })),
    ).not.toContain('gap-kept')
  })
})

describe('min-gap', () => {
  it('two checks of one Site closer than minGapMs break it, whoever made them', () => {
    const log = new Log().request({ series: 'a/y' }).at(3_000).request({ caller: 'acquisition' })
    const { violations } = checkInvariants(log.events, config)
    expect(violations.map((v) => v.rule)).toEqual(['min-gap'])
    expect(violations[0]!.message).toBe('lane then acquisition request 3000 ms apart (minGapMs 5000)')
  })

  it("a check's own follow-up request (an XHR list) is part of it", () => {
    expect(rulesOf(new Log().request().at(400).request({ first: false }))).toEqual([])
  })
})

describe('rest', () => {
  it('a Series checked again 30 minutes later, unforced, breaks it', () => {
    expect(
      rulesOf(
        new Log()
          .request()
          .at(30 * MIN)
          .request(),
      ),
    ).toEqual(['rest'])
  })

  it('a Check now between the two checks allows it', () => {
    expect(
      rulesOf(
        new Log()
          .request()
          .at(20 * MIN)
          .action('check-now', { site: 'a', series: S })
          .at(21 * MIN)
          .request(),
      ),
    ).toEqual([])
  })

  it('a wall clock stepped forward makes the rest pass in the store, so it is allowed', () => {
    expect(
      rulesOf(
        new Log()
          .request()
          .at(20 * MIN)
          .step(2 * HOUR)
          .at(21 * MIN)
          .request(),
      ),
    ).toEqual([])
  })

  it('a check the store decided on while the wall clock was ahead stays allowed after it steps back', () => {
    expect(
      rulesOf(
        new Log()
          .request()
          .at(20 * MIN)
          .step(3 * HOUR)
          .at(25 * MIN)
          .step(-3 * HOUR)
          .at(26 * MIN)
          .request(),
      ),
    ).toEqual([])
  })

  it('counts from the check stamp the Series was seeded with', () => {
    expect(rulesOf(new Log().seed(10, T0 - 10 * MIN).request())).toEqual(['rest'])
  })
})

describe('check-now-served', () => {
  const press = (log: Log) => log.action('check-now', { site: 'a', series: S, pending: true })

  it('a press not served within maxPassMs + gap breaks it', () => {
    const log = press(new Log().seed(10, T0 - 5 * HOUR))
      .at(20 * MIN)
      .request()
    const { violations } = checkInvariants(log.events, config)
    expect(violations.map((v) => v.rule)).toEqual(['check-now-served'])
    expect(violations[0]!.message).toMatch(/^Check now served after 20\.0 min; allowed 10\.0 min/)
  })

  it('allows a Lane turn held by queued Acquisitions its longest wait more, no longer (ADR 0241)', () => {
    // The bound is about 10 min (maxPassMs 5 min, a gap, a check's slack); Acquisitions add maxPassMs, a gap and two
    // Acquisitions' turns (5 s spacing, 1 s slack each).
    const served = (acquisitions: number, at: number) => {
      const log = press(new Log().seed(10, T0 - 5 * HOUR))
      for (let i = 0; i < acquisitions; i++) log.at((i + 1) * 6_000).request({ caller: 'acquisition', series: `a/new-${i}` })
      return rulesOf(log.at(at).request())
    }
    expect([served(0, 12 * MIN), served(3, 12 * MIN), served(30, 25 * MIN)]).toEqual([['check-now-served'], [], ['check-now-served']])
  })

  it('a press served within the bound, or while the Lane is paused, is fine', () => {
    expect(
      rulesOf(
        press(new Log().seed(10, T0 - 5 * HOUR))
          .at(4 * MIN)
          .request(),
      ),
    ).toEqual([])
    expect(
      rulesOf(
        press(new Log().seed(10, T0 - 5 * HOUR).lane(T0 + HOUR))
          .at(70 * MIN)
          .request(),
      ),
    ).toEqual([])
  })
})

describe('detection-bound', () => {
  const found = (log: Log, chapter: number) =>
    log.request({ served: chapter }).check({ served: chapter, reported: chapter, reason: `chapter ${chapter}` })

  it('a Series held only by a Reader over their share is bounded by what a rest leaves over (docs/adr/0081)', () => {
    // A minute between requests: a rest of an hour holds 60 checks, a share of 30 for each of two Readers.
    // Reader 1 holds 20 Series (within), Reader 0 holds 100 more (over): theirs share the 40 checks left over,
    // a round of 100 × 60 min ÷ 40 = 150 min, where the 120 eligible alone would give 120.
    const slow: CheckerConfig = {
      ...config,
      sites: { a: { pace: { ...DEFAULT_PACE, minGapMs: MIN, maxGapMs: MIN, restMs: HOUR }, browser: false, checkSlackMs: 1_000 } },
    }
    const world = (released: string) => {
      const log = new Log()
      for (let i = 0; i < 120; i++) {
        const series = i === 0 ? S : `a/s${i}`
        const holders = (released === 'over' ? i > 0 && i <= 20 : i < 20) ? [1] : [0]
        log.add({ type: 'seed', site: 'a', series, held: true, readers: 1, finished: false, latest: 10, checkedAt: 0, holders })
      }
      return found(log.release(11, { eligible: 120 }).at(140 * MIN), 11)
    }
    const rules = (log: Log) => [...new Set(checkInvariants(log.events, slow).violations.map((v) => v.rule))]
    expect(rules(world('over'))).not.toContain('detection-bound')
    expect(rules(world('within'))).toContain('detection-bound')
  })

  it('a Series behind Series with more Readers on a Lane with more Series than a rest holds shares what they leave over', () => {
    // A minute between requests: a rest of an hour holds 60 checks. 40 Series held by both Readers come first in the
    // due order, each once a rest; the 40 held by Reader 0 alone share the 20 checks left over, a round of
    // 40 × 60 min ÷ 20 = 120 min, where the 80 eligible alone would give 80. Both Readers are over a share of 30.
    const slow: CheckerConfig = {
      ...config,
      sites: { a: { pace: { ...DEFAULT_PACE, minGapMs: MIN, maxGapMs: MIN, restMs: HOUR }, browser: false, checkSlackMs: 1_000 } },
    }
    const world = (readersOfS: number[], foundAt: number) => {
      const log = new Log()
      for (let i = 0; i < 80; i++) {
        const series = i === 0 ? S : `a/s${i}`
        const holders = i === 0 ? readersOfS : i <= 40 ? [0, 1] : [0]
        log.add({
          type: 'seed',
          site: 'a',
          series,
          held: true,
          readers: holders.length,
          finished: false,
          latest: 10,
          checkedAt: 0,
          holders,
        })
      }
      return found(log.release(11, { eligible: 80, readers: readersOfS.length }).at(foundAt), 11)
    }
    const rules = (log: Log) => [...new Set(checkInvariants(log.events, slow).violations.map((v) => v.rule))]
    expect(rules(world([0], 110 * MIN))).not.toContain('detection-bound')
    // Later than its round, it is late all the same.
    expect(rules(world([0], 130 * MIN))).toContain('detection-bound')
    // Held by both, it is among the first: its round is the 80 eligible's.
    expect(rules(world([0, 1], 110 * MIN))).toContain('detection-bound')
  })

  it('a pause in the time a backlog of due Series adds delays the Series too; past both, the chapter is late', () => {
    // 50 eligible: a gap of 72 s, a turn of a rest (60 min) + a pass (5 min). A pass saw 51 due, so the Series may
    // wait 50 gaps (60 min) more: 125 min. The Lane is paused from 90 to 150 min, inside that wait: 60 min more.
    const world = (foundAt: number) =>
      found(
        new Log()
          .release(11)
          .at(10 * MIN)
          .pass({ due: 51, checked: 4 })
          .at(90 * MIN)
          .lane(T0 + 150 * MIN)
          .at(foundAt),
        11,
      )
    const bound = (log: Log) => checkInvariants(log.events, config).violations.filter((v) => v.rule === 'detection-bound')
    expect(bound(world(170 * MIN))).toEqual([])
    expect(bound(world(200 * MIN))).toMatchObject([{ message: expect.stringMatching(/found after 200\.0 min; allowed 18\d\.\d min/) }])
  })

  it('a chapter found after 3 hours on a healthy Lane breaks it; one found in 40 minutes is fine', () => {
    const late = found(new Log().release(11).at(3 * HOUR), 11)
    const { violations, detections } = checkInvariants(late.events, config)
    expect(violations.map((v) => v.rule)).toEqual(['detection-bound'])
    expect(detections).toMatchObject([{ chapter: 11, publishedAt: T0, detectedAt: T0 + 3 * HOUR }])
    expect(rulesOf(found(new Log().release(11).at(40 * MIN), 11))).toEqual([])
  })

  it('a chapter never found breaks it once its bound has passed', () => {
    expect(checkInvariants(new Log().release(11).events, config).violations[0]).toMatchObject({
      rule: 'detection-bound',
      message: expect.stringMatching(/never found/),
    })
  })

  it('a wall clock stepped back extends the bound by the step, at most until the next pass would have repaired the stamp', () => {
    // Checked 10 min before the chapter; the clock goes back 5 h 20 min after the chapter. The next pass brings
    // the stamp back to now, so the check may come about a rest after the step — not 5 h later.
    const stepped = () =>
      new Log()
        .request({ served: 10 })
        .at(10 * MIN)
        .release(11)
        .at(30 * MIN)
        .step(-5 * HOUR)
    expect(rulesOf(found(stepped().at(30 * MIN + HOUR + 5 * MIN), 11))).toEqual([])
    expect(rulesOf(found(stepped().at(5 * HOUR + 10 * MIN), 11))).toEqual(['detection-bound'])
  })

  it('a failed check gives the Series its next turn a rest later, on top of a Sighting deferral', () => {
    const failed = { outcome: 'error' as const, reason: 'HTTP 503', faults: ['5xx' as const], served: null, reported: null }
    const log = new Log()
      .release(11, { readers: 1 })
      .at(40 * MIN)
      .action('sighting', { site: 'a', series: S, chapter: 11 })
      .at(102 * MIN)
      .request({ fault: '5xx', served: null })
      .check(failed)
      .at(162 * MIN)
    expect(rulesOf(found(log, 11))).toEqual([])
  })

  it("a failed check on a Site behind a browser gives its next turn a rest and the browser's wake threshold later", () => {
    // Rest 1 h, the browser woken when the oldest due Series has waited 2 h: a turn every 3 h. The check at 3 h fails;
    // the next comes 3 h after it (a rest, then the wake threshold again), so finding the chapter at 6 h 5 min is on time.
    const pace = { ...DEFAULT_PACE, restMs: HOUR, wakeOldestMs: 2 * HOUR }
    const behindBrowser: CheckerConfig = { ...config, sites: { a: { pace, browser: true, checkSlackMs: 1_000 } } }
    const failed = { outcome: 'error' as const, reason: 'HTTP 502', faults: ['5xx' as const], served: null, reported: null }
    const log = new Log()
      .release(11)
      .at(3 * HOUR)
      .request({ fault: '5xx', served: null })
      .check(failed)
      .at(6 * HOUR + pace.maxPassMs / 2)
    const rules = checkInvariants(found(log, 11).events, behindBrowser).violations.map((v) => v.rule)
    expect(rules).not.toContain('detection-bound')
  })

  it('a refusal at the turn a Sighting deferred delays that turn, and the failed check after it gives another rest', () => {
    // The Reader's Sighting at 40 min puts the Series' next check a rest later (about 101 min); the Site refuses from
    // 102 to 117 min, the check at 117 min fails, and the next comes a rest after it.
    const failed = {
      outcome: 'no-chapter' as const,
      reason: 'a real page with no chapter found',
      faults: ['no-chapter' as const],
      served: null,
      reported: null,
    }
    const refusedAfterSighting = () =>
      new Log()
        .release(11, { readers: 1 })
        .at(40 * MIN)
        .action('sighting', { site: 'a', series: S, chapter: 11 })
        .at(102 * MIN)
        .lane(0, T0 + 117 * MIN)
        .at(117 * MIN)
        .request({ fault: 'no-chapter', served: null })
        .check(failed)
    expect(rulesOf(found(refusedAfterSighting().at(178 * MIN), 11))).toEqual([])
    expect(rulesOf(found(refusedAfterSighting().at(4 * HOUR), 11))).toEqual(['detection-bound'])
  })

  it('time the Lane was paused extends the bound', () => {
    expect(
      rulesOf(
        found(
          new Log()
            .lane(T0 + 2 * HOUR)
            .release(11)
            .at(2 * HOUR + 50 * MIN),
          11,
        ),
      ),
    ).toEqual([])
  })

  it('an untracked Series (no Reader, or Finished) is not expected to be found', () => {
    expect(rulesOf(new Log().release(11, { tracked: false }))).toEqual([])
  })
})

describe('no-new-chapter-unchanged', () => {
  it('a New Chapter for a chapter the Site had already shown breaks it', () => {
    const log = new Log()
      .seed(10)
      .check({ served: 10 })
      .pass({ checked: 1 }, [{ series: S, chapter: 10 }])
    expect(rulesOf(log)).toEqual(['no-new-chapter-unchanged'])
  })

  it('a New Chapter for a chapter the Site shows for the first time is fine', () => {
    const log = new Log()
      .seed(10)
      .check({ served: 11, reported: 11, reason: 'chapter 11' })
      .pass({ checked: 1 }, [{ series: S, chapter: 11 }])
    expect(rulesOf(log)).toEqual([])
  })
})

describe('latest-never-down', () => {
  it('a check moving the Latest Chapter down from a checked one breaks it', () => {
    expect(rulesOf(new Log().seed(10).latest(9, 'check'))).toEqual(['latest-never-down'])
  })

  it('a check correcting a Sighting raise down is allowed', () => {
    expect(rulesOf(new Log().seed(10).latest(50, 'sighting', 'sighting').latest(12, 'check'))).toEqual([])
  })
})

describe('proof-of-life', () => {
  it('a running Lane silent for three hours breaks it', () => {
    const log = new Log()
      .action('lanes-start')
      .at(MIN)
      .pass({ due: 0 })
      .at(3 * HOUR)
      .pass({ due: 0 })
      .action('lanes-stop')
    const { violations } = checkInvariants(log.events, config)
    expect(violations.map((v) => v.rule)).toEqual(['proof-of-life'])
    expect(violations[0]!.message).toMatch(/^no pass row for 179\.0 min/)
  })

  it("a pass that read the Site's updates page may take the longest gap more: its read waited a turn of its own", () => {
    const log = (page: boolean) => {
      const l = new Log()
        .action('lanes-start')
        .at(MIN)
        .pass({ due: 0 })
        .at(5 * MIN)
      if (page) l.request({ series: '', url: 'https://a.example/manga/?m_orderby=latest', served: null })
      return l
        .at(14 * MIN)
        .pass({ due: 0 })
        .action('lanes-stop')
    }
    expect(rulesOf(log(false))).toEqual(['proof-of-life'])
    expect(rulesOf(log(true))).toEqual([])
  })

  it('a refusing Lane may sleep out its backoff', () => {
    const log = new Log()
      .action('lanes-start')
      .lane(0, T0 + 40 * MIN)
      .at(MIN)
      .pass({ skip: 'refusing', due: 1 })
      .at(45 * MIN)
      .check()
      .pass({ due: 1, checked: 1 })
      .action('lanes-stop')
    expect(rulesOf(log)).toEqual([])
  })

  it("a refusal an Acquisition's search recorded: the Lane sleeps it out, as the Lane row read just after its refusing row says", () => {
    // No Lane snapshot at the refusal (a search or a cover takes none): only the one the simulation takes right
    // after a refusing row says how long the Lane sleeps.
    const log = new Log()
      .action('lanes-start')
      .at(MIN)
      .pass({ due: 0 })
      .at(10 * MIN)
      .request({ caller: 'acquisition', first: false, series: '', fault: 'challenge', served: null })
      .at(10 * MIN + 30_000)
      .pass({ skip: 'refusing', due: 0 })
      .lane(0, T0 + 25 * MIN)
      .at(25 * MIN)
      .pass({ due: 0 })
      .action('lanes-stop')
    expect(rulesOf(log)).toEqual([])
  })

  it('stopped Lanes owe no rows', () => {
    expect(
      rulesOf(
        new Log()
          .action('lanes-start')
          .at(MIN)
          .pass({ due: 0 })
          .action('lanes-stop')
          .at(5 * HOUR)
          .action('lanes-start')
          .at(5 * HOUR + MIN)
          .pass({ due: 0 })
          .action('lanes-stop'),
      ),
    ).toEqual([])
  })
})

describe('parsed-as-served', () => {
  it('a check reporting another chapter than the Site served breaks it', () => {
    expect(rulesOf(new Log().check({ served: 12.5, reported: 12, reason: 'chapter 12' }))).toEqual(['parsed-as-served'])
  })
})

describe('actions-succeed', () => {
  it('an owner or Reader action that fails breaks it', () => {
    expect(rulesOf(new Log().action('check-now', { site: 'a', series: S, result: 'store: no Series a/x' }))).toEqual(['actions-succeed'])
  })
})

describe('chapters-as-served', () => {
  const found = { served: 12, reported: 12, reason: 'chapter 12', listed: [12, 11, 10.5, 10] }
  it('a stored list equal to the one served keeps it; chapters below it (kept for a Reader) do not count', () => {
    expect(rulesOf(new Log().check({ ...found, stored: [12, 11, 10.5, 10, 9, 8] }))).toEqual([])
  })
  it('a served chapter not stored, or a stored one in the window the Site did not list, breaks it', () => {
    expect(rulesOf(new Log().check({ ...found, stored: [12, 11, 10] }))).toEqual(['chapters-as-served'])
    expect(rulesOf(new Log().check({ ...found, stored: [12, 11.5, 11, 10.5, 10] }))).toEqual(['chapters-as-served'])
  })
})

describe('one-message-per-reader-per-pass', () => {
  const found = { type: 'pass', site: 'a', row: null, newChapters: [{ series: S, chapter: 11 }] } as const
  const digest = (messages: Array<{ reader: number; series: string[]; held: string[] }>) =>
    ({ type: 'notify', site: 'a', messages }) as const
  const told = { reader: 1, series: [S], held: [S] }
  const result = (log: Log) =>
    checkInvariants(log.events, config)
      .violations.filter((v) => v.rule === 'one-message-per-reader-per-pass')
      .map((v) => v.message)

  it('a digest after a pass that found New Chapters, one message per Reader of Series they hold, keeps it', () => {
    expect(result(new Log().add(found).add(digest([told, { ...told, reader: 2 }])))).toEqual([])
  })

  it('two messages for one Reader in a pass, a Series they do not hold, or a digest with no pass before it break it', () => {
    expect(result(new Log().add(found).add(digest([told, told])))).toEqual(['Reader 1 has two messages in one digest'])
    expect(result(new Log().add(found).add(digest([{ reader: 1, series: [S, 'a/y'], held: [S] }])))).toEqual([
      'a digest told of a/y again: no pass found a New Chapter of it since',
      'Reader 1 was told of a/y, which they do not hold',
    ])
    expect(
      result(
        new Log()
          .add(found)
          .add(digest([told]))
          .add(digest([told])),
      ),
    ).toEqual([
      `a digest told of ${S} again: no pass found a New Chapter of it since`,
      'digest 2 of a follows only 1 passes that found New Chapters',
    ])
  })

  it('a Series told again after a later pass found nothing new of it breaks it; a digest made again after a failure, or at a start, keeps it', () => {
    const other = { type: 'pass', site: 'a', row: null, newChapters: [{ series: 'a/y', chapter: 3 }] } as const
    const both = { reader: 1, series: ['a/y', S], held: ['a/y', S] }
    expect(
      result(
        new Log()
          .add(found)
          .add(digest([told]))
          .add(other)
          .add(digest([both])),
      ),
    ).toEqual([`a digest told of ${S} again: no pass found a New Chapter of it since`])
    // The first digest failed (no event): the next names what it held, and the new one.
    expect(
      result(
        new Log()
          .add(found)
          .add(other)
          .add(digest([both])),
      ),
    ).toEqual([])
    // A start's digest (no Site) takes what a stop left: what it names is told.
    const atStart = { type: 'notify', site: '', messages: [told] } as const
    expect(
      result(
        new Log()
          .add(found)
          .add(atStart)
          .add(other)
          .add(digest([both])),
      ),
    ).toEqual([`a digest told of ${S} again: no pass found a New Chapter of it since`])
  })
})

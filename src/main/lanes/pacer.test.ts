import { beforeEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../testing/clock'
import { SitePacer, type Turn } from './pacer'

const SEC = 1_000
const MIN = 60 * SEC

let clock: FakeClock
let pacer: SitePacer

beforeEach(() => {
  clock = new FakeClock()
  pacer = new SitePacer(clock)
})

/** Takes a turn, moving the fake clock until it is granted; returns it with how long it waited. */
async function takeTurn(site: string, spacingMs: number): Promise<{ turn: Turn; waited: number }> {
  const from = clock.monotonic()
  let turn: Turn | null | undefined
  void pacer.turn(site, spacingMs).then((t) => (turn = t))
  await clock.runUntil(() => turn !== undefined)
  if (!turn) throw new Error('no turn')
  return { turn, waited: clock.monotonic() - from }
}

describe('the spacing of one Site', () => {
  it('a Site nobody has requested yet is served at once', async () => {
    expect(pacer.waitFor('a', MIN)).toBe(0)
    expect((await takeTurn('a', MIN)).waited).toBe(0)
  })

  it('a request sent makes the next turn wait the spacing from it', async () => {
    ;(await takeTurn('a', MIN)).turn.sent()
    await clock.advance(20 * SEC)
    expect(pacer.waitFor('a', MIN)).toBe(40 * SEC)
    expect((await takeTurn('a', MIN)).waited).toBe(40 * SEC)
  })

  it('a turn given back unused leaves the spacing measured from the previous request', async () => {
    ;(await takeTurn('a', MIN)).turn.sent()
    await clock.advance(MIN)
    ;(await takeTurn('a', MIN)).turn.skip()
    expect(pacer.waitFor('a', MIN)).toBe(0)
  })

  it('a turn ends once: the first of sent and skip decides', async () => {
    const given = (await takeTurn('a', MIN)).turn
    given.skip()
    await clock.advance(30 * SEC)
    given.sent()
    expect(pacer.waitFor('a', MIN)).toBe(0)

    const spent = (await takeTurn('a', MIN)).turn
    spent.sent()
    await clock.advance(30 * SEC)
    spent.sent()
    expect(pacer.waitFor('a', MIN)).toBe(30 * SEC)
  })

  it('one turn at a time: the second waits for the first to end, then for the spacing', async () => {
    const first = (await takeTurn('a', MIN)).turn
    let second: Turn | null | undefined
    void pacer.turn('a', MIN).then((t) => (second = t))
    await clock.advance(5 * MIN)
    expect(second).toBeUndefined()
    first.sent()
    await clock.advance(MIN - 1)
    expect(second).toBeUndefined()
    await clock.advance(1)
    expect(second).toBeTruthy()
  })

  it('Sites are spaced apart from each other, not together', async () => {
    ;(await takeTurn('a', MIN)).turn.sent()
    expect((await takeTurn('b', MIN)).waited).toBe(0)
  })

  it('a turn without a signal can be taken', async () => {
    await expect(pacer.turn('a', MIN)).resolves.toBeTruthy()
  })

  it('an aborted signal ends the wait with no turn, and lets the next one through', async () => {
    ;(await takeTurn('a', MIN)).turn.sent()
    const stop = new AbortController()
    let got: Turn | null | undefined
    void pacer.turn('a', MIN, stop.signal).then((t) => (got = t))
    await clock.advance(10 * SEC)
    stop.abort()
    await clock.advance(0)
    expect(got).toBeNull()
    expect((await takeTurn('a', MIN)).waited).toBe(50 * SEC)
  })
})

describe("the Lane's turn among queued Acquisitions", () => {
  /** Queues a turn that is sent as soon as it is granted, noting its name and time. */
  function queue(order: Array<[string, number]>, name: string, spacingMs: number, aheadAfterMs?: number): Promise<void> {
    return pacer.turn('a', spacingMs, undefined, aheadAfterMs).then((turn) => {
      order.push([name, clock.monotonic() - T])
      turn!.sent()
    })
  }
  let T = 0

  it('a few Acquisitions queued before the Lane go first, each at its own spacing', async () => {
    T = clock.monotonic()
    ;(await takeTurn('a', MIN)).turn.sent()
    const order: Array<[string, number]> = []
    const all = [1, 2, 3].map((i) => queue(order, `acq ${i}`, 5 * SEC))
    all.push(queue(order, 'lane', MIN, 5 * MIN))
    await clock.runUntil(() => order.length === 4)
    await Promise.all(all)
    expect(order).toEqual([
      ['acq 1', 5 * SEC],
      ['acq 2', 10 * SEC],
      ['acq 3', 15 * SEC],
      ['lane', 75 * SEC],
    ])
  })

  it('a Lane turn that waited its longest goes before the older Acquisitions still queued, which then go on', async () => {
    T = clock.monotonic()
    ;(await takeTurn('a', MIN)).turn.sent()
    const order: Array<[string, number]> = []
    // A flood a minute apart (a Site whose shortest gap is a minute); the Lane may wait 5 minutes in order.
    const all = Array.from({ length: 10 }, (_, i) => queue(order, `acq ${i + 1}`, MIN))
    all.push(queue(order, 'lane', MIN, 5 * MIN))
    await clock.runUntil(() => order.length === 11)
    await Promise.all(all)
    expect(order.map(([name]) => name)).toEqual([
      'acq 1',
      'acq 2',
      'acq 3',
      'acq 4',
      'acq 5',
      'lane',
      'acq 6',
      'acq 7',
      'acq 8',
      'acq 9',
      'acq 10',
    ])
    expect(order[5]).toEqual(['lane', 6 * MIN])
  })
})

describe('seeding from the newest check stamp, so a Lane started again never bursts', () => {
  it('a stamp 10 s ago leaves 50 s of a minute to wait', () => {
    pacer.seed('a', clock.now() - 10 * SEC)
    expect(pacer.waitFor('a', MIN)).toBe(50 * SEC)
  })

  it('a stamp older than the spacing asks no wait', () => {
    pacer.seed('a', clock.now() - 2 * MIN)
    expect(pacer.waitFor('a', MIN)).toBe(0)
  })

  it('a stamp in the future (the wall clock set back since) counts as just now, never longer', () => {
    pacer.seed('a', clock.now() + 3 * 3_600_000)
    expect(pacer.waitFor('a', MIN)).toBe(MIN)
  })

  it('a Series never checked (stamp 0) asks no wait', () => {
    pacer.seed('a', 0)
    expect(pacer.waitFor('a', MIN)).toBe(0)
  })

  it('an older stamp never moves the last request back', async () => {
    ;(await takeTurn('a', MIN)).turn.sent()
    pacer.seed('a', clock.now() - 5 * MIN)
    expect(pacer.waitFor('a', MIN)).toBe(MIN)
  })

  it('a newer stamp moves the last request forward', () => {
    pacer.seed('a', clock.now() - 50 * SEC)
    pacer.seed('a', clock.now() - 10 * SEC)
    expect(pacer.waitFor('a', MIN)).toBe(50 * SEC)
  })

  it('measured on the monotonic clock: a wall clock stepped after seeding changes no wait', () => {
    pacer.seed('a', clock.now() - 10 * SEC)
    clock.stepWall(-3 * 3_600_000)
    expect(pacer.waitFor('a', MIN)).toBe(50 * SEC)
    clock.stepWall(6 * 3_600_000)
    expect(pacer.waitFor('a', MIN)).toBe(50 * SEC)
  })
})

describe('a Series never checked', () => {
  it('asks no wait even on a wall clock seconds after the epoch (stamp 0 is no request, not one at the epoch)', () => {
    const young = new FakeClock(10 * SEC)
    const paced = new SitePacer(young)
    paced.seed('a', 0)
    expect(paced.waitFor('a', MIN)).toBe(0)
  })
})

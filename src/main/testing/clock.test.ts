import { describe, expect, it } from 'vitest'
import { FakeClock } from './clock'

describe('FakeClock wall-clock steps', () => {
  it('a step moves now() but a pending sleep still ends after its own duration', async () => {
    const clock = new FakeClock(1_000_000)
    let wokeAt: { wall: number; mono: number } | undefined
    void clock.sleep(60_000).then(() => (wokeAt = { wall: clock.now(), mono: clock.monotonic() }))
    await clock.advance(10_000)
    clock.stepWall(-3 * 3_600_000)
    expect(clock.now()).toBe(1_010_000 - 3 * 3_600_000)
    expect(clock.monotonic()).toBe(1_010_000)
    await clock.advance(49_999)
    expect(wokeAt).toBeUndefined()
    await clock.advance(1)
    expect(wokeAt).toEqual({ wall: 1_060_000 - 3 * 3_600_000, mono: 1_060_000 })
  })

  it('a forward step wakes nobody early', async () => {
    const clock = new FakeClock(0)
    let woke = false
    void clock.sleep(1_000).then(() => (woke = true))
    clock.stepWall(7_200_000)
    await clock.advance(999)
    expect(woke).toBe(false)
    expect(clock.now()).toBe(7_200_999)
    await clock.advance(1)
    expect(woke).toBe(true)
  })

  it('set() sets the wall time and moves monotonic time with it', () => {
    const clock = new FakeClock(0)
    clock.stepWall(500)
    clock.set(10_500)
    expect(clock.now()).toBe(10_500)
    expect(clock.monotonic()).toBe(10_000)
  })
})

describe('FakeClock.runQuiet', () => {
  it('fires timers in order (same time: first slept, first woken) and lets each woken chain finish', async () => {
    const clock = new FakeClock(0)
    const order: string[] = []
    const loop = async (name: string, every: number, times: number) => {
      for (let i = 0; i < times; i++) {
        await clock.sleep(every)
        // A chain of promises after each wake, as a database call through Kysely makes.
        await Promise.resolve()
        await Promise.resolve()
        order.push(`${name}@${clock.monotonic()}`)
      }
    }
    void loop('a', 10, 3)
    void loop('b', 15, 2)
    const fired = await clock.runQuiet(100)
    // At 30 both wake: b slept first (at 15, a at 20), so b runs first.
    expect(order).toEqual(['a@10', 'b@15', 'a@20', 'b@30', 'a@30'])
    expect(fired).toBe(5)
    expect(clock.monotonic()).toBe(100)
  })

  it('stops at the limit, leaving later timers pending', async () => {
    const clock = new FakeClock(0)
    void clock.sleep(50)
    void clock.sleep(150)
    expect(await clock.runQuiet(100)).toBe(1)
    expect(clock.pending).toBe(1)
    expect(clock.nextTimerAt).toBe(150)
  })
})

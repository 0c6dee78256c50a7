/** Each rule judged from the Readers' side fires on a log that breaks it, and not on one that keeps it. */
import { describe, expect, it } from 'vitest'
import { checkReaderRules, quietEnd } from './checker-readers'
import type { SimEvent } from './events'

const MIN = 60_000
// 2025-01-06 23:00 in London (UTC in winter): inside 22:00–07:00.
const NIGHT = Date.UTC(2025, 0, 6, 23)
let seq = 0
const ev = <E extends Record<string, unknown>>(mono: number, e: E) => ({ seq: seq++, mono, wall: mono, ...e }) as unknown as SimEvent
const reader = (quiet: boolean) =>
  ev(0, {
    type: 'reader',
    reader: 1,
    minUnread: 1,
    quiet: quiet ? { from: '22:00', to: '07:00', timeZone: 'Europe/London' } : null,
    muted: [],
    channels: [{ id: 7, kind: 'webhook' }],
  })
const outbox = (mono: number, rows: Array<{ id: number; deliveryId?: string; channel?: number; notBefore?: number }>) =>
  ev(mono, {
    type: 'outbox',
    site: 's',
    rows: rows.map((r) => ({
      id: r.id,
      deliveryId: r.deliveryId ?? `mb-${r.id}`,
      channel: r.channel ?? 7,
      createdAt: mono,
      notBefore: r.notBefore ?? mono,
      series: ['s/a'],
    })),
  })
const delivery = (mono: number, id: number | string, result: 'ok' | 'refused' | 'dropped' = 'ok') =>
  ev(mono, {
    type: 'delivery',
    channel: 7,
    reader: 1,
    kind: 'webhook',
    id: typeof id === 'number' ? `mb-${id}` : id,
    result,
    series: ['s/a'],
  })
const rules = (events: SimEvent[], end = NIGHT + 2 * 24 * 60 * MIN) => checkReaderRules(events, end).map((v) => v.rule)

describe('rules judged from the Readers side', () => {
  it('reads the end of a quiet spell', () => {
    expect(quietEnd({ from: '22:00', to: '07:00', timeZone: 'Europe/London' }, NIGHT)).toBe(Date.UTC(2025, 0, 7, 7))
    expect(quietEnd({ from: '22:00', to: '07:00', timeZone: 'Europe/London' }, NIGHT - 2 * 60 * MIN)).toBeNull()
  })

  it('quiet-hours-kept: a message made in quiet hours reaches its receiver only after them', () => {
    const held = Date.UTC(2025, 0, 7, 7)
    expect(rules([reader(true), outbox(NIGHT, [{ id: 1, notBefore: held }]), delivery(held, 1)])).toEqual([])
    expect(rules([reader(true), outbox(NIGHT, [{ id: 1 }]), delivery(NIGHT + MIN, 1)])).toEqual(['quiet-hours-kept'])
    expect(rules([reader(false), outbox(NIGHT, [{ id: 1 }]), delivery(NIGHT + MIN, 1)])).toEqual([])
  })

  it('delivered-at-least-once: a message lost after a failure fires, and so does a delivery id used again; one delivered on a retry does not', () => {
    const day = NIGHT - 12 * 60 * MIN
    expect(rules([reader(false), outbox(day, [{ id: 1 }]), delivery(day, 1, 'dropped'), delivery(day + MIN, 1)])).toEqual([])
    expect(rules([reader(false), outbox(day, [{ id: 1 }]), delivery(day, 1, 'refused')])).toEqual(['delivered-at-least-once'])
    // Row 1 delivered and gone; a new row 1 (a delivery id of its own) is never delivered.
    expect(rules([reader(false), outbox(day, [{ id: 1 }]), delivery(day, 1), outbox(day + MIN, [{ id: 1, deliveryId: 'mb-x' }])])).toEqual([
      'delivered-at-least-once',
    ])
    // A new message under the id an earlier one carried: delivered, but a receiver that drops duplicates drops it.
    const reused = [reader(false), outbox(day, [{ id: 1 }]), delivery(day, 1), outbox(day + MIN, [{ id: 1 }]), delivery(day + MIN, 1)]
    expect(rules(reused)).toEqual(['delivered-at-least-once'])
  })

  it('one-digest-per-reader-per-pass: two messages on one channel from one digest fire', () => {
    const day = NIGHT - 12 * 60 * MIN
    expect(rules([reader(false), outbox(day, [{ id: 1 }, { id: 2 }]), delivery(day, 1), delivery(day, 2)])).toEqual([
      'one-digest-per-reader-per-pass',
    ])
  })

  it('new-chapter-complete: a chapter served above all shown yields a New Chapter in its pass', () => {
    const seed = ev(0, { type: 'seed', site: 's', series: 's/a', held: true, readers: 1, finished: false, latest: 10, checkedAt: 0 })
    const check = (served: number) =>
      ev(1, { type: 'check', site: 's', series: 's/a', caller: 'lane', outcome: 'chapter', served, reported: served, faults: [] })
    const pass = (chapters: number[]) =>
      ev(2, { type: 'pass', site: 's', row: {}, newChapters: chapters.map((chapter) => ({ series: 's/a', chapter })) })
    expect(rules([seed, check(10.5), pass([10.5])])).toEqual([])
    expect(rules([seed, check(10.5), pass([])])).toEqual(['new-chapter-complete'])
    expect(rules([seed, check(10), pass([])])).toEqual([])
  })

  it('unread-as-served: the count and next chapter above the Progress are what the Site listed', () => {
    const check = ev(1, {
      type: 'check',
      site: 's',
      series: 's/a',
      caller: 'lane',
      outcome: 'chapter',
      served: 12,
      listed: [12, 11.5, 11, 10],
    })
    const view = (unread: number, next: number | null) =>
      ev(2, { type: 'unread', reader: 1, site: 's', series: 's/a', progress: 11, unread, next, latest: 12, source: 'check' })
    expect(rules([check, view(2, 11.5)])).toEqual([])
    expect(rules([check, view(3, 11.5)])).toEqual(['unread-as-served'])
    expect(rules([check, view(2, 12)])).toEqual(['unread-as-served'])
  })
})

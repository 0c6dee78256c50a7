/**
 * The rules judged from the Readers' side (docs/adr/0123-rules-judged-from-the-readers-ledgers.md): from the
 * receivers' ledger (every delivery that reached them), the outbox as each digest left it, the Readers' own
 * rules, and what the Sites served. Pure, as the other rules (checker.ts).
 */
import type { CheckEvent, DeliveryEvent, OutboxEvent, PassEvent, ReaderEvent, SimEvent, UnreadEvent } from './events'

export const READER_RULES = [
  'new-chapter-complete',
  'one-digest-per-reader-per-pass',
  'quiet-hours-kept',
  'delivered-at-least-once',
  'unread-as-served',
] as const
export type ReaderRuleName = (typeof READER_RULES)[number]

export interface ReaderViolation {
  rule: ReaderRuleName
  seq: number
  mono: number
  site?: string
  series?: string
  message: string
}

type Out = ReaderViolation[]
const at = (e: { seq: number; mono: number }) => ({ seq: e.seq, mono: e.mono })

/**
 * The completeness twin of `no-new-chapter-unchanged`: a Lane check the Site served a chapter above every chapter
 * it had shown before (and above the Latest Chapter at the start) yields that New Chapter in its pass. Excused: a
 * Sighting at or above it standing (the Latest Chapter was there already), a pass that wrote no row (stopped).
 */
function newChapterComplete(events: readonly SimEvent[], out: Out): void {
  const highest = new Map<string, number>()
  const sighted = new Map<string, number>()
  const expected = new Map<string, CheckEvent[]>()
  for (const e of events) {
    if (e.type === 'seed' && e.latest !== null) highest.set(e.series, e.latest)
    else if (e.type === 'action' && e.action === 'sighting' && e.result === 'ok' && e.series && e.chapter !== undefined)
      sighted.set(e.series, Math.max(sighted.get(e.series) ?? -Infinity, e.chapter))
    else if (e.type === 'check' && e.outcome === 'chapter' && e.served !== null) {
      const before = highest.get(e.series)
      highest.set(e.series, Math.max(before ?? -Infinity, e.served))
      if (e.caller !== 'lane' || before === undefined || e.served <= before || (sighted.get(e.series) ?? -Infinity) >= e.served) continue
      expected.set(e.site, [...(expected.get(e.site) ?? []), e])
    } else if (e.type === 'pass-failed') expected.delete(e.site)
    else if (e.type === 'pass') {
      if (e.row !== null) judgePass(e, expected.get(e.site) ?? [], out)
      expected.delete(e.site)
    }
  }
}

function judgePass(pass: PassEvent, checks: readonly CheckEvent[], out: Out): void {
  for (const c of checks)
    if (!pass.newChapters.some((n) => n.series === c.series && n.chapter === c.served))
      out.push({
        rule: 'new-chapter-complete',
        ...at(pass),
        site: pass.site,
        series: c.series,
        message: `the Site served chapter ${c.served}, above all it had shown, and the pass reported no New Chapter ${c.served}`,
      })
}

/** One digest per Reader per pass: a digest queues at most one message per channel (a held one is joined, not added to). */
function oneDigestPerReader(events: readonly SimEvent[], out: Out): void {
  const readerOf = channelReaders(events)
  for (const e of events) {
    if (e.type !== 'outbox') continue
    const seen = new Set<number>()
    for (const row of e.rows) {
      if (seen.has(row.channel))
        out.push({
          rule: 'one-digest-per-reader-per-pass',
          ...at(e),
          site: e.site,
          message: `one digest queued two messages on channel ${row.channel} of Reader ${readerOf.get(row.channel)?.reader}`,
        })
      seen.add(row.channel)
    }
  }
}

function channelReaders(events: readonly SimEvent[]): Map<number, ReaderEvent> {
  const byChannel = new Map<number, ReaderEvent>()
  for (const e of events) if (e.type === 'reader') for (const c of e.channels) byChannel.set(c.id, e)
  return byChannel
}

interface Queued {
  row: OutboxEvent['rows'][number]
  made: OutboxEvent
  deliveries: DeliveryEvent[]
  /** An earlier message carried the same delivery id. */
  reused: boolean
}

/** Each outbox message with the deliveries that carried its id (an id names the newest row that had it then). */
function queuedMessages(events: readonly SimEvent[]): Queued[] {
  const all: Queued[] = []
  const byId = new Map<string, Queued>()
  for (const e of events) {
    if (e.type === 'outbox')
      for (const row of e.rows) {
        const q = { row, made: e, deliveries: [], reused: byId.has(row.deliveryId) }
        all.push(q)
        byId.set(row.deliveryId, q)
      }
    else if (e.type === 'delivery') byId.get(e.id)?.deliveries.push(e)
  }
  return all
}

/** Minutes since midnight of `wall` in a time zone. */
function localMinutes(wall: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).formatToParts(
    new Date(wall),
  )
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return get('hour') * 60 + get('minute')
}

const hhmm = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5))

/** When the quiet spell holding `wall` ends (wall ms, to the minute), or null when `wall` is outside quiet hours. */
export function quietEnd(quiet: NonNullable<ReaderEvent['quiet']>, wall: number): number | null {
  const f = hhmm(quiet.from)
  const t = hhmm(quiet.to)
  const m = localMinutes(wall, quiet.timeZone)
  const inside = f < t ? m >= f && m < t : f > t ? m >= f || m < t : false
  return inside ? wall - (wall % 60_000) + ((t - m + 1440) % 1440) * 60_000 : null
}

/**
 * Nothing reaches a Reader inside their quiet hours: a message made inside them (on the app's wall clock, in the
 * Reader's time zone) reaches no receiver before that quiet spell ends. What was held is delivered after it
 * (`delivered-at-least-once`).
 */
function quietHoursKept(events: readonly SimEvent[], out: Out): void {
  const readerOf = channelReaders(events)
  for (const { row, deliveries } of queuedMessages(events)) {
    const quiet = readerOf.get(row.channel)?.quiet
    const end = quiet ? quietEnd(quiet, row.createdAt) : null
    if (!quiet || end === null) continue
    for (const e of deliveries.filter((d) => d.wall < end))
      out.push({
        rule: 'quiet-hours-kept',
        ...at(e),
        message: `message ${e.id} made at ${clock(row.createdAt, quiet.timeZone)} reached Reader ${e.reader}'s ${e.kind} at ${clock(e.wall, quiet.timeZone)}, inside their quiet hours ${quiet.from}–${quiet.to} (${quiet.timeZone})`,
      })
  }
}

const clock = (wall: number, timeZone: string) => {
  const m = localMinutes(wall, timeZone)
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
}

/**
 * Every outbox message is delivered — a receiver answers it 2xx — at least once, with its own id, across the
 * receivers' failures and hangs: judged for each message due (made, or held until) before the run's end.
 */
function deliveredAtLeastOnce(events: readonly SimEvent[], end: number, out: Out): void {
  const readerOf = channelReaders(events)
  for (const { row, made, deliveries, reused } of queuedMessages(events)) {
    if (reused)
      out.push({
        rule: 'delivered-at-least-once',
        ...at(made),
        site: made.site,
        message: `outbox message ${row.id} carries delivery id ${row.deliveryId}, which an earlier message carried: a receiver dropping duplicates drops it`,
      })
    const dueMono = made.mono + Math.max(0, row.notBefore - row.createdAt)
    if (dueMono > end || deliveries.some((d) => d.result === 'ok')) continue
    out.push({
      rule: 'delivered-at-least-once',
      ...at(made),
      site: made.site,
      message: `outbox message ${row.id} for Reader ${readerOf.get(row.channel)?.reader} (channel ${row.channel}) never delivered; its receiver saw it ${deliveries.length} time(s): ${deliveries.map((a) => a.result).join(', ') || 'never'}`,
    })
  }
}

/**
 * A Reader's unread count and next chapter, as the app shows them, equal what the Site served above their
 * Progress at the Series' last successful check: the chapters it listed above the Progress, and the lowest of them.
 * Not judged while a Sighting stands as the Latest Chapter (the count adds what a Reader saw, not what was served)
 * or before the Series' first check in the run.
 */
function unreadAsServed(events: readonly SimEvent[], out: Out): void {
  const listed = new Map<string, number[]>()
  for (const e of events) {
    if (e.type === 'check' && e.outcome === 'chapter' && e.listed?.length) listed.set(e.series, e.listed)
    if (e.type !== 'unread' || e.source !== 'check') continue
    const served = listed.get(e.series)
    if (!served || e.latest !== Math.max(...served)) continue
    judgeUnread(e, served, out)
  }
}

function judgeUnread(e: UnreadEvent, served: readonly number[], out: Out): void {
  const all = [...new Set(served)]
  const above = all.filter((n) => e.progress === null || n > e.progress)
  // Below what the Site listed the app counts by subtraction (docs/adr/0073): judged from the lowest listed up.
  if (e.progress === null || e.progress < Math.min(...all)) return
  const next = above.length ? Math.min(...above) : null
  if (above.length === e.unread && next === e.next) return
  out.push({
    rule: 'unread-as-served',
    ...at(e),
    site: e.site,
    series: e.series,
    message: `Reader ${e.reader} at Progress ${e.progress}: the app shows ${e.unread} unread, next ${e.next}; the Site served ${above.length} above it, next ${next}`,
  })
}

export function checkReaderRules(events: readonly SimEvent[], end: number): ReaderViolation[] {
  const out: Out = []
  newChapterComplete(events, out)
  oneDigestPerReader(events, out)
  quietHoursKept(events, out)
  deliveredAtLeastOnce(events, end, out)
  unreadAsServed(events, out)
  return out
}

/**
 * The simulation's event log: everything the checker and the report read. Each event carries a sequence
 * number (the order things happened in, including several at one instant), monotonic time (`mono`, what
 * pace is measured on) and the app's wall time (`wall`, what the store sees; they differ after a step).
 */
import type { CheckOutcome } from '../lanes/check'
import type { PassRow } from '../store/schema'

export type Caller = 'lane' | 'acquisition'

/** The faults the simulated Sites and browser inject, and the check outcome each one explains. */
export const FAULT_OUTCOME = {
  '5xx': 'error',
  timeout: 'error',
  challenge: 'refused',
  empty: 'no-chapter',
  'no-chapter': 'no-chapter',
  'browser-dies': 'unreachable',
  /** A query the store makes fails (the file locked by another process, a full disk). */
  database: 'error',
  /** The Series' page is gone (404/410): its Site moved it to a new slug (sim-moves.ts); the Site's doing, never drawn. */
  gone: 'error',
} as const satisfies Record<string, CheckOutcome>
export type FaultKind = keyof typeof FAULT_OUTCOME

/** How an injected database fault's error message begins (the check's reason and a failed pass carry it). */
export const DB_FAULT_MARK = 'simulated database fault'

interface At {
  seq: number
  mono: number
  wall: number
}

/**
 * The Sites' own ledger — what the simulated Sites saw, never what the app says it did: every request they
 * received (`request`, on the true clock `mono` and the app's `wall`), every refusal they answered (`refusal`,
 * with the `Retry-After` they sent) and every chapter they published (`release`). The rules that judge the
 * app's manners (refusal-respected, gap-kept, acquisition-paced, finished-not-polled) read only these and the
 * simulation's own actions.
 */

/** One request a simulated Site received. */
export interface RequestEvent extends At {
  type: 'request'
  site: string
  /** The Series' key (`site/seriesId`), or '' for a URL that names none. */
  series: string
  caller: Caller
  /** The first request of a check (the Series page or feed); follow-ups (an XHR list) are false. */
  first: boolean
  url: string
  fault: FaultKind | null
  /** The highest chapter the answer showed, or null when it showed none. */
  served: number | null
  /** Every chapter number the answer listed, newest first (absent or null: it listed none). */
  listed?: number[] | null
  /** A title search or a cover image (sim-search.ts): a Lane request outside any check; absent for a check's or a feed's. */
  kind?: 'search' | 'cover'
  /** A search a Reader made: who (absent: the owner, or the app finding a Series again). */
  reader?: number
  /** A cover request the Site answered with the image (set as the answer goes out). */
  image?: boolean
  /** The Site's edits among what it listed (a relabel, a corrected number, an extra chapter), with the label shown. */
  edited?: ServedEdit[]
}

/** One chapter a Site listed as its edit made it (catalogue.ts SiteEdit). */
export interface ServedEdit {
  kind: 'relabel' | 'renumber' | 'extra'
  number: number
  label: string
}

/** A refusal a simulated Site answered (logged when the answer went out, on the Site's true clock). */
export interface RefusalEvent extends At {
  type: 'refusal'
  site: string
  series: string
  caller: Caller
  /** How it refused: an anti-bot challenge, or "too many requests" / "come back later". */
  form: 'challenge' | '429' | '503'
  /** The `Retry-After` header it sent, as sent (delay-seconds or an HTTP-date), or null for none. */
  retryAfter: string | null
  /** How long the Site asked to be left alone, in ms (what the header means), or null for no header. */
  askedMs: number | null
}

/** One check's report, as the Lane or Acquisition logged it. */
export interface CheckEvent extends At {
  type: 'check'
  site: string
  series: string
  caller: Caller
  outcome: CheckOutcome
  reason: string
  /** When the check's first request went out (its own time when it made none). */
  startMono: number
  startWall: number
  requests: number
  /** The faults injected into this check's requests. */
  faults: FaultKind[]
  /** The highest chapter any of its requests was shown. */
  served: number | null
  /** The chapter the check reported finding ('chapter' outcome), read from its reason. */
  reported: number | null
  /** The chapter numbers its Site listed (the last answer that listed any), newest first. */
  listed?: number[] | null
  /** The Site's edits that answer listed, and the live chapters stored once the check was recorded (number → label). */
  edited?: ServedEdit[]
  storedLabels?: Record<string, string> | null
  /** A 'chapter' check: the stored chapters on the Site (not vanished) once it was recorded, newest first. */
  stored?: number[] | null
}

/** A pass's end: the row it wrote (null: abandoned by a stop) and its New Chapters. */
export interface PassEvent extends At {
  type: 'pass'
  site: string
  row: PassRow | null
  newChapters: Array<{ series: string; chapter: number }>
}

/** A pass that threw: it ended with no row. */
export interface PassFailedEvent extends At {
  type: 'pass-failed'
  site: string
  message: string
}

/** A store query was made to fail. */
export interface DbFaultEvent extends At {
  type: 'db-fault'
  /** What the query was, e.g. "insert into poll_passes". */
  what: string
}

/** A chapter came out on a simulated Site. */
export interface ReleaseEvent extends At {
  type: 'release'
  site: string
  series: string
  chapter: number
  /** A Reader held the Series and it was not Finished: the app is expected to find this chapter. */
  tracked: boolean
  readers: number
  /** The Site's eligible Series then (the pace divisor). */
  eligible: number
}

/** The Series row after a check or a Sighting touched it. */
export interface LatestEvent extends At {
  type: 'latest'
  site: string
  series: string
  chapter: number | null
  source: string
  /** What wrote it: a check or a Sighting. */
  after: 'check' | 'sighting'
}

/** The Lane row after something changed it (a pause, a resume, a refusal). */
export interface LaneEvent extends At {
  type: 'lane'
  site: string
  pausedUntil: number
  refuseUntil: number
}

/** A Series as the simulation found it at the start. */
export interface SeedEvent extends At {
  type: 'seed'
  site: string
  series: string
  held: boolean
  readers: number
  /** The Readers holding it (their ids). */
  holders?: number[]
  finished: boolean
  latest: number | null
  /** Its check stamp (wall), 0 for never. */
  checkedAt: number
}

export type ActionKind =
  | 'check-now'
  | 'pause'
  | 'resume'
  | 'finish'
  | 'unfinish'
  | 'bookmark'
  | 'sighting'
  | 'clock-step'
  | 'lanes-stop'
  | 'lanes-start'
  | 'progress'
  /** A Reader searched a Site by title (sim-search.ts); `declined` when the app said no in words. */
  | 'search'
  /** A Site moved a Series to a new slug (the world's doing). */
  | 'series-moved'
  /** The owner accepted the app's "found again" proposal for a moved Series. */
  | 'accept-move'

/** Something the owner, a Reader or the machine did. */
export interface ActionEvent extends At {
  type: 'action'
  action: ActionKind
  site?: string
  series?: string
  /** 'ok', or the error the action met. */
  result: string
  /** clock-step: by how much the wall clock moved (negative: back). */
  stepMs?: number
  /** sighting: the chapter reported. */
  chapter?: number
  /** check-now: whether the Series read as pending right after the press. */
  pending?: boolean
  /** bookmark: whether the Series was new to the app (an Acquisition). */
  acquired?: boolean
  /** bookmark: the Reader who made it. */
  reader?: number
  /** pause: the duration the simulation chose, in ms. */
  durationMs?: number
  /** search: why the app declined it in words ('rate-limited', 'conflict': a paused or refusing Lane). */
  declined?: string
  /** search: the results answered; accept-move: the URL moved to. */
  results?: number
  url?: string
}

/**
 * A digest of New Chapters the notifier made after a pass (docs/adr/0074-…): one message per Reader it tells,
 * with the Series it names, and which of them the Reader held when it was made (read from the bookmarks).
 */
export interface NotifyEvent extends At {
  type: 'notify'
  /** The Site whose pass it follows ('' for the digest after a start). */
  site: string
  messages: Array<{ reader: number; series: string[]; held: string[] }>
}

/**
 * A Reader as the simulation set them up: their notification rules and the channels they hold (each leading to a
 * simulated receiver, src/main/simulation/receivers.ts).
 */
export interface ReaderEvent extends At {
  type: 'reader'
  reader: number
  minUnread: number
  /** 'HH:MM' each, or null for no quiet hours. */
  quiet: { from: string; to: string; timeZone: string } | null
  /** `site/seriesId` of each Series muted. */
  muted: string[]
  channels: Array<{ id: number; kind: 'webhook' | 'ntfy' | 'webpush' }>
}

/** Outbox messages a digest made (read from the store as it was made): one row per channel it queued to. */
export interface OutboxEvent extends At {
  type: 'outbox'
  /** The Site whose pass the digest follows. */
  site: string
  /** `deliveryId`: the id every try of the message carries (random, never reused: docs/adr/0118). */
  rows: Array<{ id: number; deliveryId: string; channel: number; createdAt: number; notBefore: number; series: string[] }>
}

/** A message that reached a simulated receiver (its ledger): how the receiver answered, and what it named. */
export interface DeliveryEvent extends At {
  type: 'delivery'
  channel: number
  reader: number
  kind: 'webhook' | 'ntfy' | 'webpush'
  /** The delivery id the message carried (its header). */
  id: string
  /** ok: answered 2xx; refused: answered 503; dropped: taken, then the connection dropped unanswered. */
  result: 'ok' | 'refused' | 'dropped'
  /** The Series it named (a webhook's JSON), null when the receiver cannot read them. */
  series: string[] | null
}

/**
 * A Reader's view of a Series as the app shows it (the Readers' page's read), after a Progress or a check: the
 * unread count and the next chapter, with the Progress they are counted from.
 */
export interface UnreadEvent extends At {
  type: 'unread'
  reader: number
  site: string
  series: string
  progress: number | null
  /** Filled in once the read has run (queued behind the queries before it). */
  unread: number
  next: number | null
  /** The Latest Chapter stored and its source, when the read ran. */
  latest: number | null
  source: string
}

export type SimEvent =
  | RequestEvent
  | RefusalEvent
  | CheckEvent
  | PassEvent
  | PassFailedEvent
  | DbFaultEvent
  | ReleaseEvent
  | LatestEvent
  | LaneEvent
  | SeedEvent
  | ActionEvent
  | NotifyEvent
  | ReaderEvent
  | OutboxEvent
  | DeliveryEvent
  | UnreadEvent

type Without<E> = E extends SimEvent ? Omit<E, 'seq' | 'mono' | 'wall'> : never

/** The log: events in the order they happened. */
export class EventLog {
  readonly events: SimEvent[] = []

  constructor(private readonly time: { monotonic(): number; now(): number }) {}

  /** Appends an event stamped with the current times; returns it (fields may be filled in later). */
  add<E extends Without<SimEvent>>(event: E): E & At {
    const full = { seq: this.events.length, mono: this.time.monotonic(), wall: this.time.now(), ...event } as unknown as E & At
    this.events.push(full as unknown as SimEvent)
    return full
  }
}

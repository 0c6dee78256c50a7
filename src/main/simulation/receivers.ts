/**
 * The Readers' notification receivers (docs/adr/0122-the-simulation-delivers-to-loopback-receivers.md): one real
 * HTTP server on loopback standing in for every webhook, ntfy topic and push service the simulated Readers
 * subscribed, each channel its own path. They keep their own ledger — every delivery that reached them, with its
 * id, the app's and the true time, and what it named — and they fail (answer 503), hang (take the message and
 * drop the connection unanswered: the app cannot know it arrived) and recover, each in its own seeded episodes.
 *
 * Deliveries only ever happen while the fake clock stands still (the run calls the notifier's delivery round
 * between two stretches of timers), so the real I/O of a round takes no simulated time and a run stays
 * deterministic.
 */
import { createECDH } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DELIVERY_HEADER } from '../notify/channels'
import type { NotifyChannelKind } from '../store/schema'
import type { FakeClock } from '../testing/clock'
import { DAY, HOUR } from './catalogue'
import type { DeliveryEvent, EventLog } from './events'
import type { Random } from './random'

/** What a receiver does in an episode: answers 503, or takes the message and drops the connection. */
export type ReceiverFault = 'fail' | 'hang'

export interface ReceiverEpisode {
  from: number
  to: number
  fault: ReceiverFault
}

/** Per channel, per day: how often its receiver has a bad spell (10–60 min). */
const EPISODES_PER_DAY = 1.5
/** No episode ends later than this before the run's end: what was held up is delivered by the end. */
export const QUIET_TAIL_MS = 8 * HOUR

export interface SimChannel {
  id: number
  reader: number
  kind: NotifyChannelKind
  /** The path on the receivers' server. */
  path: string
  episodes: ReceiverEpisode[]
  /** The receiver's own stream: a single delivery fails or hangs now and then, outside any episode. */
  rng: Random
}

/** Outside an episode, the chance one delivery is answered 503, and that it is taken and dropped. */
const FAIL_ONCE = 0.1
const HANG_ONCE = 0.05

export class Receivers {
  readonly #server: Server
  readonly #channels = new Map<string, SimChannel>()
  #port = 0

  constructor(
    private readonly clock: FakeClock,
    private readonly log: EventLog,
    /** The run's end (monotonic). */
    private readonly end: number,
  ) {
    this.#server = createServer((req, res) => this.#receive(req, res))
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve))
    this.#port = (this.#server.address() as AddressInfo).port
  }

  /** The URL a channel of `kind` numbered `n` is sent to. */
  target(kind: NotifyChannelKind, n: number): string {
    return `http://127.0.0.1:${this.#port}/${kind}/${n}`
  }

  add(channel: SimChannel): void {
    this.#channels.set(channel.path, channel)
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }

  #receive(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const channel = this.#channels.get(req.url ?? '')
      if (!channel) {
        res.writeHead(404).end()
        return
      }
      const now = this.clock.monotonic()
      const fault = channel.episodes.find((e) => e.from <= now && now < e.to)?.fault ?? this.#once(channel, now)
      const id = String(req.headers[DELIVERY_HEADER] ?? '')
      const body = Buffer.concat(chunks)
      this.log.add({
        type: 'delivery',
        channel: channel.id,
        reader: channel.reader,
        kind: channel.kind,
        id,
        result: fault === 'fail' ? 'refused' : fault === 'hang' ? 'dropped' : 'ok',
        series: namedSeries(channel.kind, body),
      } satisfies Omit<DeliveryEvent, 'seq' | 'mono' | 'wall'>)
      if (fault === 'hang') req.socket.destroy()
      else res.writeHead(fault === 'fail' ? 503 : 200, { 'content-type': 'text/plain' }).end(fault === 'fail' ? 'busy' : 'ok')
    })
  }

  /** A fault of one delivery, by chance; none in the run's quiet tail. */
  #once(channel: SimChannel, now: number): ReceiverFault | null {
    const draw = channel.rng.next()
    if (now >= this.end - QUIET_TAIL_MS) return null
    return draw < FAIL_ONCE ? 'fail' : draw < FAIL_ONCE + HANG_ONCE ? 'hang' : null
  }
}

/** The Series a webhook message names (its JSON); null for the other kinds. */
function namedSeries(kind: NotifyChannelKind, body: Buffer): string[] | null {
  if (kind === 'webhook') {
    const parsed = JSON.parse(body.toString('utf8')) as { newChapters?: Array<{ site: string; seriesId: string }> }
    return (parsed.newChapters ?? []).map((c) => `${c.site}/${c.seriesId}`)
  }
  // An ntfy line names a Series by its title; a push payload is encrypted for the Reader's device.
  return null
}

/** A receiver's bad spells over the run, none in its last QUIET_TAIL_MS. */
export function receiverEpisodes(rng: Random, start: number, end: number): ReceiverEpisode[] {
  const out: ReceiverEpisode[] = []
  for (let t = start + rng.exponential(DAY / EPISODES_PER_DAY); t < end - QUIET_TAIL_MS; t += rng.exponential(DAY / EPISODES_PER_DAY)) {
    const from = Math.round(t)
    out.push({ from, to: from + Math.round(rng.between(10 * 60_000, HOUR)), fault: rng.chance(0.6) ? 'fail' : 'hang' })
  }
  return out
}

/** A push subscription's keys, made from the run's seed: a P-256 key pair's public half and an auth secret. */
export function pushKeys(rng: Random): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1')
  for (;;) {
    const secret = Buffer.from(Array.from({ length: 32 }, () => rng.int(0, 255)))
    try {
      ecdh.setPrivateKey(secret)
      break
    } catch {
      // Outside the curve's order: draw again.
    }
  }
  const auth = Buffer.from(Array.from({ length: 16 }, () => rng.int(0, 255)))
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') }
}

/**
 * Sends one message to a Reader's target, which is untrusted input (docs/adr/0075-notification-targets-are-untrusted.md):
 * the host is resolved first and every address it gives must be public unless the owner allowed local-network
 * targets; the connection goes to the address that was vetted (no second lookup to rebind); redirects are not
 * followed; the request body, the answer read and the time taken are capped.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

/** Settings → Notification targets: `public` (default) or `local-network` (loopback and private addresses too). */
export type TargetPolicy = 'public' | 'local-network'

export const SEND_TIMEOUT_MS = 10_000
export const MAX_BODY_BYTES = 64 * 1024
/** Of an answer, this much is read (for the error it may explain); the rest is dropped. */
const MAX_ANSWER_BYTES = 4 * 1024

export class TargetRefused extends Error {}

/** Where an address is: a public one is any unicast address outside the special ranges. */
export function addressRange(address: string): string {
  let parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  return parsed.range()
}

export function addressAllowed(address: string, policy: TargetPolicy): boolean {
  const range = addressRange(address)
  if (range === 'unicast' || range === 'global') return true
  if (policy === 'public') return false
  return !['unspecified', 'broadcast', 'multicast'].includes(range)
}

/** Why a URL cannot be a target before any lookup (its syntax), or null. */
export function targetProblem(raw: string, policy: TargetPolicy): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'that is not a web address (one starts with https://)'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only web addresses (http or https) can be notified'
  if (url.username || url.password) return 'a user or password cannot be part of the address (an ntfy token goes in its own field)'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (ipaddr.isValid(host) && !addressAllowed(host, policy)) return refusal(host, host)
  if (policy === 'public' && /(^|\.)localhost$/i.test(host)) return `${host} is this computer's own name, not a public address`
  return null
}

/** Where a non-public address is, in words: "this computer's own address", "an address on your local network". */
export function whereAddressIs(address: string): string {
  const range = addressRange(address)
  if (range === 'loopback') return "this computer's own address"
  if (range === 'private' || range === 'uniqueLocal' || range === 'linkLocal' || range === 'carrierGradeNat')
    return 'an address on your local network'
  return 'not a public address'
}

/** Why a target is refused, said once: "192.168.1.50 is an address on your local network, not a public one". */
function refusal(host: string, address: string): string {
  const where = whereAddressIs(address)
  const what = where === 'not a public address' ? where : `${where}, not a public one`
  return host === address ? `${host} is ${what}` : `${host} leads to ${address}, ${what}`
}

/** Resolves a target's host and vets every address it gives; the first is the one connected to. */
export async function vetHost(hostname: string, policy: TargetPolicy): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
    : await dnsLookup(host, { all: true, verbatim: true })
  const bad = addresses.find((a) => !addressAllowed(a.address, policy))
  if (bad) throw new TargetRefused(refusal(host, bad.address))
  if (!addresses[0]) throw new TargetRefused(`${host} has no address`)
  return addresses[0]
}

export interface Sent {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

export interface SendRequest {
  url: string
  method?: 'POST'
  headers: Record<string, string | number>
  body: Buffer | string
}

/**
 * Why a send failed, as a Reader is told it (a `/test` answer, a failing channel): a class, never an address
 * the target's name resolved to nor any of what it answered — a Reader's target must not be a way to scan the
 * owner's network (docs/adr/0120-one-queue-per-reader.md). The owner's log keeps the detail.
 */
export function plainReason(failure: { status: number } | Error): string {
  if (!(failure instanceof Error)) {
    const status = failure.status
    if (status >= 300 && status < 400) return 'the target answered with a redirect (3xx), not followed'
    return `the target answered with an error (${Math.floor(status / 100)}xx)`
  }
  if (failure instanceof TargetRefused)
    return 'the target is on this computer or your local network, not a public address; the owner can allow local-network targets in Settings'
  if (failure instanceof SendTimeout) return failure.message
  if (failure.message.startsWith('the message is larger')) return failure.message
  return 'could not connect to the target'
}

export class SendTimeout extends Error {}

/** POSTs to a vetted target. Resolves with any HTTP answer (a 3xx is not followed); rejects on a refusal or a transport error. */
export async function sendTo(req: SendRequest, policy: TargetPolicy, timeoutMs = SEND_TIMEOUT_MS, signal?: AbortSignal): Promise<Sent> {
  const problem = targetProblem(req.url, policy)
  if (problem) throw new TargetRefused(problem)
  const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body
  if (body.length > MAX_BODY_BYTES) throw new Error(`the message is larger than ${MAX_BODY_BYTES} bytes`)
  const url = new URL(req.url)
  const vetted = await vetHost(url.hostname, policy)
  // Every connection of this request goes to the vetted address (the certificate is still checked for the name).
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [vetted])
    else callback(null, vetted.address, vetted.family)
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<Sent>((resolve, reject) => {
    const r = request(
      url,
      { method: 'POST', headers: { ...req.headers, 'content-length': body.length }, lookup, agent: false, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - size))
          size += chunk.length
          if (size > MAX_ANSWER_BYTES) res.destroy()
        })
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') })
        res.on('end', done)
        res.on('close', done)
        res.on('error', done)
      },
    )
    const late = () => r.destroy(new SendTimeout(`no answer within ${timeoutMs / 1000} s`))
    const deadline = setTimeout(late, timeoutMs)
    const stop = () => r.destroy(new Error('stopped'))
    if (signal?.aborted) stop()
    signal?.addEventListener('abort', stop, { once: true })
    r.on('timeout', late)
    r.on('error', reject)
    r.on('close', () => {
      clearTimeout(deadline)
      signal?.removeEventListener('abort', stop)
    })
    r.end(body)
  })
}

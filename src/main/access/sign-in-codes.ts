/**
 * One-time sign-in codes (docs/adr/0087-sign-in-links-that-end.md): a random code that a link carries instead of
 * a long-lived credential, exchanged once, within minutes, for what it stands for — the admin's session, or a
 * Reader's token. Codes live in this process's memory only (a restart ends them all), and not in clear: an entry
 * is found by a SHA-256 of its code, and what it stands for is sealed (AES-256-GCM) under a key derived from the
 * code, so nothing held here signs anyone in without the link itself.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import type { Clock } from '../clock'

/** How long a code can be exchanged after it was made. */
export const SIGN_IN_CODE_TTL_MS = 10 * 60_000
/** At most this many codes wait at once; the oldest goes first. */
export const MAX_WAITING_CODES = 64
/** A code as links carry it: 32 random bytes in base64url (43 characters). */
export const SIGN_IN_CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/

interface Sealed {
  expiresAt: number
  iv: Buffer
  data: Buffer
  tag: Buffer
}

/** A code made elsewhere (`npm run admin-link`), known here only by its id; what it stands for is no secret. */
interface Admitted {
  expiresAt: number
  value: string
}

const digest = (purpose: string, code: string) => createHash('sha256').update(`sign-in-code-v1.${purpose}.${code}`).digest()

/** A code's id, as the set keeps it (a SHA-256, hex): what `admit` takes for a code made by another process. */
export const codeId = (code: string): string => digest('id', code).toString('hex')

export class SignInCodes {
  readonly #clock: Pick<Clock, 'now'>
  readonly #ttlMs: number
  readonly #waiting = new Map<string, Sealed | Admitted>()

  constructor(clock: Pick<Clock, 'now'>, ttlMs = SIGN_IN_CODE_TTL_MS) {
    this.#clock = clock
    this.#ttlMs = ttlMs
  }

  /** A new code standing for `value`, and when it stops working. */
  issue(value: string): { code: string; expiresAt: number } {
    this.#prune()
    const code = randomBytes(32).toString('base64url')
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', digest('key', code), iv)
    const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()])
    const expiresAt = this.#clock.now() + this.#ttlMs
    this.#keep(codeId(code), { expiresAt, iv, data, tag: cipher.getAuthTag() })
    return { code, expiresAt }
  }

  /**
   * Takes a code another process made (`npm run admin-link`, docs/adr/0127-a-sign-in-link-while-the-app-runs.md),
   * known by its id (`codeId`), standing for `value` — a value that is no secret (the admin session's name), so it is
   * kept as it is. It works until `expiresAt`, and never longer than a code made here.
   */
  admit(id: string, expiresAt: number, value: string): void {
    this.#prune()
    if (!/^[0-9a-f]{64}$/.test(id)) return
    this.#keep(id, { expiresAt: Math.min(expiresAt, this.#clock.now() + this.#ttlMs), value })
  }

  #keep(id: string, entry: Sealed | Admitted): void {
    this.#waiting.set(id, entry)
    while (this.#waiting.size > MAX_WAITING_CODES) this.#waiting.delete(this.#waiting.keys().next().value!)
  }

  /** What `code` stands for, once: the code is spent whatever the answer. Undefined for a used, expired or unknown code. */
  redeem(code: string): string | undefined {
    if (!SIGN_IN_CODE_PATTERN.test(code)) return undefined
    const id = codeId(code)
    const sealed = this.#waiting.get(id)
    if (!sealed) return undefined
    this.#waiting.delete(id)
    if (sealed.expiresAt <= this.#clock.now()) return undefined
    if ('value' in sealed) return sealed.value
    const decipher = createDecipheriv('aes-256-gcm', digest('key', code), sealed.iv)
    decipher.setAuthTag(sealed.tag)
    return Buffer.concat([decipher.update(sealed.data), decipher.final()]).toString('utf8')
  }

  /** How many codes wait (for tests and the ADR's bound). */
  get size(): number {
    return this.#waiting.size
  }

  #prune(): void {
    const now = this.#clock.now()
    for (const [id, sealed] of this.#waiting) if (sealed.expiresAt <= now) this.#waiting.delete(id)
  }
}

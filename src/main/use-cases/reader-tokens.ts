/**
 * Readers and their tokens: 32 random bytes, shown once, stored only as lowercase hex SHA-256
 * (docs/design.md#data). The window, the `reader` command and the demo all go through these.
 */
import { createHash, randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors'
import type { Db } from '../store/database'
import { addReader, getReader, readerByName, readerByTokenHash, removeReader, setReaderTokenHash } from '../store/readers'
import type { ReaderRow } from '../store/schema'

export interface IssuedToken {
  reader: ReaderRow
  /** The bearer token itself: shown once, never stored. */
  token: string
}

/** The token's SHA-256 (of its UTF-8 bytes, Node's reading of a string) in lowercase hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

export const READER_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,39}$/u

export async function createReader(db: Db, name: string, now: number): Promise<IssuedToken> {
  const trimmed = name.trim()
  if (!READER_NAME.test(trimmed)) throw new AppError('invalid', "a Reader name is 1–40 letters, digits, spaces or . _ ' -")
  const token = newToken()
  // A name taken is the store's conflict, which names it (`a Reader named "…" already exists`).
  return { reader: await addReader(db, { name: trimmed, tokenHash: hashToken(token), now }), token }
}

/** A new token for the Reader; the old one stops working at once. A Reader who is not there is the store's not-found. */
export async function rotateToken(db: Db, readerId: number): Promise<IssuedToken> {
  const token = newToken()
  return { reader: await setReaderTokenHash(db, readerId, hashToken(token)), token }
}

/** Removes the Reader (with their bookmarks and Sightings); one who is not there is the store's not-found. */
export async function deleteReader(db: Db, readerId: number): Promise<void> {
  await removeReader(db, readerId)
}

/** The Reader a bearer token belongs to, or undefined. */
export async function readerForToken(db: Db, token: string): Promise<ReaderRow | undefined> {
  if (!token || token.length > 200) return undefined
  return readerByTokenHash(db, hashToken(token))
}

export async function findReader(db: Db, nameOrId: string): Promise<ReaderRow | undefined> {
  if (/^\d+$/.test(nameOrId)) return (await getReader(db, Number(nameOrId))) ?? readerByName(db, nameOrId)
  return readerByName(db, nameOrId)
}

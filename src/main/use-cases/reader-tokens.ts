/**
 * Readers and their tokens: 32 random bytes, shown once, stored only as lowercase hex SHA-256
 * (docs/design.md#data). The window, the `reader` command and the demo all go through these. Each device a
 * Reader signs in on has a token of its own (docs/adr/0126-devices-not-tokens.md): adding a device ends no
 * other; rotating the Reader's token ends them all.
 */
import { createHash, randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors'
import type { Db } from '../store/database'
import { addReader, getReader, readerByName, removeReader, setReaderTokenHash } from '../store/readers'
import {
  addDevice,
  deviceByTokenHash,
  noteDeviceSeen,
  readerDevices,
  removeDevice,
  SEEN_EVERY_MS,
  setDeviceCreatedAt,
} from '../store/reader-devices'
import type { ReaderDeviceRow, ReaderRow } from '../store/schema'

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

/**
 * A new token for the Reader: every device of theirs is ended and the new token is their only one. A Reader who is
 * not there is the store's not-found.
 */
export async function rotateToken(db: Db, readerId: number, now = Date.now()): Promise<IssuedToken> {
  const token = newToken()
  const reader = await setReaderTokenHash(db, readerId, hashToken(token))
  const [device] = await readerDevices(db, readerId)
  if (device) await setDeviceCreatedAt(db, device.id, now)
  return { reader, token }
}

export const DEVICE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._'()-]{0,39}$/u

/** A token for one more device of the Reader, shown once; the Reader's other devices keep theirs. */
export async function addDeviceToken(
  db: Db,
  input: { readerId: number; name?: string | undefined; now: number },
): Promise<IssuedToken & { device: ReaderDeviceRow }> {
  const reader = await getReader(db, input.readerId)
  if (!reader) throw new AppError('not-found', `no Reader ${input.readerId}`)
  const given = input.name?.trim()
  if (given && !DEVICE_NAME.test(given)) throw new AppError('invalid', "a device name is 1–40 letters, digits, spaces or . _ ' ( ) -")
  const name = given || (await nextDeviceName(db, input.readerId))
  const token = newToken()
  const device = await addDevice(db, { readerId: input.readerId, name, tokenHash: hashToken(token), now: input.now })
  return { reader, device, token }
}

/** `Device N`, the first N no device of the Reader is named. */
async function nextDeviceName(db: Db, readerId: number): Promise<string> {
  const names = new Set((await readerDevices(db, readerId)).map((d) => d.name))
  let n = names.size + 1
  while (names.has(`Device ${n}`)) n++
  return `Device ${n}`
}

/** Ends one device of the Reader; the store's not-found when it is not theirs. */
export async function endDevice(db: Db, readerId: number, deviceId: number): Promise<void> {
  await removeDevice(db, readerId, deviceId)
}

/** Removes the Reader (with their bookmarks and Sightings); one who is not there is the store's not-found. */
export async function deleteReader(db: Db, readerId: number): Promise<void> {
  await removeReader(db, readerId)
}

/** The Reader a bearer token belongs to, or undefined. */
export async function readerForToken(db: Db, token: string): Promise<ReaderRow | undefined> {
  return (await deviceForToken(db, token))?.reader
}

/** The Reader and the device a bearer token belongs to, or undefined. */
export async function deviceForToken(db: Db, token: string): Promise<{ reader: ReaderRow; device: ReaderDeviceRow } | undefined> {
  if (!token || token.length > 200) return undefined
  return deviceByTokenHash(db, hashToken(token))
}

/**
 * Notes that the device was seen at `now`, when its last note is a minute old or more (or from the future): at most
 * one write a minute per device, whatever the pace of its requests. A store that cannot write now (read-only, a full
 * disk) is no reason to refuse the request: the note waits for the next one.
 */
export async function noteSeen(db: Db, device: ReaderDeviceRow, now: number): Promise<void> {
  if (now - device.last_seen_at < SEEN_EVERY_MS && device.last_seen_at <= now) return
  await noteDeviceSeen(db, device.id, now).catch(() => undefined)
}

export async function findReader(db: Db, nameOrId: string): Promise<ReaderRow | undefined> {
  if (/^\d+$/.test(nameOrId)) return (await getReader(db, Number(nameOrId))) ?? readerByName(db, nameOrId)
  return readerByName(db, nameOrId)
}

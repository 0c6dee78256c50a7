/**
 * A Reader's devices (docs/adr/0126-devices-not-tokens.md): each with a token of its own, stored only as its
 * lowercase hex SHA-256. The sync API knows a Reader by a device's token; ending a device ends that token alone.
 */
import type { Db } from './database'
import { AppError } from '../../shared/errors'
import type { ReaderDeviceRow, ReaderRow } from './schema'

/** `last_seen_at` moves at most once in this long per device: a sync every few seconds writes nothing more. */
export const SEEN_EVERY_MS = 60_000

/** The most devices a Reader may have at once. */
export const MAX_DEVICES = 20

/** A Reader's devices, the oldest first. */
export async function readerDevices(db: Db, readerId: number): Promise<ReaderDeviceRow[]> {
  return db.selectFrom('reader_devices').selectAll().where('reader_id', '=', readerId).orderBy('id').execute()
}

/** Every Reader's devices, by Reader id. */
export async function allDevices(db: Db): Promise<Map<number, ReaderDeviceRow[]>> {
  const rows = await db.selectFrom('reader_devices').selectAll().orderBy('id').execute()
  const byReader = new Map<number, ReaderDeviceRow[]>()
  for (const row of rows) byReader.set(row.reader_id, [...(byReader.get(row.reader_id) ?? []), row])
  return byReader
}

/** A new device for a Reader; a Reader who is not there is a not-found, one with MAX_DEVICES a conflict. */
export async function addDevice(
  db: Db,
  input: { readerId: number; name: string; tokenHash: string; now: number },
): Promise<ReaderDeviceRow> {
  return db.transaction().execute(async (tx) => {
    const reader = await tx.selectFrom('readers').select('id').where('id', '=', input.readerId).executeTakeFirst()
    if (!reader) throw new AppError('not-found', `no Reader ${input.readerId}`)
    const { count } = await tx
      .selectFrom('reader_devices')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('reader_id', '=', input.readerId)
      .executeTakeFirstOrThrow()
    if (Number(count) >= MAX_DEVICES)
      throw new AppError('conflict', `this Reader has ${MAX_DEVICES} devices, the most there can be: end one first`)
    return tx
      .insertInto('reader_devices')
      .values({ reader_id: input.readerId, name: input.name, token_hash: input.tokenHash, created_at: input.now })
      .returningAll()
      .executeTakeFirstOrThrow()
  })
}

/** Ends one device of a Reader: its token stops working at once. Another Reader's device, or none, is a not-found. */
export async function removeDevice(db: Db, readerId: number, deviceId: number): Promise<void> {
  const result = await db.deleteFrom('reader_devices').where('id', '=', deviceId).where('reader_id', '=', readerId).executeTakeFirst()
  if (result.numDeletedRows === 0n) throw new AppError('not-found', `no device ${deviceId} of this Reader`)
}

/**
 * The Reader and the device a token hash belongs to, or undefined. Two lookups by unique keys: cheaper to build
 * than one join with its columns renamed, and this runs for every request of the sync API.
 */
export async function deviceByTokenHash(db: Db, tokenHash: string): Promise<{ reader: ReaderRow; device: ReaderDeviceRow } | undefined> {
  const device = await db.selectFrom('reader_devices').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
  if (!device) return undefined
  const reader = await db.selectFrom('readers').selectAll().where('id', '=', device.reader_id).executeTakeFirst()
  return reader && { reader, device }
}

/** Notes that a device was seen now, when its last note is SEEN_EVERY_MS old or more (one write a minute at most). */
export async function noteDeviceSeen(db: Db, deviceId: number, now: number): Promise<void> {
  await db
    .updateTable('reader_devices')
    .set({ last_seen_at: now })
    .where('id', '=', deviceId)
    // A note from the future (the wall clock stepped back) is corrected at once.
    .where((eb) => eb.or([eb('last_seen_at', '<=', now - SEEN_EVERY_MS), eb('last_seen_at', '>', now)]))
    .execute()
}

/** Stamps a device made by a trigger (a rotated token) with the store's time. */
export async function setDeviceCreatedAt(db: Db, deviceId: number, now: number): Promise<void> {
  await db.updateTable('reader_devices').set({ created_at: now }).where('id', '=', deviceId).execute()
}

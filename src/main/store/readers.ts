/**
 * The `readers` aggregate. A Reader's bearer token is never stored: only its lowercase hex SHA-256.
 */
import type { Db } from './database'
import { AppError } from '../../shared/errors'
import type { ReaderRow } from './schema'

export async function addReader(db: Db, input: { name: string; tokenHash: string; now: number }): Promise<ReaderRow> {
  const existing = await db.selectFrom('readers').select('id').where('name', '=', input.name).executeTakeFirst()
  if (existing) throw new AppError('conflict', `a Reader named "${input.name}" already exists`)
  return db
    .insertInto('readers')
    .values({ name: input.name, token_hash: input.tokenHash, created_at: input.now })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function listReaders(db: Db): Promise<ReaderRow[]> {
  return db.selectFrom('readers').selectAll().orderBy('name').execute()
}

export async function getReader(db: Db, id: number): Promise<ReaderRow | undefined> {
  return db.selectFrom('readers').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function readerByName(db: Db, name: string): Promise<ReaderRow | undefined> {
  return db.selectFrom('readers').selectAll().where('name', '=', name).executeTakeFirst()
}

export async function readerByTokenHash(db: Db, tokenHash: string): Promise<ReaderRow | undefined> {
  return db.selectFrom('readers').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
}

/** Replaces a Reader's token hash; the old token stops working at once. */
export async function setReaderTokenHash(db: Db, id: number, tokenHash: string): Promise<ReaderRow> {
  const result = await db.updateTable('readers').set({ token_hash: tokenHash }).where('id', '=', id).executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw new AppError('not-found', `no Reader ${id}`)
  return (await getReader(db, id))!
}

/** Removes a Reader with their bookmarks and Sightings (cascade). */
export async function removeReader(db: Db, id: number): Promise<void> {
  const result = await db.deleteFrom('readers').where('id', '=', id).executeTakeFirst()
  if (result.numDeletedRows === 0n) throw new AppError('not-found', `no Reader ${id}`)
}

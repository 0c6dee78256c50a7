/**
 * Sign-in links asked of the running app (docs/adr/0127-a-sign-in-link-while-the-app-runs.md): `npm run admin-link`
 * writes the id (a SHA-256) of a one-time code it made; the app takes it into its sign-in codes and writes its
 * admin port beside it, which the command reads to print the link. The code itself is never written.
 */
import type { Db } from './database'

export interface AdminSignInRequest {
  id: number
  codeHash: string
  expiresAt: number
  takenAt: number
  adminPort: number
}

/** Requests older than this are dropped when the app looks (a command gave up long ago, or the link has ended). */
export const REQUEST_KEPT_MS = 60 * 60_000

export async function requestAdminSignIn(db: Db, input: { codeHash: string; now: number; expiresAt: number }): Promise<number> {
  const row = await db
    .insertInto('admin_sign_in_requests')
    .values({ code_hash: input.codeHash, requested_at: input.now, expires_at: input.expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function adminSignInRequest(db: Db, id: number): Promise<AdminSignInRequest | undefined> {
  const row = await db.selectFrom('admin_sign_in_requests').selectAll().where('id', '=', id).executeTakeFirst()
  return row && { id: row.id, codeHash: row.code_hash, expiresAt: row.expires_at, takenAt: row.taken_at, adminPort: row.admin_port }
}

export async function dropAdminSignInRequest(db: Db, id: number): Promise<void> {
  await db.deleteFrom('admin_sign_in_requests').where('id', '=', id).execute()
}

/**
 * Takes every request not taken yet: each is handed to `take` and marked taken with the admin port, in one
 * transaction; requests older than REQUEST_KEPT_MS go. Cheap when there are none: one read of an empty table.
 */
export async function takeAdminSignInRequests(
  db: Db,
  now: number,
  port: number,
  take: (request: { codeHash: string; expiresAt: number }) => void,
): Promise<number> {
  const waiting = await db
    .selectFrom('admin_sign_in_requests')
    .select(['id', 'code_hash', 'expires_at', 'requested_at'])
    .where('taken_at', '=', 0)
    .execute()
  if (waiting.length === 0) return 0
  await db.transaction().execute(async (tx) => {
    for (const row of waiting) {
      if (row.expires_at > now) take({ codeHash: row.code_hash, expiresAt: row.expires_at })
      await tx.updateTable('admin_sign_in_requests').set({ taken_at: now, admin_port: port }).where('id', '=', row.id).execute()
    }
    await tx
      .deleteFrom('admin_sign_in_requests')
      .where('requested_at', '<', now - REQUEST_KEPT_MS)
      .execute()
  })
  return waiting.length
}

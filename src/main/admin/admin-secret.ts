/**
 * The owner's admin secret, kept in the data directory (docs/adr/0076-an-owners-address-that-lasts.md): the admin
 * token the printed URL carries, and the key that signs session cookies. Both outlive a restart, so the same
 * admin URL and an open window keep working; deleting the file (while the app is stopped) ends every session
 * and makes a new token. The file is the owner's alone (0600), like the database beside it.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { tightenFile } from '../store/private-files'

export const ADMIN_SECRET_FILE = 'admin-secret.json'

const SecretSchema = z.strictObject({
  token: z.string().min(16).max(512),
  sessionKey: z.string().min(32).max(512),
})

export type AdminSecret = z.infer<typeof SecretSchema>

const fresh = (): AdminSecret => ({
  token: randomBytes(32).toString('base64url'),
  sessionKey: randomBytes(32).toString('base64url'),
})

/**
 * The data directory's admin secret: read, or made and written (0600) when there is none. A file that cannot be
 * read as one (hand-edited, cut short) is replaced, and `replaced` says so, so the shell can tell the owner their
 * old admin URL no longer works.
 */
export function loadAdminSecret(dataDir: string): AdminSecret & { replaced?: string } {
  const file = join(dataDir, ADMIN_SECRET_FILE)
  let text: string | undefined
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file}: cannot be read: ${(error as Error).message}`)
  }
  if (text !== undefined) {
    const parsed = safeParse(text)
    if (parsed) {
      tightenFile(file)
      return parsed
    }
  }
  const secret = fresh()
  // 'w' with 0600 for a new file; an existing one keeps its mode, so it is tightened after.
  writeFileSync(file, `${JSON.stringify(secret)}\n`, { mode: 0o600 })
  tightenFile(file)
  return text === undefined ? secret : { ...secret, replaced: `${file} was not a valid admin secret; a new one was made` }
}

function safeParse(text: string): AdminSecret | undefined {
  try {
    const result = SecretSchema.safeParse(JSON.parse(text))
    return result.success ? result.data : undefined
  } catch {
    return undefined
  }
}

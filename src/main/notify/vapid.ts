/**
 * The install's VAPID keys (RFC 8292): made once, on the first start that needs them, and kept in
 * `<data>/vapid.json`, private (0600) as the rest of the data. The public key is what a browser subscribes
 * with; the private one signs every push and never leaves the file.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { preparePrivateFile } from '../store/private-files'
import { webpush } from './web-push'

export const VAPID_FILE = 'vapid.json'

const VapidFile = z.object({ publicKey: z.string().min(40), privateKey: z.string().min(20) })
export type VapidKeys = z.infer<typeof VapidFile> & {
  /** The VAPID subject: the owner's contact (Settings), or the stand-in until they give one. */
  subject?: string
}

/** The subject sent until the owner gives a contact: valid in form, but Apple's push service refuses it. */
export const STAND_IN_SUBJECT = 'mailto:owner@manga-bookmark.invalid'

/** The keys in the data directory, made (0600) when there are none or the file is unreadable. */
export function vapidKeys(dataDir: string): VapidKeys {
  const file = join(dataDir, VAPID_FILE)
  try {
    const parsed = VapidFile.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    if (parsed.success) return parsed.data
  } catch {
    // None yet (or not JSON): made below.
  }
  const keys = webpush().generateVAPIDKeys()
  preparePrivateFile(file)
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 })
  return keys
}

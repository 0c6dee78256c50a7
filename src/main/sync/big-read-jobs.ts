/**
 * The reads too big for the main thread (docs/adr/0093-big-reads-off-the-event-loop.md): a Reader's full sync
 * and the whole library's export, each answered as its JSON text, read inside one transaction (a consistent
 * snapshot). Run in the big-read worker on a read-only connection; on the calling thread only where no worker
 * can start.
 */
import type { Db } from '../store/database'
import { exportLibrary } from '../use-cases/library-export'
import { presentAll } from './present'

export type BigReadJob =
  /** `full`: a sync with a `since` the app cannot answer with changes (too old, or ahead of now): say so. */
  | { kind: 'full-sync'; readerId: number; now: number; full: boolean }
  | { kind: 'export'; now: number; sites: Array<{ key: string; name: string; hosts: string[] }> }

export type BigReadMessage = { ready: true } | { id: number; ok: true; bytes: Uint8Array } | { id: number; ok: false; message: string }

export async function runBigRead(db: Db, job: BigReadJob): Promise<string> {
  if (job.kind === 'export') {
    const sites = new Map(job.sites.map((s) => [s.key, s]))
    return JSON.stringify(await exportLibrary({ db, registry: { get: (key) => sites.get(key) }, now: job.now }))
  }
  const bookmarks = await db.transaction().execute((trx) => presentAll(trx, job.readerId))
  return JSON.stringify({ bookmarks, now: job.now, ...(job.full ? { deleted: [], full: true } : {}) })
}

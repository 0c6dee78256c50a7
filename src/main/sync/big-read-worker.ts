/**
 * The big-read worker thread (big-reads.ts): opens the store's file read-only and answers each job with its
 * JSON text as bytes, handed over without a copy. Whatever a 50,000-bookmark read costs, it costs this thread.
 */
import { statSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import type { Db } from '../store/database'
import { openReadOnlyDb } from '../store/read-only'
import { runBigRead, type BigReadJob, type BigReadMessage } from './big-read-jobs'

/**
 * The connection to the file at the store's path: a restore renames another file over that path
 * (docs/adr/0089-restore-in-place.md), and a connection kept open would go on reading the file it replaced.
 */
function followingPath(file: string, nativeBinding: string | undefined): () => Promise<Db> {
  const open = () => ({ ...openReadOnlyDb(file, nativeBinding), ino: statSync(file).ino })
  let opened = open()
  return async () => {
    const ino = statSync(file, { throwIfNoEntry: false })?.ino
    if (ino !== undefined && ino !== opened.ino) {
      await opened.close()
      opened = open()
    }
    return opened.db
  }
}

const port = parentPort
if (port) {
  const { file, nativeBinding } = workerData as { file: string; nativeBinding?: string }
  const connection = followingPath(file, nativeBinding)
  // One job at a time, in the order asked: each read is one transaction on this thread's connection.
  let queue = Promise.resolve()
  port.on('message', (job: BigReadJob & { id: number }) => {
    queue = queue.then(async () => {
      try {
        const bytes = new TextEncoder().encode(await runBigRead(await connection(), job))
        port.postMessage({ id: job.id, ok: true, bytes } satisfies BigReadMessage, [bytes.buffer])
      } catch (error) {
        port.postMessage({
          id: job.id,
          ok: false,
          message: String((error as Error)?.message ?? error).slice(0, 2_000),
        } satisfies BigReadMessage)
      }
    })
  })
  port.postMessage({ ready: true } satisfies BigReadMessage)
}

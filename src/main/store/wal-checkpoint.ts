/**
 * A checkpoint of the store's WAL in a worker thread, on a connection of its own (docs/adr/0140-…): after an
 * import's large commit, SQLite's own checkpoint would copy every page the import wrote into the database on the
 * app's one connection, holding the event loop for that time. A PASSIVE checkpoint from another connection copies
 * them while the app runs on (writers append to the WAL meanwhile; readers are never blocked).
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

// CommonJS run by the worker, better-sqlite3 required by the path the main thread resolved (as integrity.ts does).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.module)
let db
try {
  db = new Database(workerData.file, { fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) })
  const [row] = db.pragma('wal_checkpoint(PASSIVE)')
  parentPort.postMessage({ row })
} catch (error) {
  parentPort.postMessage({ error: String(error && error.message) })
} finally {
  if (db) db.close()
}
`

export interface CheckpointOutcome {
  /** Frames in the WAL and frames now in the database (equal: the whole WAL was copied); absent when it failed. */
  log?: number
  checkpointed?: number
  /** Why it could not run (no worker, no binding): the next commit's own checkpoint does it then. */
  error?: string
}

/** Checkpoints `file`'s WAL from a worker thread; never rejects. */
export function checkpointInWorker(file: string, options: { nativeBinding?: string } = {}): Promise<CheckpointOutcome> {
  return new Promise((resolve) => {
    let worker: Worker
    try {
      const module = createRequire(import.meta.url).resolve('better-sqlite3')
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, module, nativeBinding: options.nativeBinding } })
    } catch (error) {
      resolve({ error: (error as Error).message })
      return
    }
    worker.once('message', (message: { row?: { log: number; checkpointed: number }; error?: string }) =>
      resolve(message.row ? { log: message.row.log, checkpointed: message.row.checkpointed } : { error: message.error ?? 'failed' }),
    )
    worker.once('error', (error) => resolve({ error: error.message }))
    worker.once('exit', () => resolve({ error: 'the worker stopped' }))
  })
}

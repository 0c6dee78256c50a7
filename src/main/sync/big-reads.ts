/**
 * A Reader's full sync and the library's export, read off the main thread (docs/adr/0093-big-reads-off-the-event-loop.md):
 * 50,000 bookmarks took ~5 s of the thread that answers Readers and runs the Lanes. One worker thread, started
 * at the first big read and kept, reads them on a read-only connection of its own (to the file at the store's
 * path, reopened after a restore) and answers with JSON text, which goes out as it is. Where no worker can start
 * (a build without its file), the reads run here, said once in the log.
 */
import type { Worker } from 'node:worker_threads'
import type { Log } from '../log'
import type { SiteRegistry } from '../sites/registry'
import type { Db } from '../store/database'
import { spawnWorkerThread } from '../worker-thread'
import { runBigRead, type BigReadJob, type BigReadMessage } from './big-read-jobs'

export interface BigReads {
  /** Every bookmark of the Reader, as `GET /api/v1/bookmarks` answers: JSON text. */
  fullSync(readerId: number, now: number, full?: boolean): Promise<Buffer>
  /** The whole library's export document: JSON text. */
  exportLibrary(now: number): Promise<Buffer>
  close(): Promise<void>
}

export interface BigReadOptions {
  /** The store's file, opened read-only by the worker. */
  file: string
  /** The main thread's connection: used only where no worker can start. */
  db: Db
  registry: SiteRegistry
  log: Log
  nativeBinding?: string
  /** The worker's heap: a 50,000-bookmark answer needs ~400 MB at its peak. */
  heapMb?: number
}

export function startBigReads(options: BigReadOptions): BigReads {
  let worker: Promise<Worker | null> | undefined
  let nextId = 1
  const pending = new Map<number, { resolve(bytes: Buffer): void; reject(error: Error): void }>()
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }
  const start = () =>
    new Promise<Worker | null>((resolve) => {
      let w: Worker
      try {
        w = spawnBigReadWorker(options)
      } catch (error) {
        options.log.error({ err: error }, 'sync: no big-read worker could start; full syncs and exports read on the main thread')
        return resolve(null)
      }
      w.unref()
      let ready = false
      w.on('message', (m: BigReadMessage) => {
        if ('ready' in m) return void ((ready = true), resolve(w))
        const p = pending.get(m.id)
        pending.delete(m.id)
        if (m.ok) p?.resolve(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength))
        else p?.reject(new Error(`big read: ${m.message}`))
      })
      w.on('error', (error) => {
        options.log.error({ err: error }, 'sync: the big-read worker failed')
        if (!ready) resolve(null)
        failAll(error)
      })
      w.on('exit', () => {
        failAll(new Error('big read: the worker stopped before it answered'))
        // One that never got ready stays given up (its reads run here); one that stopped later starts again.
        if (!ready) return resolve(null)
        worker = undefined
      })
    })
  const run = async (job: BigReadJob): Promise<Buffer> => {
    const w = await (worker ??= start())
    if (!w) return Buffer.from(await runBigRead(options.db, job))
    const id = nextId++
    return new Promise<Buffer>((resolve, reject) => {
      pending.set(id, { resolve, reject })
      w.postMessage({ ...job, id })
    })
  }
  return {
    fullSync: (readerId, now, full = false) => run({ kind: 'full-sync', readerId, now, full }),
    exportLibrary: (now) =>
      run({ kind: 'export', now, sites: options.registry.sites.map((s) => ({ key: s.key, name: s.name, hosts: [...s.hosts] })) }),
    async close() {
      const w = await worker
      worker = undefined
      await w?.terminate()
    },
  }
}

/** The worker thread: the built app's `big-read-worker.js`, or the TypeScript file from the sources. */
function spawnBigReadWorker(options: BigReadOptions): Worker {
  const built = [new URL('./big-read-worker.js', import.meta.url), new URL('../big-read-worker.js', import.meta.url)]
  return spawnWorkerThread(
    built,
    new URL('./big-read-worker.ts', import.meta.url),
    { maxOldGenerationSizeMb: options.heapMb ?? 1_024 },
    { file: options.file, nativeBinding: options.nativeBinding },
  )
}

/**
 * A Reader's full sync and export and the library's export, read off the main thread and streamed
 * (docs/adr/0093-big-reads-off-the-event-loop.md, docs/adr/0176-big-reads-streamed.md): 50,000 bookmarks took
 * ~5 s of the thread that answers Readers and runs the Lanes, and a whole 300,000-bookmark answer held 1.8 GB.
 * One worker thread, started at the first big read and kept, reads them on a read-only connection of its own (to
 * the file at the store's path, reopened after a restore) and sends the answer's text as chunks, each only when
 * the socket has taken the ones before: the answer is a stream that goes out as it comes. Where no worker can
 * start (a build without its file), the reads run here whole, said once in the log.
 */
import { Readable } from 'node:stream'
import type { Worker } from 'node:worker_threads'
import type { Log } from '../log'
import type { SiteRegistry } from '../sites/registry'
import type { Db } from '../store/database'
import { spawnWorkerThread } from '../worker-thread'
import { bigReadBytes, CHUNK_CHARS, type BigReadCommand, type BigReadJob, type BigReadMessage } from './big-read-jobs'

export interface BigReads {
  /** Every bookmark of the Reader, as `GET /api/v1/bookmarks` answers: JSON text. */
  fullSync(readerId: number, now: number, full?: boolean): Promise<Readable>
  /** The whole library's export document: JSON text. */
  exportLibrary(now: number): Promise<Readable>
  /** A Reader's own export (`GET /api/v1/export`): the document as JSON text, or the CSV. */
  exportReader(readerId: number, now: number, format: 'json' | 'csv'): Promise<Readable>
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
  /** The worker's heap: a streamed answer holds a few chunks, whatever its size. */
  heapMb?: number
  /** Chunks (of ~CHUNK_CHARS) the worker sends ahead of the socket: enough to keep it busy, few enough to hold. */
  chunksAhead?: number
  /** A job whose reader takes nothing for this long is given up (its read transaction held the worker). */
  stallMs?: number
}

/** One answer under way: its stream (once its first chunk came), and the pulls owed to the worker. */
interface Flow {
  stream?: Readable
  owed: number
  first: { resolve(stream: Readable): void; reject(error: Error): void }
}

export function startBigReads(options: BigReadOptions): BigReads {
  let worker: Promise<Worker | null> | undefined
  let nextId = 1
  const flows = new Map<number, Flow>()
  const failAll = (error: Error) => {
    for (const flow of flows.values()) failFlow(flow, error)
    flows.clear()
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
        onMessage(w, flows, m, chunksAhead(options))
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
  const run = async (job: BigReadJob): Promise<Readable> => {
    const w = await (worker ??= start())
    if (!w) return Readable.from([await bigReadBytes(options.db, job)], { objectMode: false })
    const id = nextId++
    return new Promise<Readable>((resolve, reject) => {
      flows.set(id, { owed: 0, first: { resolve, reject } })
      post(w, { type: 'job', id, job })
    })
  }
  const sites = () => options.registry.sites.map((s) => ({ key: s.key, name: s.name, hosts: [...s.hosts] }))
  return {
    fullSync: (readerId, now, full = false) => run({ kind: 'full-sync', readerId, now, full }),
    exportLibrary: (now) => run({ kind: 'export', now, sites: sites() }),
    exportReader: (readerId, now, format) => run({ kind: 'reader-export', readerId, now, format, sites: sites() }),
    async close() {
      const w = await worker
      worker = undefined
      await w?.terminate()
    },
  }
}

const post = (w: Worker, command: BigReadCommand) => w.postMessage(command)

/** A chunk, the end or a failure of an answer: into its stream, made at its first chunk. */
function onMessage(w: Worker, flows: Map<number, Flow>, m: Exclude<BigReadMessage, { ready: true }>, ahead: number): void {
  const flow = flows.get(m.id)
  if (!flow) return
  if ('ok' in m) {
    flows.delete(m.id)
    const error = new Error(`big read: ${m.message}`)
    return failFlow(flow, error)
  }
  const stream = (flow.stream ??= answerStream(w, flows, m.id, flow, ahead))
  if ('done' in m) {
    flows.delete(m.id)
    stream.push(null)
  } else {
    flow.owed++
    // Room for more at once while the stream's buffer is short; else when it is read (`read` below).
    if (stream.push(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength))) pullOwed(w, m.id, flow)
  }
  flow.first.resolve(stream)
}

/** Before its first chunk the answer's promise fails (an error reply); after, its stream does (the socket closes). */
function failFlow(flow: Flow, error: Error): void {
  if (flow.stream) flow.stream.destroy(error)
  else flow.first.reject(error)
}

function pullOwed(w: Worker, id: number, flow: Flow): void {
  if (flow.owed === 0) return
  post(w, { type: 'pull', id, n: flow.owed })
  flow.owed = 0
}

function answerStream(w: Worker, flows: Map<number, Flow>, id: number, flow: Flow, ahead: number): Readable {
  return new Readable({
    // Room for the chunks the worker sends ahead (big-read-worker.ts), so it never waits on a socket that keeps up.
    highWaterMark: ahead * CHUNK_CHARS,
    read: () => pullOwed(w, id, flow),
    destroy(error, callback) {
      // Closed before its end (the socket went): the worker stops reading it.
      if (flows.delete(id)) post(w, { type: 'cancel', id })
      callback(error)
    },
  })
}

const chunksAhead = (options: BigReadOptions) => options.chunksAhead ?? 8

/** The worker thread: the built app's `big-read-worker.js`, or the TypeScript file from the sources. */
function spawnBigReadWorker(options: BigReadOptions): Worker {
  const built = [new URL('./big-read-worker.js', import.meta.url), new URL('../big-read-worker.js', import.meta.url)]
  return spawnWorkerThread(
    built,
    new URL('./big-read-worker.ts', import.meta.url),
    { maxOldGenerationSizeMb: options.heapMb ?? 256 },
    { file: options.file, nativeBinding: options.nativeBinding, stallMs: options.stallMs ?? 60_000, ahead: chunksAhead(options) },
  )
}

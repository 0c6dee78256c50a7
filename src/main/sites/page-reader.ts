/**
 * Reading a fetched page with its Site's adapter, off the main thread and under a deadline
 * (docs/adr/0040-reading-pages-in-a-worker-with-a-deadline.md). Parsing is linear in the page for the
 * built-in families, but not for every page and selector: rows nested in each other make a descendant
 * selector cost the square of the depth (a 1 MB page of nested rows took 12 s on the main thread). So each
 * `read` runs in one worker thread; the event loop that serves Readers and the owner never waits for it, and
 * a read that passes its deadline ends the worker and fails as an adapter error with the reason.
 */
import type { Worker } from 'node:worker_threads'
import type { Log } from '../log'
import { spawnWorkerThread } from '../worker-thread'
import { nestingDepth } from './page-shape'
import type { ReadAnswer, ReadJob } from './read-protocol'
import type { Recognition, RecogniseOptions } from './recognition'
import { AdapterError, type AdapterStep, type Page, type Site } from './site'

/** The longest one page may take to read: far above any real page (a 5 MB list reads in about 0.3 s). */
export const READ_DEADLINE_MS = 10_000
/** The worker's own heap limit: a page that needs more fails, and the app's heap is untouched. */
export const READ_HEAP_MB = 512
/**
 * The worker's young generation: each page's DOM is garbage as soon as it is read, so a small nursery is
 * collected often and cheaply; V8's default let it grow to ~40 MB of the app's resident memory
 * (docs/adr/0032-the-headless-shell-runs-its-build.md).
 */
export const READ_YOUNG_MB = 8
/**
 * A page this small and this shallow, for a built-in family, is read on the calling thread: the worker's round trip
 * (the page copied over, the step copied back, a second heap to collect) costs more than such a read holds the loop
 * (docs/adr/0206-small-pages-read-inline.md: the worst page within both bounds reads in about 10 ms).
 */
export const INLINE_MAX_CHARS = 64 * 1024
export const INLINE_MAX_DEPTH = 32

export interface PageReader {
  /**
   * What the Site's adapter makes of a page. Rejects with an `AdapterError` when the adapter refuses the
   * content, when reading passes the deadline, when `signal` aborts (a stop), or when the reader is closed.
   */
  read(site: Pick<Site, 'adapter'>, page: Page, seriesUrl: URL, signal?: AbortSignal): Promise<AdapterStep>
  /**
   * The page of an unknown Site recognised ("Add a Site", recognise-site.ts `recogniseSite`) in the worker, under the
   * same deadline; `inline` recognises it on the calling thread where no worker can start. Rejects as `read`.
   */
  recognise(page: Page, url: URL, options: RecogniseOptions, inline: () => Recognition): Promise<Recognition>
  /**
   * Starts the worker ahead of the first page and resolves once it can read (or once it is known that none
   * can start), so the app's first check does not wait for it.
   */
  warm(): Promise<void>
  /** Ends the worker; reads in flight or queued fail at once. */
  close(): Promise<void>
}

/** Reads on the calling thread: for tests and tools, and for adapters without a recipe. */
export const inlineReader: PageReader = {
  read: async (site, page, seriesUrl) => site.adapter.read(page, seriesUrl),
  recognise: async (_page, _url, _options, inline) => inline(),
  warm: async () => undefined,
  close: async () => undefined,
}

export interface PageReaderOptions {
  log: Log
  deadlineMs?: number
  heapMb?: number
  /** Pages up to this many characters (and INLINE_MAX_DEPTH deep) are read on the calling thread; 0: none. */
  inlineMaxChars?: number
}

/** Whether a page is small and shallow enough to read on the calling thread (page-shape.ts). */
export function readsInline(body: string, maxChars = INLINE_MAX_CHARS): boolean {
  return body.length <= maxChars && nestingDepth(body, INLINE_MAX_DEPTH) <= INLINE_MAX_DEPTH
}

interface Pending {
  job: ReadJob
  /** A step for a read, a Recognition for a recognise. */
  resolve(value: unknown): void
  reject(error: Error): void
}

/**
 * A page reader with one worker thread, started by `warm()` or the first page, and again after a read that
 * had to end it. Pages are read one at a time in the order asked; each read's deadline runs from when the
 * worker is given it. An adapter without a recipe, and a small shallow page (`readsInline`), are read on the
 * calling thread. Where no worker can start
 * at all (a build without its worker file), pages are read on the calling thread, logged once as an error.
 */
export function createPageReader(options: PageReaderOptions): PageReader {
  const reads = new ReadWorker(options)
  const inlineMaxChars = options.inlineMaxChars ?? INLINE_MAX_CHARS
  let seq = 0
  return {
    read(site, page, seriesUrl, signal) {
      const recipe = site.adapter.recipe
      if (!recipe || reads.unavailable) return inlineReader.read(site, page, seriesUrl)
      if (reads.closed) return Promise.reject(new AdapterError('the page reader is closed'))
      if (signal?.aborted) return Promise.reject(new AdapterError('stopped'))
      // A built-in family's own selectors only: an owner's selectors have no bound (docs/adr/0040-…).
      if ('family' in recipe && readsInline(page.body, inlineMaxChars)) return inlineReader.read(site, page, seriesUrl)
      return reads.submit({ id: ++seq, recipe, page, seriesUrl: seriesUrl.href }, () => site.adapter.read(page, seriesUrl), signal)
    },
    recognise(page, url, options, inline) {
      if (reads.unavailable) return inlineReader.recognise(page, url, options, inline)
      if (reads.closed) return Promise.reject(new AdapterError('the page reader is closed'))
      return reads.submit({ id: ++seq, recognise: options, page, url: url.href }, inline)
    },
    warm: () => reads.warm(),
    close: () => reads.close(),
  }
}

/** The one worker thread and the jobs waiting for it: one job at a time, in the order asked, under a deadline. */
class ReadWorker {
  /** No worker can start here: jobs are done on the calling thread. */
  unavailable = false
  closed = false
  private readonly log: Log
  private readonly deadlineMs: number
  private readonly heapMb: number
  private readonly queue: Pending[] = []
  private current: (Pending & { timer: NodeJS.Timeout }) | null = null
  private worker: Worker | null = null
  private ready = false
  /** Resolved when the worker being started is ready, or failed to start. */
  private started: { promise: Promise<void>; resolve(): void } | null = null
  /** How each queued job is done on the main thread, for the fallback when no worker can start. */
  private readonly inlineByJob = new WeakMap<ReadJob, () => unknown>()

  constructor(options: PageReaderOptions) {
    this.log = options.log
    this.deadlineMs = options.deadlineMs ?? READ_DEADLINE_MS
    this.heapMb = options.heapMb ?? READ_HEAP_MB
  }

  /** Queues a job for the worker; a stop (`signal`) takes it back. */
  submit<T>(job: ReadJob, inline: () => T, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.inlineByJob.set(job, inline)
      const onAbort = () => this.abort(job)
      signal?.addEventListener('abort', onAbort, { once: true })
      const done = () => signal?.removeEventListener('abort', onAbort)
      this.queue.push({
        job,
        resolve: (value) => (done(), resolve(value as T)),
        reject: (error) => (done(), reject(error)),
      })
      this.pump()
    })
  }

  async warm(): Promise<void> {
    if (this.closed || this.unavailable) return
    this.worker ??= this.start()
    await this.started?.promise
  }

  async close(): Promise<void> {
    this.closed = true
    const stopped = new AdapterError('the page reader is closed')
    if (this.current) {
      clearTimeout(this.current.timer)
      this.current.reject(stopped)
      this.current = null
    }
    for (const pending of this.queue.splice(0)) pending.reject(stopped)
    this.stopWorker()
  }

  /** A read the app stopped: a queued one leaves the queue; the one being read ends the worker with it. */
  private abort(job: ReadJob): void {
    const stopped = new AdapterError('stopped')
    if (this.current?.job === job) {
      this.stopWorker()
      this.settle({ error: stopped })
      return
    }
    const at = this.queue.findIndex((pending) => pending.job === job)
    if (at !== -1) this.queue.splice(at, 1)[0]!.reject(stopped)
  }

  /** Gives the worker the next job, under its deadline, when it is free. */
  private pump(): void {
    if (this.current || this.closed) return
    const next = this.queue.shift()
    if (!next) return
    this.worker ??= this.start()
    const timer = setTimeout(() => {
      this.log.warn({ deadlineMs: this.deadlineMs }, 'page reader: a page passed its deadline; the worker was ended')
      this.stopWorker()
      this.settle({ error: new AdapterError(`reading the page took longer than ${this.deadlineMs} ms and was stopped`) })
    }, this.deadlineMs)
    this.current = { ...next, timer }
    this.worker.postMessage(next.job)
  }

  private settle(outcome: { value: unknown } | { error: Error }): void {
    const done = this.current
    if (!done) return
    this.current = null
    clearTimeout(done.timer)
    if ('value' in outcome) done.resolve(outcome.value)
    else done.reject(outcome.error)
    this.pump()
  }

  private start(): Worker {
    let resolveStarted!: () => void
    this.started = { promise: new Promise<void>((resolve) => (resolveStarted = resolve)), resolve: () => resolveStarted() }
    const spawned = spawnReadWorker(this.heapMb)
    // The app's timers and sockets keep the process alive, never this thread.
    spawned.unref()
    spawned.on('message', (message: ReadAnswer | { ready: true }) => this.answered(message))
    spawned.on('error', (error: Error & { code?: string }) => this.failed(error))
    spawned.on('exit', () => this.exited(spawned))
    return spawned
  }

  private answered(message: ReadAnswer | { ready: true }): void {
    if ('ready' in message) {
      this.ready = true
      this.started?.resolve()
      return
    }
    if (!this.current || message.id !== this.current.job.id) return
    if (message.ok) this.settle({ value: 'step' in message ? message.step : message.recognition })
    else
      this.settle({
        error: message.kind === 'adapter' ? new AdapterError(message.message) : new Error(`the page could not be read: ${message.message}`),
      })
  }

  private failed(error: Error & { code?: string }): void {
    const wasReady = this.ready
    this.stopWorker()
    if (!wasReady && error.code !== 'ERR_WORKER_OUT_OF_MEMORY') {
      this.fallBackInline(error)
      return
    }
    const why = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it needed more than ${this.heapMb} MB` : error.message
    this.settle({ error: new AdapterError(`the page could not be read: ${why}`) })
  }

  /** The worker never loaded: no page can be read off the main thread here, so every job is done inline. */
  private fallBackInline(error: Error): void {
    this.unavailable = true
    this.log.error({ err: error }, 'page reader: no worker thread could start; pages are read on the main thread, without a deadline')
    const pending = this.current
    this.current = null
    if (pending) {
      clearTimeout(pending.timer)
      this.queue.unshift(pending)
    }
    for (const queued of this.queue.splice(0)) {
      void Promise.resolve().then(this.inlineByJob.get(queued.job)!).then(queued.resolve, queued.reject)
    }
  }

  private exited(spawned: Worker): void {
    if (this.worker !== spawned) return
    this.worker = null
    this.ready = false
    this.started?.resolve()
    this.settle({ error: new AdapterError('the page could not be read: the reader stopped') })
  }

  private stopWorker(): void {
    const ending = this.worker
    this.worker = null
    this.ready = false
    this.started?.resolve()
    this.started = null
    if (ending) {
      ending.removeAllListeners()
      // Listening still, so a late 'error' from a worker being ended is not an uncaught one.
      ending.on('error', () => undefined)
      void ending.terminate()
    }
  }
}

/** The worker thread: the built app's `read-worker.js`, or the TypeScript file from the sources. */
function spawnReadWorker(heapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: READ_YOUNG_MB }
  const built = [new URL('./read-worker.js', import.meta.url), new URL('../read-worker.js', import.meta.url)]
  return spawnWorkerThread(built, new URL('./read-worker.ts', import.meta.url), resourceLimits)
}

/**
 * Reading an import file off the main thread, under a deadline (docs/adr/0080-imports-read-in-a-worker.md).
 * The parsers are linear in their input, but a file of 64 MiB is still seconds of work, and the thread that
 * reads it is the one that answers Readers, runs the Lanes and draws the window: so each file is read in a
 * worker thread of its own, with its own heap limit, ended at the deadline. Where no worker can start (a build
 * without its worker file), the file is read on the calling thread, logged as an error.
 */
import type { Worker } from 'node:worker_threads'
import type { Log } from '../log'
import { spawnWorkerThread } from '../worker-thread'
import type { ParsedLibrary } from './entries'
import { ImportError } from './errors'
import type { ImportReadJob, ImportReadMessage } from './import-protocol'
import { readLibrary } from './read'

/** The longest a file may take to read: far above any real one (5,000 manga read in about a second). */
export const IMPORT_READ_DEADLINE_MS = 60_000
/** The worker's heap: a 256 MiB unpacked backup and its entries fit; a file that needs more fails alone. */
export const IMPORT_HEAP_MB = 1_024

export interface ImportReadOptions {
  onProgress?(done: number, total: number): void
  log?: Log
  deadlineMs?: number
  heapMb?: number
}

/** Reads a file into entries in a worker thread; rejects with an ImportError when the file is not one an import reads. */
export async function readLibraryOffThread(bytes: Buffer, fileName: string, options: ImportReadOptions = {}): Promise<ParsedLibrary> {
  const deadlineMs = options.deadlineMs ?? IMPORT_READ_DEADLINE_MS
  const heapMb = options.heapMb ?? IMPORT_HEAP_MB
  let worker: Worker
  try {
    worker = spawnImportWorker(heapMb)
  } catch (error) {
    return inline(bytes, fileName, options, error)
  }
  // A copy the worker takes over: the caller's buffer stays its own, and nothing is copied again on the way.
  const copy = new Uint8Array(bytes)
  return new Promise<ParsedLibrary>((resolve, reject) => {
    let ready = false
    const end = (settle: () => void) => {
      clearTimeout(timer)
      worker.removeAllListeners()
      worker.on('error', () => undefined)
      void worker.terminate()
      settle()
    }
    const timer = setTimeout(() => {
      options.log?.warn({ file: fileName, deadlineMs }, 'import: reading a file passed its deadline; the worker was ended')
      end(() => reject(new ImportError(`${fileName}: reading the file took longer than ${deadlineMs / 1000} s and was stopped`)))
    }, deadlineMs)
    worker.on('message', (message: ImportReadMessage) => {
      if ('ready' in message) {
        ready = true
        worker.postMessage({ bytes: copy, fileName } satisfies ImportReadJob, [copy.buffer])
      } else if ('progress' in message) options.onProgress?.(...message.progress)
      else if (message.ok) end(() => resolve(message.parsed))
      else end(() => reject(message.kind === 'import' ? new ImportError(message.message) : new Error(`import: ${message.message}`)))
    })
    worker.on('error', (error: Error & { code?: string }) => {
      if (!ready && error.code !== 'ERR_WORKER_OUT_OF_MEMORY') {
        end(() => resolve(inline(bytes, fileName, options, error)))
        return
      }
      const why = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it needed more than ${heapMb} MB to read` : error.message
      end(() => reject(new ImportError(`${fileName}: the file could not be read (${why})`)))
    })
    worker.on('exit', () => end(() => reject(new Error('import: the reader stopped before it answered'))))
  })
}

function inline(bytes: Buffer, fileName: string, options: ImportReadOptions, error: unknown): Promise<ParsedLibrary> {
  options.log?.error({ err: error }, 'import: no worker thread could start; the file is read on the main thread, without a deadline')
  return readLibrary(bytes, fileName, options.onProgress ? { onProgress: options.onProgress } : {})
}

/** The worker thread: the built app's `import-worker.js`, or the TypeScript file from the sources. */
function spawnImportWorker(heapMb: number): Worker {
  const built = [new URL('./import-worker.js', import.meta.url), new URL('../import-worker.js', import.meta.url)]
  return spawnWorkerThread(built, new URL('./import-worker.ts', import.meta.url), { maxOldGenerationSizeMb: heapMb })
}

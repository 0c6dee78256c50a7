/**
 * The import reader's worker thread (import-reader.ts): reads one file into entries and answers with them, or
 * with why it could not. Whatever a hostile file costs, it costs this thread, which the main thread ends at
 * the read's deadline (docs/adr/0080-imports-read-in-a-worker.md).
 */
import { parentPort, type MessagePort } from 'node:worker_threads'
import { ImportError } from './errors'
import type { ImportReadJob, ImportReadMessage } from './import-protocol'
import { readLibrary } from './read'

async function answer(port: MessagePort, job: ImportReadJob): Promise<ImportReadMessage> {
  try {
    const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength)
    const parsed = await readLibrary(bytes, job.fileName, { onProgress: (done, total) => port.postMessage({ progress: [done, total] }) })
    return { ok: true, parsed }
  } catch (error) {
    const kind = error instanceof ImportError ? 'import' : 'failed'
    return { ok: false, kind, message: String((error as Error)?.message ?? error).slice(0, 2_000) }
  }
}

const port = parentPort
if (port) {
  // One file per worker; the reader ends the thread once it has the answer.
  port.on('message', (job: ImportReadJob) => void answer(port, job).then((message) => port.postMessage(message)))
  // Loaded: from here on a failure is the file's, not the worker's.
  port.postMessage({ ready: true } satisfies ImportReadMessage)
}

/**
 * The page reader's worker thread (page-reader.ts): makes each adapter from its recipe once, reads one page
 * per message and answers with the step or the error. Whatever a page costs, it costs this thread, which the
 * main thread ends at the read's deadline (docs/adr/0040-reading-pages-in-a-worker-with-a-deadline.md).
 */
import { parentPort } from 'node:worker_threads'
import { recogniseSite } from './recognise-site'
import { adapterFromRecipe } from './families'
import type { ReadAnswer, ReadJob } from './read-protocol'
import { AdapterError, type Adapter } from './site'

const adapters = new Map<string, Adapter>()

function adapterFor(job: Extract<ReadJob, { recipe: unknown }>): Adapter {
  const key = JSON.stringify(job.recipe)
  let adapter = adapters.get(key)
  if (!adapter) {
    adapter = adapterFromRecipe(job.recipe)
    adapters.set(key, adapter)
  }
  return adapter
}

function answer(job: ReadJob): ReadAnswer {
  try {
    if ('recognise' in job) return { id: job.id, ok: true, recognition: recogniseSite(job.page, new URL(job.url), job.recognise) }
    return { id: job.id, ok: true, step: adapterFor(job).read(job.page, new URL(job.seriesUrl)) }
  } catch (error) {
    const kind = error instanceof AdapterError ? 'adapter' : 'failed'
    return { id: job.id, ok: false, kind, message: String((error as Error)?.message ?? error).slice(0, 500) }
  }
}

parentPort?.on('message', (job: ReadJob) => parentPort!.postMessage(answer(job)))
// Loaded: from here on a failure is a page's, not the worker's (page-reader.ts tells the two apart).
parentPort?.postMessage({ ready: true })

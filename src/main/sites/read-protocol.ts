/** The messages between the page reader and its worker thread (page-reader.ts, read-worker.ts): plain data only. */
import type { AdapterRecipe } from './families'
import type { AdapterStep, Page } from './site'

export interface ReadJob {
  id: number
  recipe: AdapterRecipe
  page: Page
  /** The Series URL, as text (a URL object cannot cross to a worker). */
  seriesUrl: string
}

export type ReadAnswer =
  | { id: number; ok: true; step: AdapterStep }
  /** `adapter`: the adapter refused the content (an AdapterError); `failed`: anything else it threw. */
  | { id: number; ok: false; kind: 'adapter' | 'failed'; message: string }

/** The messages between the page reader and its worker thread (page-reader.ts, read-worker.ts): plain data only. */
import type { AdapterRecipe } from './families'
import type { Recognition, RecogniseOptions } from './recognition'
import type { AdapterStep, Page } from './site'

/** A page for a Site's adapter, or (with `recognise`) the page of an unknown Site to recognise (recognise-site.ts). */
export type ReadJob =
  | {
      id: number
      recipe: AdapterRecipe
      page: Page
      /** The Series URL, as text (a URL object cannot cross to a worker). */
      seriesUrl: string
    }
  | { id: number; recognise: RecogniseOptions; page: Page; url: string }

export type ReadAnswer =
  | { id: number; ok: true; step: AdapterStep }
  | { id: number; ok: true; recognition: Recognition }
  /** `adapter`: the adapter refused the content (an AdapterError); `failed`: anything else it threw. */
  | { id: number; ok: false; kind: 'adapter' | 'failed'; message: string }

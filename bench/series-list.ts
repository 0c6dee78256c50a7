import type { BenchResult } from './run'

/** Filled in with the owner's window (issue 6). */
export async function seriesList10k(): Promise<BenchResult> {
  throw new Error('series-list-10k: not written yet')
}

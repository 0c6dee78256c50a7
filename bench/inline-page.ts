/**
 * inline-worst-page: the costliest page the calling thread still reads itself (docs/adr/0206-small-pages-read-inline.md)
 * — rows nested INLINE_MAX_DEPTH deep, over and over, up to INLINE_MAX_CHARS — against an honest flat chapter list
 * as long, each the quickest of five reads through the app's page reader (interleaved, so both see the same
 * machine). Depth within the bound must add little: ratio ≤ 3. The event loop waits for the whole read, so this
 * ratio is how much longer the worst inline page holds it than a plain one.
 */
import { silentLog } from '../src/main/log'
import { FAMILIES } from '../src/main/sites/families'
import { createPageReader, INLINE_MAX_CHARS, INLINE_MAX_DEPTH, readsInline } from '../src/main/sites/page-reader'
import { inlinePages } from '../src/main/sites/tools/hostile-pages'
import type { Page } from '../src/main/sites/site'
import type { BenchResult } from './run'

const READS = 5

export async function inlineWorstPage(): Promise<BenchResult> {
  const { worst, flat } = inlinePages()
  if (!readsInline(worst) || !readsInline(flat)) throw new Error('inline-worst-page: a page past the inline bound')
  const adapter = FAMILIES.mangathemesia.adapter()
  const url = new URL('https://bloom.example/manga/nested/')
  const reader = createPageReader({ log: silentLog, deadlineMs: 10_000, inlineMaxChars: INLINE_MAX_CHARS })
  const page = (body: string): Page => ({ url: url.href, status: 200, contentType: 'text/html', body })
  const time = async (body: string) => {
    const started = performance.now()
    await reader.read({ adapter }, page(body), url)
    return performance.now() - started
  }
  try {
    let [value, baseline] = [Infinity, Infinity]
    for (let i = 0; i < READS; i++) {
      value = Math.min(value, await time(worst))
      baseline = Math.min(baseline, await time(flat))
    }
    const ratio = value / baseline
    return {
      name: 'inline-worst-page',
      value,
      unit: 'ms',
      baseline,
      ratio,
      target: 'ratio <= 3',
      pass: ratio <= 3,
      note: `${worst.length} characters nested ${INLINE_MAX_DEPTH} deep against a flat list of ${flat.length}`,
    }
  } finally {
    await reader.close()
  }
}

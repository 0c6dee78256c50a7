import { describe, expect, it } from 'vitest'
import { highestChapter } from '../../shared/chapter-number'
import { MAX_LABEL, MAX_ROWS, MAX_TITLE } from './html'
import type { ParsedSeries } from './site'
import { hostileCases } from './tools/hostile-cases'
import { HOSTILE_LATEST, hostilePage, type HostileFamily } from './tools/hostile-pages'

const FIVE_MB = 5 * 1024 * 1024
const adapters = hostileCases()

/** CPU milliseconds of this process: time the CPU was given to another process is not the adapter's cost. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

function read(family: HostileFamily, body: string): { result: ParsedSeries; ms: number } {
  const { adapter, url } = adapters[family]
  const started = cpuMs()
  const step = adapter.read({ url, status: 200, contentType: '', body }, new URL(url))
  const ms = cpuMs() - started
  if (step.kind !== 'parsed') throw new Error(`expected parsed, got ${step.kind}`)
  return { result: step.result, ms }
}

/** The best of three reads: a cache or collector hiccup is not the adapter's cost. */
function cost(family: HostileFamily, body: string): number {
  return Math.min(...[0, 1, 2].map(() => read(family, body).ms))
}

// Costs and 5 MB pages: instrumented for mutation testing they take minutes and measure nothing; not in a mutation run.
describe.skipIf(process.env['MB_MUTATION_RUN'] === '1').each(Object.keys(adapters) as HostileFamily[])(
  'a 5 MB page of hostile labels, %s',
  (family) => {
    const body = hostilePage(family, FIVE_MB)

    it('parses in well under a second and still finds the honest Latest Chapter', () => {
      expect(body.length).toBeGreaterThanOrEqual(FIVE_MB)
      const { result } = read(family, body)
      expect(highestChapter(result.chapters)?.number).toBe(HOSTILE_LATEST)
      // The bound the issue asks for; the figures measured are in the report (about a quarter of it).
      expect(cost(family, body)).toBeLessThan(1_000)
    })

    it('returns no title over MAX_TITLE, no label over MAX_LABEL and no more than MAX_ROWS chapters', () => {
      const { result } = read(family, body)
      expect(result.title?.length ?? 0).toBeLessThanOrEqual(MAX_TITLE)
      expect(Math.max(...result.chapters.map((c) => c.label.length))).toBeLessThanOrEqual(MAX_LABEL)
      expect(result.chapters.length).toBeLessThanOrEqual(MAX_ROWS)
      for (const chapter of result.chapters) expect(chapter.label).not.toMatch(/\s{2}|^\s|\s$/)
    })

    it('doubling the page roughly doubles the work', () => {
      const half = hostilePage(family, FIVE_MB / 2)
      // Interleaved, the best of five each, in CPU time: a collection that lands in one run is not the adapter's cost.
      let best = [Infinity, Infinity]
      for (let run = 0; run < 5; run++) best = [Math.min(best[0]!, read(family, half).ms), Math.min(best[1]!, read(family, body).ms)]
      // Linear work doubles; quadratic work would quadruple (4): 3.5 leaves room for a collection in the larger runs.
      expect(best[1]! / best[0]!).toBeLessThan(3.5)
    })
  },
)

describe('bounded rows', () => {
  const rows = (order: 'newest first' | 'oldest first', n: number) => {
    const numbers = Array.from({ length: n }, (_, i) => (order === 'newest first' ? n - i : i + 1))
    return `<h1>Long Series</h1><ul>${numbers.map((k) => `<li class="wp-manga-chapter"><a href="/c/${k}">Chapter ${k}</a></li>`).join('')}</ul>`
  }

  it.each(['newest first', 'oldest first'] as const)(
    'a 20,000-row list read %s keeps its newest chapter while reading at most MAX_ROWS rows',
    (order) => {
      const { result } = read('madara', rows(order, 20_000))
      expect(result.chapters).toHaveLength(MAX_ROWS)
      expect(highestChapter(result.chapters)?.number).toBe(20_000)
    },
  )

  it('an unclosed <h1> swallowing a 4 MB page makes a title of at most MAX_TITLE characters', () => {
    const body = `<h1>Runaway ${'title text '.repeat(400_000)}<ul><li class="ch"><a href="/c/3">Chapter 3</a></li></ul>`
    const { result } = read('selectors', body.replace('<li class="ch"><a href="/c/3">', '<li class="ch"><a href="/c/3" data-n="3">'))
    expect(result.title).toMatch(/^Runaway title text title text/)
    expect(result.title!.length).toBeLessThanOrEqual(MAX_TITLE)
    expect(result.chapters.map((c) => c.number)).toEqual([3])
  })
})

/**
 * The page reader (docs/adr/0040): pages read in a worker thread under a deadline. Real worker threads (the
 * TypeScript worker through tsx here; the built one in page-reader.process.test.ts).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { silentLog } from '../log'
import { FAMILIES } from './families'
import { selectorAdapter } from './families/selectors'
import { recogniseSite } from './recognise-site'
import { createPageReader, INLINE_MAX_CHARS, INLINE_MAX_DEPTH, readsInline, type PageReader } from './page-reader'
import { AdapterError, type Page } from './site'
import { inlinePages, nestedRows } from './tools/hostile-pages'

const stored = (name: string) => readFileSync(join(import.meta.dirname, 'testdata', name), 'utf8')
const page = (url: string, body: string): Page => ({ url, status: 200, contentType: 'text/html', body })

const readers: PageReader[] = []
afterEach(async () => {
  for (const reader of readers.splice(0)) await reader.close()
})
/** A reader that sends every page to the worker, unless told the calling thread's bound (`inlineMaxChars`). */
function reader(deadlineMs = 10_000, inlineMaxChars = 0): PageReader {
  const made = createPageReader({ log: silentLog, deadlineMs, inlineMaxChars })
  readers.push(made)
  return made
}

/** The longest the event loop went without turning while `work` ran, in ms. */
async function longestStall<T>(work: Promise<T>): Promise<{ value: T | Error; stall: number }> {
  let last = performance.now()
  let stall = 0
  const timer = setInterval(() => {
    const now = performance.now()
    stall = Math.max(stall, now - last)
    last = now
  }, 10)
  const value = await work.catch((error: Error) => error)
  clearInterval(timer)
  return { value, stall: Math.max(stall, performance.now() - last) }
}

describe('reading a page in the worker', () => {
  it.each([
    ['madara', FAMILIES.madara.adapter(), 'https://scans.example/manga/the-tower-climber/', 'madara-inline.html'],
    ['mangathemesia', FAMILIES.mangathemesia.adapter(), 'https://bloom.example/manga/iron-bloom/', 'mangathemesia.html'],
    ['webtoons', FAMILIES.webtoons.adapter(), 'https://www.webtoons.com/en/fantasy/x/list?title_no=95', 'webtoons-list.html'],
    ['selectors', selectorAdapter({ chapter: 'ul.chapters a', number: 'text' }), 'https://small.example/s/x', 'generic-list.html'],
  ])('%s: the same step as the adapter on the main thread', async (_family, adapter, url, file) => {
    const p = page(url, stored(file))
    expect(await reader().read({ adapter }, p, new URL(url))).toEqual(adapter.read(p, new URL(url)))
  })

  it('MangaDex, with its languages and API base, from its recipe', async () => {
    const adapter = FAMILIES.mangadex.adapter({ languages: ['pt-br'] })
    const url = new URL('https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/x')
    const p = { ...page(url.href, stored('mangadex-languages.json')), contentType: 'application/json' }
    expect(await reader().read({ adapter }, p, url)).toEqual(adapter.read(p, url))
  })

  it('content the adapter refuses is an AdapterError with its message', async () => {
    const url = new URL('https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/x')
    const read = reader().read({ adapter: FAMILIES.mangadex.adapter() }, page(url.href, '{not json'), url)
    await expect(read).rejects.toThrow(AdapterError)
    await expect(read).rejects.toThrow('MangaDex feed is not JSON')
  })

  it('pages are read one after another, each answered with its own step', async () => {
    const r = reader()
    const adapter = FAMILIES.madara.adapter()
    const url = new URL('https://a.example/manga/x/')
    const row = (n: number) => page(url.href, `<li class="wp-manga-chapter"><a href="/c/${n}">Chapter ${n}</a></li>`)
    const steps = await Promise.all([1, 2, 3, 4].map((n) => r.read({ adapter }, row(n), url)))
    expect(steps.map((s) => (s.kind === 'parsed' ? s.result.chapters[0]!.number : null))).toEqual([1, 2, 3, 4])
  })
})

describe('a small shallow page, read on the calling thread (docs/adr/0206-small-pages-read-inline.md)', () => {
  const url = new URL('https://scans.example/manga/the-tower-climber/')
  /** Madara's adapter from its recipe, counting the reads done on this thread. */
  function counted(): { adapter: ReturnType<typeof FAMILIES.madara.adapter>; here: () => number } {
    const adapter = FAMILIES.madara.adapter()
    let here = 0
    return { adapter: { ...adapter, read: (p: Page, u: URL) => (here++, adapter.read(p, u)) }, here: () => here }
  }

  it('a real page under the bounds is read here, with the same step; the worker is not started for it', async () => {
    const body = stored('madara-inline.html')
    expect(body.length).toBeLessThanOrEqual(INLINE_MAX_CHARS)
    const { adapter, here } = counted()
    const r = reader(10_000, INLINE_MAX_CHARS)
    expect(readsInline(body)).toBe(true)
    expect(await r.read({ adapter }, page(url.href, body), url)).toEqual(FAMILIES.madara.adapter().read(page(url.href, body), url))
    expect(here()).toBe(1)
  })

  it('a page over either bound goes to the worker: too long, or nested deeper than INLINE_MAX_DEPTH', async () => {
    const { adapter, here } = counted()
    const r = reader(10_000, INLINE_MAX_CHARS)
    const row = (n: number) => `<li class="wp-manga-chapter"><a href="/c/${n}">Chapter ${n}</a></li>`
    const long = `<ul>${Array.from({ length: 1_000 }, (_, i) => row(i + 1)).join('')}</ul>`
    // Divs around a list, its row and the row's link: INLINE_MAX_DEPTH deep, then one deeper.
    const nest = (divs: number) => `${'<div>'.repeat(divs)}<ul>${row(7)}</ul>${'</div>'.repeat(divs)}`
    const deep = nest(INLINE_MAX_DEPTH - 2)
    expect(long.length).toBeGreaterThan(INLINE_MAX_CHARS)
    expect(deep.length).toBeLessThan(1_000)
    for (const body of [long, deep]) expect((await r.read({ adapter }, page(url.href, body), url)).kind).toBe('parsed')
    expect(here()).toBe(0)
    expect(readsInline(nest(INLINE_MAX_DEPTH - 3))).toBe(true)
  })

  it("an owner's selectors go to the worker whatever the page: they have no bound", async () => {
    const owners = selectorAdapter({ chapter: 'ul.chapters a', number: 'text' })
    let here = 0
    const adapter = { ...owners, read: (p: Page, u: URL) => (here++, owners.read(p, u)) }
    const body = stored('generic-list.html')
    expect(readsInline(body)).toBe(true)
    const step = await reader(10_000, INLINE_MAX_CHARS).read(
      { adapter },
      page('https://small.example/s/x', body),
      new URL('https://small.example/s/x'),
    )
    expect(step).toEqual(owners.read(page('https://small.example/s/x', body), new URL('https://small.example/s/x')))
    expect(here).toBe(0)
  })

  it('the worst page within the bounds holds the loop briefly; nested rows just past them go to the worker', async () => {
    const adapter = FAMILIES.mangathemesia.adapter()
    // Rows nested INLINE_MAX_DEPTH deep, over and over, up to the size bound: the costliest shape inline. How long it
    // holds the loop against a flat list as long is a figure of the bench (`inline-worst-page`), not of this test.
    const { worst } = inlinePages()
    expect(readsInline(worst)).toBe(true)
    const r = reader(10_000, INLINE_MAX_CHARS)
    const step = await r.read({ adapter }, page(url.href, worst), url)
    expect(step.kind).toBe('parsed')
    expect(readsInline(nestedRows(INLINE_MAX_DEPTH))).toBe(false)
  })
})

describe('a page that takes too long to read', () => {
  const adapter = FAMILIES.mangathemesia.adapter()
  const url = new URL('https://bloom.example/manga/nested/')

  it('fails at its deadline with the reason, the event loop never waiting for it; the next page is read again', async () => {
    const r = reader(1_500)
    // A first page starts the worker, so the deadline below is the read's alone.
    await r.read({ adapter }, page(url.href, stored('mangathemesia.html')), url)

    const started = performance.now()
    const { value, stall } = await longestStall(r.read({ adapter }, page(url.href, nestedRows(50_000)), url))
    expect(value).toBeInstanceOf(AdapterError)
    expect((value as Error).message).toBe('reading the page took longer than 1500 ms and was stopped')
    expect(performance.now() - started).toBeLessThan(5_000)
    // On the main thread this page held the loop for over a minute.
    expect(stall).toBeLessThan(500)

    const next = await r.read({ adapter }, page(url.href, stored('mangathemesia.html')), url)
    expect(next.kind === 'parsed' && next.result.chapters.length).toBeGreaterThan(0)
  })

  it('Add a Site: the page of an unknown Site is recognised in the worker as on the main thread', async () => {
    const target = new URL('https://scans.example/manga/the-tower-climber/')
    const p = page(target.href, stored('madara-inline.html'))
    const inline = () => recogniseSite(p, target, { takenKeys: ['scans'] })
    const recognised = await reader().recognise(p, target, { takenKeys: ['scans'] }, () => {
      throw new Error('read on the main thread')
    })
    expect(recognised).toEqual(inline())
    expect(recognised.ok && recognised.entry).toMatchObject({ key: 'scans-2', family: 'madara' })
  })

  it('Add a Site: a hostile page fails at the deadline with the reason, the event loop never waiting for it', async () => {
    const r = reader(1_500)
    await r.read({ adapter }, page(url.href, stored('mangathemesia.html')), url)
    const hostile = page(url.href, nestedRows(50_000))
    const { value, stall } = await longestStall(
      r.recognise(hostile, url, {}, () => {
        throw new Error('read on the main thread')
      }),
    )
    expect((value as Error).message).toBe('reading the page took longer than 1500 ms and was stopped')
    expect(stall).toBeLessThan(500)
  })

  it('a stop ends the read at once, and a read queued behind it', async () => {
    const r = reader(60_000)
    await r.read({ adapter }, page(url.href, stored('mangathemesia.html')), url)
    const stop = new AbortController()
    const slow = r.read({ adapter }, page(url.href, nestedRows(50_000)), url, stop.signal)
    const queued = r.read({ adapter }, page(url.href, stored('mangathemesia.html')), url, stop.signal)
    setTimeout(() => stop.abort(), 200)
    const started = performance.now()
    await expect(slow).rejects.toThrow('stopped')
    await expect(queued).rejects.toThrow('stopped')
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('closing the reader fails what it was reading', async () => {
    const r = reader(60_000)
    const slow = r.read({ adapter }, page(url.href, nestedRows(50_000)), url)
    setTimeout(() => void r.close(), 200)
    await expect(slow).rejects.toThrow('the page reader is closed')
    await expect(r.read({ adapter }, page(url.href, ''), url)).rejects.toThrow('the page reader is closed')
  })
})

describe('an adapter without a recipe (a test fake)', () => {
  it('is read on the calling thread', async () => {
    let thread = ''
    const adapter = {
      request: (u: URL) => ({ url: u.href, method: 'GET' as const }),
      read: () => {
        thread = 'main'
        return { kind: 'parsed' as const, result: { chapters: [] } }
      },
    }
    await reader().read({ adapter }, page('https://a.example/', ''), new URL('https://a.example/'))
    expect(thread).toBe('main')
  })
})

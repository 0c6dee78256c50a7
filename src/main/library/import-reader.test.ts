import { monitorEventLoopDelay } from 'node:perf_hooks'
import { describe, expect, it } from 'vitest'
import { nestedBookmarks, tachibk } from '../testing/library-files'
import { ImportError } from './errors'
import { readLibraryOffThread } from './import-reader'
import { readLibrary } from './read'

describe('an import file is read in a worker thread', () => {
  it('the entries are the ones read on the calling thread, and progress is reported', async () => {
    const file = tachibk({
      manga: Array.from({ length: 600 }, (_, i) => ({ source: '1', url: `/manga/s${i}/`, title: `S${i}`, read: [1, 2] })),
    })
    const progress: Array<[number, number]> = []
    const parsed = await readLibraryOffThread(file, 'a.tachibk', { onProgress: (done, total) => progress.push([done, total]) })
    expect(parsed).toEqual(await readLibrary(file, 'a.tachibk'))
    expect(parsed.entries).toHaveLength(600)
    expect(progress.at(-1)).toEqual([600, 600])
  })

  it('a file the import does not read is refused with its reason, as an ImportError', async () => {
    const refused = readLibraryOffThread(Buffer.from('not gzip'), 'x.tachibk')
    await expect(refused).rejects.toBeInstanceOf(ImportError)
    await expect(refused).rejects.toThrow('backup: x.tachibk is not gzip')
  })

  it('a read past its deadline is stopped, and says so', async () => {
    await expect(readLibraryOffThread(Buffer.from(nestedBookmarks(10, 10)), 'b.html', { deadlineMs: 1 })).rejects.toThrow(
      'b.html: reading the file took longer than 0.001 s and was stopped',
    )
  })

  it('a file that needs more than its heap fails alone, with why', async () => {
    const big = Buffer.from(nestedBookmarks(20_000, 50_000))
    await expect(readLibraryOffThread(big, 'big.html', { heapMb: 8 })).rejects.toThrow(/big\.html: the file could not be read/)
  })

  // The main thread's longest stall while the worker reads a file, against the time the same read takes on
  // the main thread: the read no longer stalls it. (The figure for the files that froze the app is in
  // `npm run bench`, import-hostile.)
  it('the main thread keeps turning while a large file is read', async () => {
    const file = Buffer.from(nestedBookmarks(20_000, 50_000))
    let started = performance.now()
    await readLibrary(file, 'big.html')
    const inlineMs = performance.now() - started
    const delay = monitorEventLoopDelay({ resolution: 1 })
    delay.enable()
    started = performance.now()
    const parsed = await readLibraryOffThread(file, 'big.html')
    delay.disable()
    expect(parsed.entries).toHaveLength(50_000)
    const stallMs = delay.max / 1e6
    expect(stallMs).toBeLessThan(inlineMs)
  })
})

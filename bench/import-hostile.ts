/**
 * import-hostile: the files that froze the app (issue 29) imported through the admin contract of a running app
 * — read in the import worker, planned, previewed — while `/api/v1/health` is asked every 10 ms on the sync
 * port and the event loop's delay is watched (loop-probe.ts). The value is the slowest `/health` answer or loop delay meanwhile (target <= 100 ms); each file's import time is in
 * the note (target < 2 s each). Baseline, same run and files: the same reads on the main thread (what the
 * window did before, with today's linear parsers), whose time a `/health` would have waited.
 *   - a 360 KB bookmarks file: 2,000 folders nested in each other, 5,000 links (58 s before);
 *   - a Mihon backup: one manga, 20,000 chapters read of one number, 20,000 unmatched history entries (4.6 s);
 *   - a Mihon backup: one manga whose chapter read has 300,000 history entries (a stack overflow).
 */
import type { ImportJobView } from '../src/shared/admin-api'
import { startApp, type RunningApp } from '../src/main/app'
import { readLibrary } from '../src/main/library/read'
import { silentLog } from '../src/main/log'
import { BUILT_IN_SITES } from '../src/main/sites/builtin'
import { nestedBookmarks, tachibk } from '../src/main/testing/library-files'
import { tempDir } from '../src/main/testing/store'
import { loopProbe } from './loop-probe'
import type { BenchResult } from './run'

const SOURCE = '6247824327199706550'

function files(): Array<{ name: string; bytes: Buffer }> {
  const sameNumber = Array.from({ length: 20_000 }, (_, i) => ({ url: `/c/${i}`, chapterNumber: 7, read: true }))
  const unmatched = Array.from({ length: 20_000 }, (_, i) => ({ url: `/elsewhere/${i}`, lastRead: 1_700_000_000_000 + i }))
  const long = Array.from({ length: 300_000 }, (_, i) => ({ url: '/manga/solo/c/3', lastRead: 1_700_000_000_000 + i }))
  return [
    { name: 'bookmarks.html', bytes: Buffer.from(nestedBookmarks(2_000, 5_000)) },
    {
      name: 'unmatched.tachibk',
      bytes: tachibk({ manga: [{ source: SOURCE, url: '/manga/solo/', otherChapters: sameNumber, otherHistory: unmatched }] }),
    },
    { name: 'history.tachibk', bytes: tachibk({ manga: [{ source: SOURCE, url: '/manga/solo/', read: [3], otherHistory: long }] }) },
  ]
}

async function call<T>(app: RunningApp, method: string, input: unknown): Promise<T> {
  const result = await app.admin.call(method, input)
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`)
  return result.value as T
}

async function importAll(): Promise<{ health: number; times: Record<string, number> }> {
  const dir = tempDir('mb-bench-hostile-')
  const app = await startApp({ shell: 'headless', dataDir: dir.dir, log: silentLog, port: 0, sites: BUILT_IN_SITES, lanes: false })
  try {
    const reader = await call<{ reader: { id: number } }>(app, 'addReader', { name: 'Bench' })
    const times: Record<string, number> = {}
    // Made before the probe starts: encoding 300,000 history entries is the bench's own work, not the app's.
    const made = files()
    const probe = loopProbe(app.port)
    for (const file of made) {
      const started = performance.now()
      const job = await call<ImportJobView>(app, 'startImport', {
        readerId: reader.reader.id,
        file: { fileName: file.name, base64: file.bytes.toString('base64') },
      })
      for (;;) {
        const now = await call<ImportJobView>(app, 'importJob', { jobId: job.id })
        if (now.phase === 'previewed') break
        if (now.phase === 'failed') throw new Error(`import of ${file.name} failed: ${now.error}`)
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      times[file.name] = Math.round(performance.now() - started)
    }
    return { health: (await probe.stop()).worst, times }
  } finally {
    await app.stop()
    dir.remove()
  }
}

/** The longest of the same reads on the calling thread: how long a /health would have waited behind one. */
async function inline(): Promise<number> {
  let longest = 0
  for (const file of files()) {
    const started = performance.now()
    await readLibrary(file.bytes, file.name)
    longest = Math.max(longest, performance.now() - started)
  }
  return longest
}

export async function importHostile(): Promise<BenchResult> {
  const { health, times } = await importAll()
  const baseline = await inline()
  const slowestImport = Math.max(...Object.values(times))
  return {
    name: 'import-hostile',
    value: health,
    unit: 'ms',
    baseline,
    ratio: health / baseline,
    target: '<= 100 (each import < 2000 ms)',
    pass: health <= 100 && slowestImport < 2_000,
    note: `slowest /health or event-loop delay while importing; imports ${Object.entries(times)
      .map(([name, ms]) => `${name} ${ms} ms`)
      .join(', ')}; the same reads on the main thread: longest ${Math.round(baseline)} ms`,
  }
}

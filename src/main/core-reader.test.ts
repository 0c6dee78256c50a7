/**
 * The page reader's worker is started by the first page that needs it, not by the start: a library whose pages are
 * all read inline never holds its thread and heap (docs/adr/0240-a-page-cache-the-size-sqlite-chose.md).
 */
import { startCore } from './core'
import { silentLog } from './log'
import { inlineReader, type PageReader } from './sites/page-reader'
import { FakeClock } from './testing/clock'
import { describe, expect, it } from './testing/fixtures'

describe("the page reader's worker at start", () => {
  it('is not warmed once the Lanes may pass, nor once they run', async ({ makeDir, defer }) => {
    const warmed: string[] = []
    const reader: PageReader = { ...inlineReader, warm: async () => void warmed.push('warm') }
    const clock = new FakeClock()
    const core = await startCore({ dataDir: makeDir(), clock, log: silentLog, sites: [], reader, firstPassAfter: Promise.resolve() })
    defer(() => core.stop())
    await core.startLanes()
    // Whatever the start chains on its first-pass promise has run by now.
    await new Promise((resolve) => setImmediate(resolve))
    expect(warmed).toEqual([])
  })
})

/**
 * What the demo keeps across restarts in its own data (`<data>/demo/demo.json`): its Sites' port, so every
 * chapter link a Reader was given still opens, and each Series' title and latest chapter, so a restart never
 * publishes a chapter twice nor renames a Series. A missing or unreadable file is a first run.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { FixtureSeries } from './pages'

export const DEMO_STATE_FILE = 'demo.json'

const DemoStateFile = z.object({
  port: z.number().int().min(0).max(65_535),
  series: z.record(z.string(), z.object({ title: z.string(), latest: z.number().int().min(0) })).default({}),
  /** When each Series (by page path) last had a chapter published: a bookmark newer than that is served first. */
  publishedAt: z.record(z.string(), z.number()).default({}),
  /** The next turn of the rotation over the catalogue. */
  turn: z.number().int().min(0).default(0),
})
export type DemoState = z.infer<typeof DemoStateFile>

export const emptyDemoState = (): DemoState => ({ port: 0, series: {}, publishedAt: {}, turn: 0 })

export function readDemoState(dir: string): DemoState {
  try {
    const parsed = DemoStateFile.safeParse(JSON.parse(readFileSync(join(dir, DEMO_STATE_FILE), 'utf8')))
    if (parsed.success) return parsed.data
  } catch {
    // None yet, or not JSON: a first run.
  }
  return emptyDemoState()
}

/** Writes the state whole (a temporary file renamed over the old one: a crash leaves one or the other). */
export function writeDemoState(dir: string, state: DemoState & { series: Record<string, FixtureSeries> }): void {
  const file = join(dir, DEMO_STATE_FILE)
  writeFileSync(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 })
  renameSync(`${file}.tmp`, file)
}

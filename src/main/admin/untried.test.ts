/**
 * A derived Site (docs/adr/0160-derived-selector-entries.md) is untried on the Lanes until a check of it reads a
 * chapter; a Site the owner wrote with selectors of their own on the same host is never called so.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAdmin } from './admin'
import { startCore, type Core } from '../core'
import { silentLog } from '../log'
import { DERIVED_WORDS, KNOWN_SITES, knownSiteEntry } from '../sites/known-sites'
import { SITES_FILE } from '../sites/sites-file'
import { ensureLane } from '../store/lanes'
import { FakeClock } from '../testing/clock'
import { seedReader, seedSeries, tempDir } from '../testing/store'
import type { AdminApi } from '../../shared/admin-api'

const derived = KNOWN_SITES.sites.filter((s) => s.selectors)
const [first, second] = [derived[0]!, derived[1]!]
let dir: { dir: string; remove(): void }
let core: Core
let admin: AdminApi

beforeEach(async () => {
  dir = tempDir()
  const own = { ...knownSiteEntry(second, new Set()), selectors: { chapter: 'ol.mine > li', number: 'text' } }
  writeFileSync(join(dir.dir, SITES_FILE), JSON.stringify({ sites: [knownSiteEntry(first, new Set()), own] }))
  core = await startCore({ dataDir: dir.dir, clock: new FakeClock(), log: silentLog, sites: [] })
  admin = createAdmin({ core, shell: 'headless', listening: () => 'http://127.0.0.1:0' })
  for (const s of [first, second]) await ensureLane(core.store.db, s.key)
})
afterEach(async () => {
  await core.stop()
  dir.remove()
})

describe('a derived Site on the Lanes', () => {
  it("is untried until a check of it reads a chapter; the owner's own selectors never are", async () => {
    expect(core.siteProblems).toEqual([])
    const untried = async () => Object.fromEntries((await admin.lanes()).map((l) => [l.site, l.untried]))
    expect(await untried()).toMatchObject({ [first.key]: DERIVED_WORDS, [second.key]: undefined })
    const reader = await seedReader(core.store.db)
    await seedSeries(core.store.db, { site: first.key, id: 's', readers: [reader] })
    const outcome = (o: 'no-chapter' | 'chapter') =>
      core.store.db.updateTable('series').set({ last_outcome: o }).where('site', '=', first.key).execute()
    await outcome('no-chapter')
    expect((await untried())[first.key]).toBe(DERIVED_WORDS)
    await outcome('chapter')
    expect((await untried())[first.key]).toBeUndefined()
    expect((await admin.overview()).lanes.find((l) => l.site === first.key)?.untried).toBeUndefined()
  })
})

/**
 * Add a Site through the admin contract, end to end in the core: a fixture site the app has never seen is read
 * over real HTTP, proposed, confirmed into sites.json, and its Lane runs without a restart.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAdmin } from '../admin/admin'
import { startCore, type Core } from '../core'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { silentLog } from '../log'
import { recentPasses } from '../store/passes'
import { FakeClock } from '../testing/clock'
import { seedReader, tempDir } from '../testing/store'
import type { AdminApi } from '../../shared/admin-api'
import { SITES_FILE } from '../sites/sites-file'
import { familyHintForHost, familyOfPage } from '../sites/recognise-site'

let fixture: FixtureSite
let dir: { dir: string; remove(): void }
let core: Core
let admin: AdminApi
const clock = new FakeClock()

beforeEach(async () => {
  fixture = await startFixtureSite({ now: () => clock.now() })
  dir = tempDir()
  core = await startCore({ dataDir: dir.dir, clock, log: silentLog, sites: [] })
  admin = createAdmin({ core, shell: 'headless', listening: () => 'http://127.0.0.1:0' })
})
afterEach(async () => {
  await core.stop()
  await fixture.close()
  dir.remove()
})

describe('Add a Site', () => {
  it('reads a Madara page of an unknown host, proposes the Site with a preview, and writes nothing yet', async () => {
    const url = `${fixture.origin}/madara/manga/glass-harbor/`
    const proposal = await admin.proposeSite({ url })
    expect(proposal).toMatchObject({
      ok: true,
      recognisedBy: expect.stringMatching(/Madara/),
      seriesUrl: url,
      entry: { hosts: [fixture.host], family: 'madara' },
      preview: { title: 'Glass Harbor' },
    })
    if (!proposal.ok) throw new Error('no proposal')
    const numbers = proposal.preview.chapters.map((c) => c.number)
    expect(numbers[0]).toBe(fixture.series('/madara/manga/glass-harbor/').latest)
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a))
    expect(existsSync(join(dir.dir, SITES_FILE))).toBe(false)
    expect(core.registry.resolve(url)).toBeNull()
  })

  it('recognises the family from the page under a host no table knows; the hint without a page says it could not tell', async () => {
    const proposal = await admin.proposeSite({ url: `${fixture.origin}/themesia/manga/iron-bloom/chapter-3/` })
    expect(proposal).toMatchObject({
      ok: true,
      recognisedBy: expect.stringMatching(/^MangaThemesia markup: \d+ li\[data-num\] rows$/),
      seriesUrl: `${fixture.origin}/themesia/manga/iron-bloom/`,
      entry: { hosts: [fixture.host], family: 'mangathemesia' },
    })
    const page = await fetch(`${fixture.origin}/themesia/manga/iron-bloom/`).then((r) => r.text())
    expect(familyOfPage({ body: page }, new URL(fixture.origin))).toMatchObject({ family: 'mangathemesia' })
    expect(familyOfPage({ body: '<h1>hello</h1>' }, new URL(fixture.origin))).toEqual({
      unknown: `could not tell the family of ${fixture.host} from its page: no family's markup was found`,
    })
    expect(familyHintForHost(fixture.host)).toEqual({
      unknown: `could not tell the family of ${fixture.host} without reading one of its pages: add it with Add a Site, which reads a Series page`,
    })
    expect(familyHintForHost('www.mangabats.com')).toMatchObject({ family: 'mangabox', name: 'Mangabat' })
  })

  it('on confirm: the entry is in sites.json, the Site runs at once, and the Series can be bookmarked', async () => {
    await core.startLanes()
    const url = `${fixture.origin}/themesia/manga/iron-bloom/`
    const proposal = await admin.proposeSite({ url })
    if (!proposal.ok) throw new Error(proposal.reason)
    const added = await admin.addSite({ proposalId: proposal.id, name: 'Loopback Themes' })
    expect(added).toMatchObject({ seriesUrl: url, lane: { site: proposal.entry.key, name: 'Loopback Themes' } })
    const file = JSON.parse(readFileSync(join(dir.dir, SITES_FILE), 'utf8')) as { sites: Array<{ key: string; family?: string }> }
    expect(file.sites).toEqual([expect.objectContaining({ key: proposal.entry.key, family: 'mangathemesia' })])
    expect(core.registry.resolve(url)?.site.key).toBe(proposal.entry.key)

    const alice = await seedReader(core.store.db, 'alice')
    const row = await admin.addBookmark({ readerId: alice, url })
    expect(row).toMatchObject({ site: proposal.entry.key, seriesId: 'iron-bloom', readerCount: 1 })
    // Its Lane runs without a restart: a pass row of the new Site, and the Series read.
    let passes = await recentPasses(core.store.db, proposal.entry.key, 5)
    for (let i = 0; i < 50 && passes.length === 0; i++) {
      await clock.runFor(30_000)
      passes = await recentPasses(core.store.db, proposal.entry.key, 5)
    }
    expect(passes.length).toBeGreaterThan(0)
  })

  it('a second confirm of the same proposal is refused; the owner’s other entries and formatting are kept', async () => {
    const original =
      '{\n    "sites": [\n        { "key": "mine", "name": "Mine", "hosts": ["mine.example"], "family": "madara" }\n    ]\n}\n'
    writeFileSync(join(dir.dir, SITES_FILE), original)
    const proposal = await admin.proposeSite({ url: `${fixture.origin}/madara/manga/second/` })
    if (!proposal.ok) throw new Error(proposal.reason)
    await admin.addSite({ proposalId: proposal.id })
    await expect(admin.addSite({ proposalId: proposal.id })).rejects.toMatchObject({ code: 'not-found' })
    const text = readFileSync(join(dir.dir, SITES_FILE), 'utf8')
    expect(
      text.startsWith('{\n    "sites": [\n        { "key": "mine", "name": "Mine", "hosts": ["mine.example"], "family": "madara" },'),
    ).toBe(true)
  })

  it.each([
    ['a page with no chapters', '/no-chapters/manga/empty/', /no chapter|chapter list/i],
    ['a server error', '/broken/manga/oops/', /HTTP 500/],
    ['a challenge that never clears (no browser here)', '/never-clears/manga/grumpy/', /challenge/],
  ])('%s: says why in words and writes nothing', async (_name, path, reason) => {
    const proposal = await admin.proposeSite({ url: `${fixture.origin}${path}` })
    expect(proposal).toEqual({ ok: false, reason: expect.stringMatching(reason) })
    expect(existsSync(join(dir.dir, SITES_FILE))).toBe(false)
  })
})

/**
 * sites.json's problems reach the owner (issue #28): a file saved with a byte order mark and comments runs
 * its Sites, and a field given twice or two Sites on one host are said on the Overview — the real app on a real
 * data directory, no Lanes running.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startApp, type RunningApp } from '../app'
import { silentLog } from '../log'
import { FakeClock } from '../testing/clock'
import { tempDir } from '../testing/store'

let app: RunningApp
let dir: { dir: string; remove(): void }

const file = `\uFEFF// the owner's Sites
{
  "sites": [
    /* a Madara site */
    { "key": "harbor", "name": "Harbor Scans", "hosts": ["harbor.example"], "family": "madara" },
    { "key": "lantern", "name": "Lantern", "name": "Lantern Scans", "hosts": ["lantern.example"], "family": "madara" },
    { "key": "mirror", "name": "Mirror", "hosts": ["harbor.example"], "family": "madara" }
  ]
}
`

beforeAll(async () => {
  dir = tempDir()
  writeFileSync(join(dir.dir, 'sites.json'), file)
  app = await startApp({ shell: 'headless', dataDir: dir.dir, port: 0, log: silentLog, clock: new FakeClock(), lanes: false })
})
afterAll(async () => {
  await app.stop()
  dir.remove()
})

it('the Overview lists the field given twice and the shared host; the other Sites run', async () => {
  const overview = await app.api.overview()
  expect(overview.siteProblems).toEqual([
    expect.stringMatching(/sites\.json: site "lantern": field "name": given twice on line 6; this Site is not loaded/),
    expect.stringMatching(
      /sites\.json: host "harbor\.example" is claimed by the Sites "harbor" and "mirror"; a URL on it is matched to "harbor" first/,
    ),
  ])
  expect(app.core.siteProblems).toEqual(overview.siteProblems)
  const keys = app.core.registry.sites.map((s) => s.key)
  expect(keys).toEqual(expect.arrayContaining(['harbor', 'mirror']))
  expect(keys).not.toContain('lantern')
})

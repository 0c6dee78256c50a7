/**
 * `npm run import` of a Mihon backup over Known Sites: the preview names the Sites it adds; --dry-run writes
 * nothing; the import writes them to sites.json and every bookmark, and a second run finds them running.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { writeFile } from 'node:fs/promises'
import { BUILT_IN_SITES } from '../sites/builtin'
import { SITE_FAMILIES } from '../../shared/site-families'
import { loadSites } from '../sites/sites-file'
import { knownSourcesBackup } from '../testing/known-backup'
import { tachibk } from '../testing/library-files'
import { tempDir } from '../testing/store'
import { runImportCommand } from './import'
import { runReaderCommand } from './reader'

const dirs: Array<{ dir: string; remove(): void }> = []
afterEach(() => dirs.splice(0).forEach((d) => d.remove()))

async function run(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runImportCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, { now: () => 1_700_000_000_000 })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('npm run import of a backup over Known Sites', () => {
  it('lists the Sites it adds; --dry-run writes none; the import adds them and all 12 bookmarks', async () => {
    const d = tempDir()
    dirs.push(d)
    await runReaderCommand(['add', 'Aiko', '--data', d.dir], { out: () => {}, err: () => {} })
    const { backup, sites } = knownSourcesBackup(12, 4)
    const file = join(d.dir, 'library.tachibk')
    await writeFile(file, tachibk(backup))

    const dry = await run(file, '--reader', 'Aiko', '--data', d.dir, '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.out).toContain('Adds 4 Sites: ')
    for (const s of sites) expect(dry.out).toContain(`${s.name} (${SITE_FAMILIES[s.family!].name})`)
    expect(existsSync(join(d.dir, 'sites.json'))).toBe(false)

    const real = await run(file, '--reader', 'Aiko', '--data', d.dir)
    expect(real.code).toBe(0)
    expect(real.err).toContain('import: 4 Known Sites added to sites.json')
    expect(real.out).toMatch(/12 bookmarks/)
    const loaded = loadSites(d.dir, BUILT_IN_SITES)
    expect(loaded.problems).toEqual([])
    expect(
      loaded.sites
        .filter((s) => s.origin === 'sites.json')
        .map((s) => s.name)
        .sort(),
    ).toEqual(sites.map((s) => s.name).sort())

    const again = await run(file, '--reader', 'Aiko', '--data', d.dir, '--dry-run')
    expect(again.out).not.toContain('Adds ')
  })
})

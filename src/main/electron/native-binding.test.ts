/**
 * The native SQLite module, as the real main entry chooses it (docs/adr/0082-the-electron-stand-in.md): the
 * build made for Electron when it is there, and a clear message, no data touched, when it is not. A file of
 * its own, so that this process has loaded no other better-sqlite3 build when the test reads which one it
 * loaded (/proc/self/maps: Linux, as this machine).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../testing/clock'
import { tempDir } from '../testing/store'
import { MISSING_NATIVE_MESSAGE, NATIVE_FILE } from './native'
import { ELECTRON_BEHAVIOURS as B } from './testing/behaviours'
import { appDirWithNative, bootElectronShell, type BootedShell } from './testing/boot'
import { InstanceLocks } from './testing/electron-stand-in'

// Each test starts the whole app (a worker thread checks the store): room for a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 })

let root: { dir: string; remove(): void }
const booted: BootedShell[] = []

beforeAll(() => {
  root = tempDir('mb-electron-native-')
  mkdirSync(join(root.dir, 'resources'))
})
afterEach(async () => {
  for (const shell of booted.splice(0)) {
    await shell.quit()
    await shell.running?.stop()
  }
  vi.doUnmock('electron')
})
afterAll(() => root.remove())

async function boot(appDir: string, dataDir: string): Promise<BootedShell> {
  const shell = await bootElectronShell({
    dataDir,
    appDir,
    resourcesDir: join(root.dir, 'resources'),
    locks: new InstanceLocks(),
    clock: new FakeClock(),
    sites: [],
  })
  booted.push(shell)
  return shell
}

describe(B.native, () => {
  it('without the build for Electron the app says so, changes nothing, and exits 1', async () => {
    const bare = join(root.dir, 'bare-app')
    mkdirSync(bare)
    const dataDir = join(root.dir, 'data-missing')
    const shell = await boot(bare, dataDir)
    expect(await shell.standIn.app.exited).toBe(1)
    expect(shell.standIn.errorBoxes).toEqual([{ title: 'Manga Bookmark cannot start', content: MISSING_NATIVE_MESSAGE }])
    expect(MISSING_NATIVE_MESSAGE).toMatch(/npm run rebuild:electron/)
    expect(shell.running).toBeUndefined()
    expect(shell.standIn.windows).toEqual([])
    expect(existsSync(dataDir)).toBe(false)
  })

  it('with it, the store is opened through that build and no other', async () => {
    const appDir = appDirWithNative(root.dir)
    const electronBuild = join(appDir, 'native', 'electron', NATIVE_FILE)
    const shell = await boot(appDir, join(root.dir, 'data'))
    expect(shell.standIn.errorBoxes).toEqual([])
    expect(await shell.running!.api.overview({})).toBeDefined()
    const loaded = readFileSync('/proc/self/maps', 'utf8')
      .split('\n')
      .filter((line) => line.endsWith(NATIVE_FILE))
      .map((line) => line.slice(line.indexOf('/')))
    expect(new Set(loaded)).toEqual(new Set([electronBuild]))
  })
})

import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { electronBinaryPath } from './electron-binary'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'mb-start-'))
  dirs.push(d)
  return d
}

describe('finding the Electron binary by its files', () => {
  it('is null without path.txt, without the file it names, and found when both exist', () => {
    const root = temp()
    expect(electronBinaryPath(root, {})).toBeNull()
    mkdirSync(join(root, 'node_modules/electron/dist'), { recursive: true })
    writeFileSync(join(root, 'node_modules/electron/path.txt'), 'electron')
    expect(electronBinaryPath(root, {})).toBeNull()
    writeFileSync(join(root, 'node_modules/electron/dist/electron'), '')
    expect(electronBinaryPath(root, {})).toBe(join(root, 'node_modules/electron/dist/electron'))
  })
})

describe('npm start without the Electron binary', () => {
  it('says so in one line and runs the headless shell instead', async () => {
    const data = temp()
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--data', data, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Whatever this machine has, make the binary absent.
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: join(data, 'no-electron-here'), MB_LOG_LEVEL: 'warn' },
    })
    let out = ''
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString()
        if (/serving http:\/\/127\.0\.0\.1:\d+/.test(out)) resolve()
      })
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
    })
    child.kill('SIGTERM')
    const lines = out.trim().split('\n')
    expect(lines[0]).toBe('start: the Electron binary is not installed here; running the headless shell instead (npm run headless).')
    // (A stale build is rebuilt first, and says so, and when it is done.) Then what it is doing, then where it serves.
    const after = lines.slice(1).filter((l) => !l.startsWith('building the app') && !/^built in \d+ s\.$/.test(l))
    expect(after[0]).toMatch(/^manga-bookmark: starting: opening and checking the database in .*, then the Lanes…$/)
    expect(after[1]).toMatch(/^manga-bookmark: data .*manga-bookmark\.sqlite · serving http:\/\/127\.0\.0\.1:\d+ \(port \d+\)$/)
  })
})

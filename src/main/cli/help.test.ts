/**
 * `--help` for every command the project's package.json names: each prints its usage and exits 0, without
 * doing anything else. A command added without it fails here. Real processes, as `npm run X -- --help` runs them.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { wantsHelp } from './help'

const ROOT = join(import.meta.dirname, '../../..')
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
/** The toolchain's own commands (they have their own --help), not the app's. */
const TOOLS = new Set(['build', 'typecheck', 'test', 'test:watch', 'test:unit', 'test:e2e', 'test:mutation', 'lint', 'format', 'dist'])
/** The headless shell's npm script runs its build; its source entry answers the same. */
const ENTRY_OVERRIDES: Record<string, string> = { headless: 'src/main/headless/cli.ts' }

function entryOf(name: string, command: string): string {
  const entry = ENTRY_OVERRIDES[name] ?? command.split(/\s+/).findLast((word) => /\.(ts|mjs)$/.test(word))
  if (!entry) throw new Error(`package.json: script "${name}": no entry file to ask for --help`)
  return entry
}

function run(entry: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry, '--help'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (out += c.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, out }))
  })
}

describe('--help', () => {
  it('is asked for by --help or -h, not after --', () => {
    expect(wantsHelp(['--help'])).toBe(true)
    expect(wantsHelp(['add', 'x', '-h'])).toBe(true)
    expect(wantsHelp(['add', '--', '--help'])).toBe(false)
    expect(wantsHelp(['--helpful'])).toBe(false)
  })

  const commands = Object.entries(scripts).filter(([name]) => !TOOLS.has(name))
  it.each(commands)('npm run %s -- --help prints its usage and exits 0', { timeout: 30_000 }, async (name, command) => {
    const { code, out } = await run(entryOf(name, command))
    expect(code, out).toBe(0)
    expect(out).toContain(`npm ${name === 'start' ? 'start' : `run ${name}`}`)
    expect(out).not.toMatch(/Unknown option|TypeError|Error:/)
  })
})

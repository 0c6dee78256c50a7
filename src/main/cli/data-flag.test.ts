/**
 * `--data FILE` — a file given where the data directory belongs — is said plainly by every command and shell,
 * with the usage exit code, and nothing is made or changed (it used to surface as a raw `EEXIST` from mkdir).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseHeadlessArgs, parseShellArgs } from '../shell-args'
import { runBackupCommand } from './backup'
import { runExportCommand } from './export'
import { runImportCommand } from './import'
import { runReaderCommand } from './reader'
import { runRestoreCommand } from './restore'

let dir: string
let file: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mb-data-flag-'))
  file = join(dir, 'not-a-dir')
  writeFileSync(file, 'kept')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('--data naming a file', () => {
  const commands: Array<[string, (argv: string[], io: { out(l: string): void; err(l: string): void }) => Promise<number>]> = [
    ['export', (argv, io) => runExportCommand(argv, io)],
    ['backup', (argv, io) => runBackupCommand(argv, io)],
    ['reader', (argv, io) => runReaderCommand(['list', ...argv], io)],
    ['import', (argv, io) => runImportCommand([join(dir, 'missing.json'), ...argv], io)],
    ['restore', (argv, io) => runRestoreCommand(['--latest', ...argv], io)],
  ]
  it.each(commands)('npm run %s says it must be a directory, exits 2 and changes nothing', async (name, run) => {
    const lines: string[] = []
    const code = await run(['--data', file], { out: (l) => lines.push(l), err: (l) => lines.push(l) })
    expect(code).toBe(2)
    expect(lines).toEqual([`${name}: --data must be a directory: ${file} is a file`])
    expect(readFileSync(file, 'utf8')).toBe('kept')
    expect(readdirSync(dir)).toEqual(['not-a-dir'])
  })
  it('the shells refuse it while reading their arguments', () => {
    expect(() => parseShellArgs(['--data', file], 'electron')).toThrow(`--data must be a directory: ${file} is a file`)
    expect(() => parseHeadlessArgs(['--data', file], {})).toThrow(`--data must be a directory: ${file} is a file`)
  })
  it('a directory that does not exist yet is still fine: the app makes it', () => {
    expect(parseHeadlessArgs(['--data', join(dir, 'new')], {}).dataDir).toBe(join(dir, 'new'))
  })
})

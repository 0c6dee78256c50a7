/**
 * The packaging config flips Electron's fuses (docs/adr/0044-electron-hardening.md). Packaging cannot run
 * here (it downloads Electron), so the config itself is read: a fuse missing or turned back fails this.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/** The `key: value` lines of a top-level block of a YAML file (enough for this flat block). */
function yamlBlock(text: string, name: string): Record<string, string> {
  const lines = text.split('\n')
  const start = lines.findIndex((line) => line.trimEnd() === `${name}:`)
  if (start === -1) return {}
  const block: Record<string, string> = {}
  for (const line of lines.slice(start + 1)) {
    const entry = /^\s+([A-Za-z]+):\s*(\S+)\s*(?:#.*)?$/.exec(line)
    if (!entry) break
    block[entry[1]!] = entry[2]!
  }
  return block
}

describe('the packaged Electron binary', () => {
  const config = readFileSync(join(import.meta.dirname, '..', 'electron-builder.yml'), 'utf8')

  it('cannot run as Node, takes no Node options or inspector, loads only its checked app.asar, encrypts cookies', () => {
    expect(yamlBlock(config, 'electronFuses')).toEqual({
      runAsNode: 'false',
      enableCookieEncryption: 'true',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      enableEmbeddedAsarIntegrityValidation: 'true',
      onlyLoadAppFromAsar: 'true',
    })
  })

  it('packs the app into an asar (the integrity check has something to check)', () => {
    expect(config).not.toMatch(/^asar:\s*false/m)
  })
})

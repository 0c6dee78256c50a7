/**
 * `npm install` is quiet on the Node the README names (issue #27): every package in the lock accepts Node 22.22.2
 * and 24.15 — the first releases of the two LTS lines that every one of them does — and package.json's engines
 * name those lines, plus the Node 20.19 the project is also tested on (where a few build and test tools warn).
 * A dependency bumped to one that wants a newer Node fails here, not in a newcomer's terminal.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, any>
const README_NODES = ['22.22.2', '24.15.0']

describe('the Node versions the README names', () => {
  it('every locked package accepts them: no engine warning from npm install', () => {
    const lock = read('package-lock.json')
    const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } | string[] }>)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined
        return README_NODES.filter((node) => range && !semver.satisfies(node, range)).map((node) => `${path} (${range}) refuses ${node}`)
      })
    expect(refusing).toEqual([])
  })

  it("package.json's engines take them, and the README names them", () => {
    const engines = read('package.json').engines.node as string
    for (const node of README_NODES) expect(semver.satisfies(node, engines)).toBe(true)
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(readme).toContain('Node 22.22.2')
    expect(readme).toContain('24.15')
  })
})

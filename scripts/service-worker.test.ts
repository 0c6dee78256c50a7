import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CACHE_VERSION_PLACEHOLDER, cacheVersion, versionedWorker } from './service-worker'

const worker = readFileSync(join(import.meta.dirname, '../src/renderer/reader/service-worker.js'), 'utf8')
const build = ['reader.html', 'assets/reader-Bc_dkTk5.js', 'assets/reader-YMen3-2u.css']

describe("the service worker's cache version", () => {
  it('is the same for the same build, in any order of its files', () => {
    expect(cacheVersion(worker, build)).toBe(cacheVersion(worker, [...build].reverse()))
    expect(cacheVersion(worker, build)).toMatch(/^[0-9a-f]{12}$/)
  })

  it('changes with an asset of the build, and with the worker itself', () => {
    const version = cacheVersion(worker, build)
    expect(cacheVersion(worker, [...build.slice(0, 2), 'assets/reader-Zz0000000.css'])).not.toBe(version)
    expect(cacheVersion(`${worker}\n// changed`, build)).not.toBe(version)
  })

  it("names the worker's cache after the build", () => {
    const written = versionedWorker(worker, build)
    expect(written).not.toContain(CACHE_VERSION_PLACEHOLDER)
    expect(written).toContain(`const CACHE = 'mb-reader-${cacheVersion(worker, build)}'`)
  })

  it('refuses a worker whose cache name could never change', () => {
    expect(() => versionedWorker("const CACHE = 'mb-reader-v1'", build)).toThrow(/names no __MB_CACHE_VERSION__/)
  })
})

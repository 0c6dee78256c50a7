/** The build's stand-in for `glob` (electron.vite.config.ts) finds what the package finds. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { glob as real } from 'glob'
import { afterAll, expect, it } from 'vitest'
import { glob } from './glob-on-first-use'

const dir = mkdtempSync(join(tmpdir(), 'mb-glob-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('lists the files the package lists, with the options @fastify/static passes', async () => {
  mkdirSync(join(dir, 'a/b'), { recursive: true })
  for (const file of ['x.js', 'a/y.css', 'a/b/z.png', '.hidden']) writeFileSync(join(dir, file), file)
  const options = { cwd: `${dir}/`, absolute: false, follow: true, nodir: true, dot: false }
  const found = (await glob('**/**', options)).sort()
  expect(found).toEqual(['a/b/z.png', 'a/y.css', 'x.js'])
  expect(found).toEqual((await real('**/**', options)).sort())
})

import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openStore } from '../store/database'
import { readerByName } from '../store/readers'
import { hashToken } from '../use-cases/reader-tokens'
import { tempDir } from '../testing/store'
import { runReaderCommand } from './reader'

const dirs: Array<{ dir: string; remove(): void }> = []
afterEach(() => dirs.splice(0).forEach((d) => d.remove()))

async function run(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runReaderCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, {}, 1_000)
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('npm run reader', () => {
  it('add prints the token once and stores only its SHA-256', async () => {
    const d = tempDir()
    dirs.push(d)
    const added = await run('add', 'Aiko', '--data', d.dir)
    expect(added.code).toBe(0)
    const token = added.out.split('\n').at(-1)!
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const store = openStore(join(d.dir, 'manga-bookmark.sqlite'), { now: 1 })
    const row = await readerByName(store.db, 'Aiko')
    await store.close()
    expect(row?.token_hash).toBe(hashToken(token))
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(token)
  })

  it('rotate replaces the token; list shows Readers without tokens; remove removes', async () => {
    const d = tempDir()
    dirs.push(d)
    const first = (await run('add', 'Ben', '--data', d.dir)).out.split('\n').at(-1)!
    const rotated = await run('rotate', 'Ben', '--data', d.dir)
    expect(rotated.code).toBe(0)
    const second = rotated.out.split('\n').at(-1)!
    expect(second).not.toBe(first)
    const list = await run('list', '--data', d.dir)
    expect(list.out).toMatch(/Ben/)
    expect(list.out).not.toContain(second)
    expect((await run('remove', 'Ben', '--data', d.dir)).code).toBe(0)
    expect((await run('list', '--data', d.dir)).out).toMatch(/No Readers yet/)
  })

  it.each([
    [['add'], 2, /usage/],
    [['frobnicate', 'x'], 2, /usage/],
    [['rotate', 'Nobody'], 1, /no Reader "Nobody"/],
    [['add', '<script>'], 1, /a Reader name is/],
  ])('refuses %j', async (argv, code, message) => {
    const d = tempDir()
    dirs.push(d)
    const r = await run(...argv, '--data', d.dir)
    expect(r.code).toBe(code)
    expect(r.err).toMatch(message)
  })

  it('refuses a second Reader of the same name', async () => {
    const d = tempDir()
    dirs.push(d)
    await run('add', 'Cai', '--data', d.dir)
    const again = await run('add', 'Cai', '--data', d.dir)
    expect(again).toMatchObject({ code: 1, err: expect.stringMatching(/already exists/) })
  })
})

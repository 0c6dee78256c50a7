/**
 * The owner's files at their edges (docs/security.md#another-local-user): what is private already is left as it
 * is and said to be, only the group and other bits are taken, and a file that cannot be made is an error.
 */
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeReadOnly } from '../testing/faults'
import { tempDir } from '../testing/store'
import { ensurePrivateDir, preparePrivateFile, tightenFile } from './private-files'

const modeOf = (path: string) => statSync(path).mode & 0o777
const dirs: Array<{ remove(): void }> = []
afterEach(() => dirs.splice(0).forEach((d) => d.remove()))
function fresh(): string {
  const d = tempDir('mb-private-')
  dirs.push(d)
  return d.dir
}

describe('a private directory', () => {
  it('made new, and its missing parents, are 0700, and nothing is said', () => {
    const dir = join(fresh(), 'a', 'b')
    expect(ensurePrivateDir(dir)).toBeNull()
    expect(modeOf(dir)).toBe(0o700)
    expect(modeOf(join(dir, '..'))).toBe(0o700)
  })

  it('that others could enter loses their bits only, and says what it had', () => {
    const dir = fresh()
    chmodSync(dir, 0o751)
    expect(ensurePrivateDir(dir)).toEqual({ from: 0o751 })
    expect(modeOf(dir)).toBe(0o700)
    chmodSync(dir, 0o500 | 0o004)
    expect(ensurePrivateDir(dir)).toEqual({ from: 0o504 })
    expect(modeOf(dir)).toBe(0o500)
    chmodSync(dir, 0o700)
  })

  it("whose mode cannot be changed (another user's, or immutable) says what it had and why; it is used all the same", (ctx) => {
    const dir = fresh()
    chmodSync(dir, 0o755)
    const frozen = makeReadOnly(dir)
    if ('skip' in frozen) return ctx.skip(frozen.skip)
    try {
      expect(ensurePrivateDir(dir)).toEqual({ from: 0o755, error: expect.stringMatching(/operation not permitted|EPERM/i) })
      expect(modeOf(dir)).toBe(0o755)
    } finally {
      frozen.undo()
    }
  })

  it('private already is left alone', () => {
    const dir = fresh()
    chmodSync(dir, 0o500)
    expect(ensurePrivateDir(dir)).toBeNull()
    expect(modeOf(dir)).toBe(0o500)
    chmodSync(dir, 0o700)
  })
})

describe('a private file', () => {
  it('made new is 0600 and empty; one that exists keeps its content and loses only the bits of others', () => {
    const dir = fresh()
    preparePrivateFile(join(dir, 'new'))
    expect(modeOf(join(dir, 'new'))).toBe(0o600)
    expect(statSync(join(dir, 'new')).size).toBe(0)
    writeFileSync(join(dir, 'old'), 'kept', { mode: 0o744 })
    chmodSync(join(dir, 'old'), 0o744)
    preparePrivateFile(join(dir, 'old'))
    expect(modeOf(join(dir, 'old'))).toBe(0o700)
    expect(statSync(join(dir, 'old')).size).toBe(4)
  })

  it('in a folder that does not exist is an error, and nothing is made', () => {
    const dir = join(fresh(), 'missing')
    expect(() => preparePrivateFile(join(dir, 'file'))).toThrow(expect.objectContaining({ code: 'ENOENT' }))
    expect(existsSync(dir)).toBe(false)
  })

  it('tightened when private already, or when missing, is left as it is', () => {
    const dir = fresh()
    writeFileSync(join(dir, 'mine'), '', { mode: 0o400 })
    tightenFile(join(dir, 'mine'))
    expect(modeOf(join(dir, 'mine'))).toBe(0o400)
    tightenFile(join(dir, 'nothing'))
    expect(existsSync(join(dir, 'nothing'))).toBe(false)
    mkdirSync(join(dir, 'sub'), { mode: 0o755 })
    tightenFile(join(dir, 'sub'))
    expect(modeOf(join(dir, 'sub'))).toBe(0o700)
  })
})

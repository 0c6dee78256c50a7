import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listReaders } from '../store/readers'
import { failingWhen } from '../testing/fakes'
import { openTestStore, type TestStore } from '../testing/store'
import { createReader, deleteReader, findReader, hashToken, readerForToken, rotateToken } from './reader-tokens'

let store: TestStore
beforeEach(() => {
  store = openTestStore()
})
afterEach(() => store.dispose())

const storedHashes = async () => (await store.db.selectFrom('readers').select('token_hash').execute()).map((r) => r.token_hash)

describe('Reader tokens', () => {
  it('a token is stored only as its lowercase hex SHA-256', async () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    const { reader, token } = await createReader(store.db, 'aiko', 5)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(reader).toMatchObject({ name: 'aiko', created_at: 5, token_hash: hashToken(token) })
    expect(await storedHashes()).toEqual([hashToken(token)])
  })

  it('the token finds its Reader; another, an empty or an overlong one finds nobody', async () => {
    const { reader, token } = await createReader(store.db, 'aiko', 5)
    expect((await readerForToken(store.db, token))?.id).toBe(reader.id)
    expect(await readerForToken(store.db, `${token}x`)).toBeUndefined()
    expect(await readerForToken(store.db, '')).toBeUndefined()
  })

  it('a token longer than 200 characters is refused unhashed, even one whose hash is stored; 200 is read', async () => {
    const { reader } = await createReader(store.db, 'aiko', 5)
    const long = 'x'.repeat(201)
    await store.db
      .updateTable('readers')
      .set({ token_hash: hashToken(long) })
      .execute()
    expect(await readerForToken(store.db, long)).toBeUndefined()
    const longest = 'x'.repeat(200)
    await store.db
      .updateTable('readers')
      .set({ token_hash: hashToken(longest) })
      .execute()
    expect((await readerForToken(store.db, longest))?.id).toBe(reader.id)
  })

  it('two Readers get different tokens', async () => {
    const a = await createReader(store.db, 'aiko', 5)
    const b = await createReader(store.db, 'bo', 5)
    expect(a.token).not.toBe(b.token)
  })
})

describe('Reader names', () => {
  it('are trimmed', async () => {
    expect((await createReader(store.db, '  Aiko Tanaka ', 1)).reader.name).toBe('Aiko Tanaka')
  })

  it.each([
    ['empty', '   '],
    ['starting with a sign', '-aiko'],
    ['longer than 40', 'a'.repeat(41)],
    ['with a slash', 'a/b'],
  ])('%s: refused as invalid, and no Reader is added', async (_name, name) => {
    await expect(createReader(store.db, name, 1)).rejects.toMatchObject({
      code: 'invalid',
      message: "a Reader name is 1–40 letters, digits, spaces or . _ ' -",
    })
    expect(await listReaders(store.db)).toEqual([])
  })

  it('a name taken is a conflict that names it (trimmed)', async () => {
    await createReader(store.db, 'aiko', 1)
    await expect(createReader(store.db, ' aiko ', 2)).rejects.toMatchObject({
      code: 'conflict',
      message: 'a Reader named "aiko" already exists',
    })
    expect(await listReaders(store.db)).toHaveLength(1)
  })

  it('a store failure other than a conflict is passed on as it is', async () => {
    const failing = failingWhen(store.db, (node) => node.includes('InsertQueryNode'))
    await expect(createReader(failing, 'aiko', 1)).rejects.toThrow('injected failure')
  })
})

describe('rotating and deleting', () => {
  it('rotation issues a new token; the old one stops working at once', async () => {
    const { reader, token: old } = await createReader(store.db, 'aiko', 1)
    const rotated = await rotateToken(store.db, reader.id)
    expect(rotated.token).not.toBe(old)
    expect(rotated.reader).toMatchObject({ id: reader.id, token_hash: hashToken(rotated.token) })
    expect(await readerForToken(store.db, old)).toBeUndefined()
    expect((await readerForToken(store.db, rotated.token))?.id).toBe(reader.id)
  })

  it('a Reader who is not there is not-found, for rotation and deletion, and the other Readers keep their tokens', async () => {
    const { reader, token } = await createReader(store.db, 'aiko', 1)
    await expect(rotateToken(store.db, 99)).rejects.toMatchObject({ code: 'not-found', message: 'no Reader 99' })
    await expect(deleteReader(store.db, 99)).rejects.toMatchObject({ code: 'not-found', message: 'no Reader 99' })
    expect(await storedHashes()).toEqual([hashToken(token)])
    expect((await readerForToken(store.db, token))?.id).toBe(reader.id)
  })

  it('deletion removes the Reader and ends their token', async () => {
    const { reader, token } = await createReader(store.db, 'aiko', 1)
    await deleteReader(store.db, reader.id)
    expect(await listReaders(store.db)).toEqual([])
    expect(await readerForToken(store.db, token)).toBeUndefined()
  })
})

describe('finding a Reader by name or id (the reader command)', () => {
  it('by name, and by id', async () => {
    const { reader } = await createReader(store.db, 'aiko', 1)
    expect((await findReader(store.db, 'aiko'))?.id).toBe(reader.id)
    expect((await findReader(store.db, String(reader.id)))?.name).toBe('aiko')
    expect(await findReader(store.db, 'nobody')).toBeUndefined()
  })

  it('a name of digits that is no id is read as a name', async () => {
    const { reader } = await createReader(store.db, '2024', 1)
    expect((await findReader(store.db, '2024'))?.id).toBe(reader.id)
  })

  it('ids of several digits are ids', async () => {
    for (let i = 0; i < 12; i++) await createReader(store.db, `r${i}`, 1)
    expect((await findReader(store.db, '12'))?.name).toBe('r11')
  })

  it('only all digits are an id: "0x1", " 1" and "1 " are names, never Reader 1', async () => {
    await createReader(store.db, 'aiko', 1)
    for (const text of ['0x1', ' 1', '1 ', '1e0']) expect(await findReader(store.db, text)).toBeUndefined()
  })
})

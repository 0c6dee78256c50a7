import BetterSqlite3 from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migrations } from '../../../migrations'
import { migrate } from '../store/migrate'
import { MAX_DEVICES, readerDevices, SEEN_EVERY_MS } from '../store/reader-devices'
import { openTestStore, type TestStore } from '../testing/store'
import {
  addDeviceToken,
  createReader,
  deleteReader,
  deviceForToken,
  endDevice,
  hashToken,
  noteSeen,
  readerForToken,
  rotateToken,
} from './reader-tokens'

let store: TestStore
beforeEach(() => {
  store = openTestStore()
})
afterEach(() => store.dispose())

describe("a Reader's devices", () => {
  it('a new Reader has one device, their token; the device is stored by hash only', async () => {
    const { reader, token } = await createReader(store.db, 'aiko', 5)
    const devices = await readerDevices(store.db, reader.id)
    expect(devices).toEqual([
      expect.objectContaining({ name: 'First device', token_hash: hashToken(token), created_at: 5, last_seen_at: 0 }),
    ])
    const found = await deviceForToken(store.db, token)
    expect(found?.reader.id).toBe(reader.id)
    expect(found?.device.id).toBe(devices[0]!.id)
  })

  it('adding a device gives a token of its own and ends no other', async () => {
    const { reader, token: first } = await createReader(store.db, 'aiko', 5)
    const second = await addDeviceToken(store.db, { readerId: reader.id, now: 10 })
    const third = await addDeviceToken(store.db, { readerId: reader.id, name: ' Tablet ', now: 11 })
    expect(new Set([first, second.token, third.token]).size).toBe(3)
    for (const token of [first, second.token, third.token]) expect((await readerForToken(store.db, token))?.id).toBe(reader.id)
    expect((await readerDevices(store.db, reader.id)).map((d) => d.name)).toEqual(['First device', 'Device 2', 'Tablet'])
    expect(second.device).toMatchObject({ token_hash: hashToken(second.token), created_at: 10 })
    const hashes = (await store.db.selectFrom('reader_devices').select('token_hash').execute()).map((r) => r.token_hash)
    expect(hashes).not.toContain(second.token)
  })

  it('ending a device ends its token alone; another Reader cannot end it', async () => {
    const { reader, token: first } = await createReader(store.db, 'aiko', 5)
    const other = await createReader(store.db, 'bo', 5)
    const second = await addDeviceToken(store.db, { readerId: reader.id, now: 10 })
    await expect(endDevice(store.db, other.reader.id, second.device.id)).rejects.toMatchObject({ code: 'not-found' })
    await endDevice(store.db, reader.id, second.device.id)
    expect(await readerForToken(store.db, second.token)).toBeUndefined()
    expect((await readerForToken(store.db, first))?.id).toBe(reader.id)
    await expect(endDevice(store.db, reader.id, second.device.id)).rejects.toMatchObject({ code: 'not-found' })
  })

  it('rotating the token ends every device; the new token is the only one', async () => {
    const { reader, token: first } = await createReader(store.db, 'aiko', 5)
    const second = await addDeviceToken(store.db, { readerId: reader.id, now: 10 })
    const rotated = await rotateToken(store.db, reader.id, 20)
    expect(await readerForToken(store.db, first)).toBeUndefined()
    expect(await readerForToken(store.db, second.token)).toBeUndefined()
    expect((await readerForToken(store.db, rotated.token))?.id).toBe(reader.id)
    expect(await readerDevices(store.db, reader.id)).toEqual([
      expect.objectContaining({ name: 'First device', token_hash: hashToken(rotated.token), created_at: 20 }),
    ])
  })

  it('a bad device name, a Reader not there, or one device too many is refused and changes nothing', async () => {
    const { reader } = await createReader(store.db, 'aiko', 5)
    await expect(addDeviceToken(store.db, { readerId: reader.id, name: '<script>', now: 6 })).rejects.toMatchObject({ code: 'invalid' })
    await expect(addDeviceToken(store.db, { readerId: 999, now: 6 })).rejects.toMatchObject({ code: 'not-found' })
    for (let i = 1; i < MAX_DEVICES; i++) await addDeviceToken(store.db, { readerId: reader.id, now: 6 })
    await expect(addDeviceToken(store.db, { readerId: reader.id, now: 6 })).rejects.toMatchObject({ code: 'conflict' })
    expect(await readerDevices(store.db, reader.id)).toHaveLength(MAX_DEVICES)
  })

  it('removing the Reader removes their devices', async () => {
    const { reader } = await createReader(store.db, 'aiko', 5)
    const second = await addDeviceToken(store.db, { readerId: reader.id, now: 10 })
    await deleteReader(store.db, reader.id)
    expect(await readerForToken(store.db, second.token)).toBeUndefined()
    expect(await store.db.selectFrom('reader_devices').selectAll().execute()).toEqual([])
  })

  it('a device is noted as seen at most once a minute, and at once when its note is from the future', async () => {
    const { reader, token } = await createReader(store.db, 'aiko', 5)
    const seen = async () => (await readerDevices(store.db, reader.id))[0]!.last_seen_at
    const at = async (now: number) => noteSeen(store.db, (await deviceForToken(store.db, token))!.device, now)
    await at(1_000_000)
    expect(await seen()).toBe(1_000_000)
    await at(1_000_000 + SEEN_EVERY_MS - 1)
    expect(await seen()).toBe(1_000_000)
    await at(1_000_000 + SEEN_EVERY_MS)
    expect(await seen()).toBe(1_000_000 + SEEN_EVERY_MS)
    await at(500_000)
    expect(await seen()).toBe(500_000)
  })
})

describe('the migration to devices', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mb-devices-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it("a Reader's token from before the migration is their first device and keeps working", () => {
    const sqlite = new BetterSqlite3(join(dir, 'db.sqlite'))
    try {
      // Every migration before the one that brings devices (found by what it makes: its number may change at a merge).
      const before = migrations.slice(
        0,
        migrations.findIndex((m) => m.up.includes('CREATE TABLE reader_devices')),
      )
      migrate(sqlite, null, 1, before)
      sqlite.prepare('INSERT INTO readers (name, token_hash, created_at) VALUES (?, ?, ?)').run('aiko', hashToken('old-token'), 7)
      migrate(sqlite, null, 2, migrations)
      const rows = sqlite.prepare('SELECT reader_id, name, token_hash, created_at, last_seen_at FROM reader_devices').all()
      expect(rows).toEqual([{ reader_id: 1, name: 'First device', token_hash: hashToken('old-token'), created_at: 7, last_seen_at: 0 }])
      // A Reader written straight into the table (an outside tool) gets their first device too.
      sqlite.prepare('INSERT INTO readers (name, token_hash, created_at) VALUES (?, ?, ?)').run('bo', hashToken('bo-token'), 8)
      expect(sqlite.prepare('SELECT token_hash FROM reader_devices WHERE reader_id = 2').get()).toEqual({
        token_hash: hashToken('bo-token'),
      })
    } finally {
      sqlite.close()
    }
  })
})

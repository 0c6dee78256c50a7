/**
 * The admin operations on Readers and their sign-in: the Readers list with their devices, a new Reader, a rotated
 * token (every device ended), one more device (docs/adr/0126-devices-not-tokens.md), one device ended, a removal.
 * A new token is shown once, with the sign-in link that carries it (docs/adr/0087-sign-in-links-that-end.md).
 */
import type { AdminApi, ReaderDeviceView } from '../../shared/admin-api'
import { readerAddress } from '../server/addresses'
import { bookmarkCounts } from '../store/bookmarks'
import { allDevices } from '../store/reader-devices'
import { listReaders } from '../store/readers'
import type { ReaderDeviceRow, ReaderRow } from '../store/schema'
import { addDeviceToken, createReader, deleteReader, endDevice, rotateToken } from '../use-cases/reader-tokens'
import type { AdminScope } from './admin-scope'

type ReaderOperations = Pick<
  AdminApi,
  'readers' | 'addReader' | 'rotateReaderToken' | 'addReaderDevice' | 'endReaderDevice' | 'removeReader'
>

const deviceView = (d: ReaderDeviceRow): ReaderDeviceView => ({
  id: d.id,
  name: d.name,
  createdAt: d.created_at,
  lastSeenAt: d.last_seen_at,
})

export function readerOperations(scope: AdminScope): ReaderOperations {
  const { ctx, db, now } = scope

  async function readerViews() {
    const [readers, counts, devices] = await Promise.all([listReaders(db), bookmarkCounts(db), allDevices(db)])
    return readers.map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: r.created_at,
      bookmarks: counts.get(r.id) ?? 0,
      devices: (devices.get(r.id) ?? []).map(deviceView),
    }))
  }

  const issued = async (result: { reader: ReaderRow; token: string; device?: ReaderDeviceRow }) => ({
    reader: (await readerViews()).find((r) => r.id === result.reader.id)!,
    ...(result.device ? { device: deviceView(result.device) } : {}),
    token: result.token,
    address: readerAddress(
      ctx.listening(),
      ctx.readerCodes ? `code=${ctx.readerCodes.issue(result.token).code}` : `token=${encodeURIComponent(result.token)}`,
    ),
  })

  return {
    readers: () => readerViews(),
    async addReader(input) {
      return issued(await createReader(db, input.name, now()))
    },
    async rotateReaderToken(input) {
      return issued(await rotateToken(db, input.readerId, now()))
    },
    async addReaderDevice(input) {
      return issued(await addDeviceToken(db, { readerId: input.readerId, name: input.name, now: now() }))
    },
    async endReaderDevice(input) {
      await endDevice(db, input.readerId, input.deviceId)
      return readerViews()
    },
    async removeReader(input) {
      await deleteReader(db, input.readerId)
      return readerViews()
    },
  }
}

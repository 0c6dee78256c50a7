/**
 * The admin operations on Readers and their sign-in: the Readers list, a new Reader, a rotated token, a removal.
 * A new or rotated token is shown once, with the sign-in link that carries it (docs/adr/0087-sign-in-links-that-end.md).
 */
import type { AdminApi } from '../../shared/admin-api'
import { readerAddress } from '../server/addresses'
import { bookmarkCounts } from '../store/bookmarks'
import { listReaders } from '../store/readers'
import { createReader, deleteReader, rotateToken } from '../use-cases/reader-tokens'
import type { AdminScope } from './admin-scope'

type ReaderOperations = Pick<AdminApi, 'readers' | 'addReader' | 'rotateReaderToken' | 'removeReader'>

export function readerOperations(scope: AdminScope): ReaderOperations {
  const { ctx, db, now } = scope

  async function readerViews() {
    const [readers, counts] = await Promise.all([listReaders(db), bookmarkCounts(db)])
    return readers.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, bookmarks: counts.get(r.id) ?? 0 }))
  }

  const issued = async (result: Awaited<ReturnType<typeof createReader>>) => ({
    reader: {
      id: result.reader.id,
      name: result.reader.name,
      createdAt: result.reader.created_at,
      bookmarks: (await bookmarkCounts(db)).get(result.reader.id) ?? 0,
    },
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
      return issued(await rotateToken(db, input.readerId))
    },
    async removeReader(input) {
      await deleteReader(db, input.readerId)
      return readerViews()
    },
  }
}

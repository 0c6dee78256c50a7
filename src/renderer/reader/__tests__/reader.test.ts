import { describe, expect, it } from 'vitest'
import type { Bookmark } from '../../../shared/sync-schemas'
import { inOrder, keyOf, matches, orderOf } from '../order'
import { Outbox, withPendingWrites, type PendingWrite, type SendResult } from '../outbox'

const memory = () => {
  const data = new Map<string, string>()
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) }
}

describe('the outbox holds a Mark read while it can be undone', () => {
  it('sends nothing from a held write on, in order; sends it once its time has come; Undo takes it out unsent', async () => {
    const sent: string[] = []
    const outbox = new Outbox(memory(), async (w: PendingWrite): Promise<SendResult> => {
      sent.push(w.label)
      return 'done'
    })
    const held = outbox.add({ method: 'PATCH', path: '/a', label: 'mark a', holdUntil: 2_000 }, 1_000)
    outbox.add({ method: 'PATCH', path: '/b', label: 'mark b' }, 1_000)
    expect(await outbox.flush(1_500)).toMatchObject({ sent: 0 })
    expect(sent).toEqual([])
    expect(outbox.remove(held.id)).toBe(true)
    expect(outbox.remove(held.id)).toBe(false)
    await outbox.flush(1_600)
    expect(sent).toEqual(['mark b'])
  })

  it('a held write goes when its time has come', async () => {
    const sent: string[] = []
    const outbox = new Outbox(memory(), async (w) => (sent.push(w.label), 'done'))
    outbox.add({ method: 'PATCH', path: '/a', label: 'mark a', holdUntil: 2_000 }, 1_000)
    await outbox.flush(2_000)
    expect(sent).toEqual(['mark a'])
    expect(outbox.list()).toEqual([])
  })
})

const bookmark = (seriesId: string, title: string, over: Partial<Bookmark> = {}, series: Partial<Bookmark['series']> = {}): Bookmark => ({
  site: 's',
  seriesId,
  status: 'reading',
  progress: 1,
  progressAt: 0,
  createdAt: 0,
  updatedAt: 0,
  unread: false,
  unreadCount: 0,
  nextChapter: null,
  expectedAt: null,
  series: {
    title,
    url: '',
    latestChapter: 1,
    latestChapterLabel: '',
    latestChapterUrl: '',
    latestSource: 'check',
    latestChangedAt: 0,
    latestCheckedAt: 1,
    finished: false,
    ...series,
  },
  ...over,
})

describe("the Readers' page order", () => {
  const a = bookmark('a', 'Alpha')
  const b = bookmark('b', 'Beta', { unread: true, unreadCount: 2 }, { latestChangedAt: 10 })
  const c = bookmark('c', 'Gamma', { unread: true, unreadCount: 1 }, { latestChangedAt: 20 })

  it('New Chapters first, the latest to move first, then by title; or by title; or by the latest change', () => {
    expect(orderOf([a, b, c], 'new')).toEqual([c, b, a].map(keyOf))
    expect(orderOf([c, b, a], 'title')).toEqual([a, b, c].map(keyOf))
    expect(orderOf([a, b, c], 'updated')).toEqual([c, b, a].map(keyOf))
  })

  it('a kept order holds a card that was marked read where it was; new ones come last, gone ones go', () => {
    const order = orderOf([a, b, c], 'new')
    const readB = { ...b, unread: false, unreadCount: 0 }
    const d = bookmark('d', 'Delta')
    expect(inOrder([a, readB, d], order).map((x) => x.seriesId)).toEqual(['b', 'a', 'd'])
  })

  it('a search matches every word in the title, Site or id', () => {
    expect(matches(b, 'bet')).toBe(true)
    expect(matches(b, 'BETA s')).toBe(true)
    expect(matches(b, 'beta x')).toBe(false)
  })
})

describe('queued writes drawn over the list kept for offline', () => {
  const write = (method: PendingWrite['method'], seriesId: string, body?: unknown): PendingWrite => ({
    id: seriesId + method,
    method,
    path: `/api/v1/bookmarks/s/${encodeURIComponent(seriesId)}`,
    ...(body ? { body } : {}),
    label: '',
    queuedAt: 0,
  })
  const list = [
    bookmark('a', 'Alpha', { progress: 10, progressAt: 100, unread: true, unreadCount: 46 }, { latestChapter: 56 }),
    bookmark('b c', 'Beta', {}),
    bookmark('d', 'Delta', {}),
  ]

  it('a queued Mark read shows read; a queued removal is gone; a queued status shows; the rest is as kept', () => {
    const drawn = withPendingWrites(list, [
      write('PATCH', 'a', { progress: 56, progressAt: 200 }),
      write('DELETE', 'd'),
      write('PATCH', 'b c', { status: 'waiting' }),
    ])
    expect(drawn.map((b) => b.seriesId)).toEqual(['a', 'b c'])
    expect(drawn[0]).toMatchObject({ progress: 56, progressAt: 200, unread: false, unreadCount: 0 })
    expect(drawn[1]).toMatchObject({ status: 'waiting', progress: 1 })
    expect(list[0]!.unreadCount).toBe(46)
  })

  it('a queued Progress older than the one kept changes nothing, as the app would keep the later one; an add waits for its answer', () => {
    const drawn = withPendingWrites(list, [
      write('PATCH', 'a', { progress: 3, progressAt: 50 }),
      { ...write('POST', 'x', { url: 'https://example.org/x' }), path: '/api/v1/bookmarks' },
    ])
    expect(drawn).toEqual(list)
  })
})

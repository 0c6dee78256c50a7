/**
 * The Readers' page's outbox: every write is queued in localStorage first and sent from there, so a write
 * that fails (offline, a server that is asleep) is retried later instead of lost. Writes are safe to replay:
 * Progress carries the time it was read (the server keeps the latest), and adding a bookmark twice is a
 * no-op.
 */
export interface PendingWrite {
  id: string
  method: 'POST' | 'PATCH' | 'DELETE'
  path: string
  body?: unknown
  /** For the page: what this write is, in words. */
  label: string
  queuedAt: number
  /** Not sent before this time (a Mark read held while it can be undone); the writes after it wait too, in order. */
  holdUntil?: number
}

export type SendResult = 'done' | 'retry' | { rejected: string } | 'unauthorized'

export interface OutboxStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

const KEY = 'mb.outbox'

export class Outbox {
  constructor(
    private readonly storage: OutboxStorage,
    private readonly send: (write: PendingWrite) => Promise<SendResult>,
  ) {}

  list(): PendingWrite[] {
    try {
      const parsed = JSON.parse(this.storage.getItem(KEY) ?? '[]') as unknown
      return Array.isArray(parsed) ? (parsed as PendingWrite[]) : []
    } catch {
      return []
    }
  }

  add(write: Omit<PendingWrite, 'id' | 'queuedAt'>, now = Date.now()): PendingWrite {
    const entry = { ...write, id: `${now}-${Math.random().toString(36).slice(2, 8)}`, queuedAt: now }
    this.save([...this.list(), entry])
    return entry
  }

  /** Takes a write out before it is sent (Undo); false when it has gone already. */
  remove(id: string): boolean {
    const list = this.list()
    const kept = list.filter((w) => w.id !== id)
    if (kept.length === list.length) return false
    this.save(kept)
    return true
  }

  /**
   * Sends queued writes in order, up to the first one still held. A write the server refuses for good (4xx) is
   * dropped and reported; one that could not be delivered stays, and so does everything after it.
   */
  async flush(
    now = Date.now(),
  ): Promise<{ sent: number; rejected: Array<{ write: PendingWrite; reason: string }>; unauthorized: boolean }> {
    const rejected: Array<{ write: PendingWrite; reason: string }> = []
    let sent = 0
    for (const write of this.list()) {
      if ((write.holdUntil ?? 0) > now) break
      // Undone while an earlier write was being sent: it is no longer in the list.
      if (!this.list().some((w) => w.id === write.id)) continue
      const result = await this.send(write)
      if (result === 'retry') break
      if (result === 'unauthorized') return { sent, rejected, unauthorized: true }
      if (result !== 'done') rejected.push({ write, reason: result.rejected })
      else sent++
      this.save(this.list().filter((w) => w.id !== write.id))
    }
    return { sent, rejected, unauthorized: false }
  }

  private save(list: PendingWrite[]): void {
    this.storage.setItem(KEY, JSON.stringify(list))
  }
}

/**
 * The list as it will be once the queued writes arrive: a queued Progress (newer than the one held) or status is
 * drawn over its bookmark, a queued removal takes it off. So a reload while offline shows what the Reader did,
 * not the list as last synced beside a "1 change waiting". A queued add is left to its answer: the page does not
 * know the Series before the app has read it. Pure.
 */
export function withPendingWrites<B extends DrawnBookmark>(bookmarks: readonly B[], writes: readonly PendingWrite[]): B[] {
  let list = [...bookmarks]
  for (const write of writes) {
    const key = /^\/api\/v1\/bookmarks\/([^/]+)\/([^/]+)$/.exec(write.path)
    if (!key) continue
    const [site, seriesId] = [decodeURIComponent(key[1]!), decodeURIComponent(key[2]!)]
    const at = list.findIndex((b) => b.site === site && b.seriesId === seriesId)
    if (at < 0) continue
    if (write.method === 'DELETE') list = list.filter((_, i) => i !== at)
    else if (write.method === 'PATCH')
      list[at] = drawn(list[at]!, (write.body ?? {}) as { progress?: number; progressAt?: number; status?: string })
  }
  return list
}

/** What of a bookmark a queued write changes. */
export interface DrawnBookmark {
  site: string
  seriesId: string
  status: string
  progress: number | null
  progressAt: number
  unread: boolean
  unreadCount: number
  series: { latestChapter: number | null }
}

function drawn<B extends DrawnBookmark>(b: B, change: { progress?: number; progressAt?: number; status?: string }): B {
  let next = change.status ? { ...b, status: change.status } : b
  // The app keeps the Progress with the latest time: an older queued one changes nothing.
  if (change.progress !== undefined && (change.progressAt ?? 0) >= b.progressAt) {
    const latest = b.series.latestChapter
    const unreadCount = latest === null ? 0 : Math.max(0, Math.ceil(latest - change.progress))
    next = { ...next, progress: change.progress, progressAt: change.progressAt ?? b.progressAt, unread: unreadCount > 0, unreadCount }
  }
  return next
}

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

  /**
   * Sends queued writes in order. A write the server refuses for good (4xx) is dropped and reported; one
   * that could not be delivered stays, and so does everything after it.
   */
  async flush(): Promise<{ sent: number; rejected: Array<{ write: PendingWrite; reason: string }>; unauthorized: boolean }> {
    const rejected: Array<{ write: PendingWrite; reason: string }> = []
    let sent = 0
    for (const write of this.list()) {
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

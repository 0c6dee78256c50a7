/**
 * The big-read worker thread (big-reads.ts): opens the store's file read-only and writes each job's answer as
 * chunks, each handed over without a copy and sent only when the main thread has room for it (it says so with
 * `pull`), so a slow socket holds a few chunks, never the answer (docs/adr/0176-big-reads-streamed.md). A job
 * whose reader takes no chunk for `stallMs` is given up, and so is one cancelled (its socket closed).
 */
import { statSync } from 'node:fs'
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { openReadOnlyDb } from '../store/read-only'
import { ChunkedText, writeBigRead, type BigReadCommand, type BigReadJob, type BigReadMessage } from './big-read-jobs'

type Connection = ReturnType<typeof openReadOnlyDb>

/**
 * The connection to the file at the store's path: a restore renames another file over that path
 * (docs/adr/0089-restore-in-place.md), and a connection kept open would go on reading the file it replaced.
 */
function followingPath(file: string, nativeBinding: string | undefined): () => Promise<Connection> {
  const open = () => ({ ...openReadOnlyDb(file, nativeBinding), ino: statSync(file).ino })
  let opened = open()
  return async () => {
    const ino = statSync(file, { throwIfNoEntry: false })?.ino
    if (ino !== undefined && ino !== opened.ino) {
      await opened.close()
      opened = open()
    }
    return opened
  }
}

/** One job's room for chunks: taken by each chunk sent, given back by the main thread's pulls. */
class Room {
  private wake: (() => void) | undefined
  private stopped: string | undefined
  constructor(
    private free: number,
    private readonly stallMs: number,
  ) {}
  pull(n: number): void {
    this.free += n
    this.wake?.()
  }
  cancel(why: string): void {
    this.stopped = why
    this.wake?.()
  }
  async take(): Promise<void> {
    while (this.free === 0 && this.stopped === undefined) {
      const timer = setTimeout(() => this.cancel(`no chunk taken for ${this.stallMs} ms`), this.stallMs)
      await new Promise<void>((resolve) => (this.wake = resolve))
      clearTimeout(timer)
      this.wake = undefined
    }
    if (this.stopped !== undefined) throw new Error(this.stopped)
    this.free--
  }
}

async function run(port: MessagePort, connection: () => Promise<Connection>, id: number, job: BigReadJob, room: Room): Promise<void> {
  const out = new ChunkedText(async (chunk) => {
    await room.take()
    port.postMessage({ id, chunk } satisfies BigReadMessage, [chunk.buffer as ArrayBuffer])
  })
  try {
    const { db, sqlite } = await connection()
    await writeBigRead(db, job, out, sqlite)
    await out.flush()
    port.postMessage({ id, done: true } satisfies BigReadMessage)
  } catch (error) {
    const message = String((error as Error)?.message ?? error).slice(0, 2_000)
    port.postMessage({ id, ok: false, message } satisfies BigReadMessage)
  }
}

const port = parentPort
if (port) {
  const { file, nativeBinding, stallMs, ahead } = workerData as { file: string; nativeBinding?: string; stallMs: number; ahead: number }
  const connection = followingPath(file, nativeBinding)
  const rooms = new Map<number, Room>()
  // One job at a time, in the order asked: each read is one transaction on this thread's connection.
  let queue = Promise.resolve()
  port.on('message', (m: BigReadCommand) => {
    if (m.type === 'pull') return rooms.get(m.id)?.pull(m.n)
    if (m.type === 'cancel') return rooms.get(m.id)?.cancel('cancelled')
    const room = new Room(ahead, stallMs)
    rooms.set(m.id, room)
    queue = queue.then(() => run(port, connection, m.id, m.job, room).finally(() => rooms.delete(m.id)))
  })
  port.postMessage({ ready: true } satisfies BigReadMessage)
}

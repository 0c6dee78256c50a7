/**
 * The core's watch over the store's file (docs/adr/0045-storage-faults.md, docs/adr/0046-the-file-the-app-opened.md):
 * it looks at the file every few seconds even when nothing writes — a database deleted or replaced under the
 * running app is noticed within that, not at the next write — and says every change loudly: an error line when
 * writes cannot be stored and why, a line when they are taken again. The Overview and the tray read
 * `problem()`.
 */
import type { Clock } from './clock'
import type { Log } from './log'
import type { StorageFault, StorageHealth } from './store/storage'

/** How often the file is looked at when nothing writes. */
export const STORAGE_CHECK_MS = 5_000

export interface StorageProblem extends Pick<StorageFault, 'kind' | 'message'> {
  /** When the app first saw it (wall clock). */
  since: number
}

export interface StorageWatch {
  /** Why writes cannot be stored now (looked at again now), or null. */
  problem(): StorageProblem | null
  stop(): Promise<void>
}

export function watchStorage(options: { health: StorageHealth; clock: Clock; log: Log; everyMs?: number }): StorageWatch {
  const { health, clock, log } = options
  let since = 0
  const controller = new AbortController()

  const report = (fault: StorageFault | null) => {
    if (fault) {
      since = clock.now()
      log.error({ file: health.file, kind: fault.kind, code: fault.code }, `store: ${fault.message}`)
      if (fault.kind === 'deleted' || fault.kind === 'replaced')
        log.error({ file: health.file }, 'store: no write is acknowledged any more; restart the app (it opens the file now at that path)')
    } else {
      log.warn({ file: health.file, since }, 'store: writes are stored again')
      since = 0
    }
  }
  const unsubscribe = health.onChange(report)
  if (health.fault()) report(health.fault())

  const loop = (async () => {
    while (!controller.signal.aborted) {
      try {
        health.check()
      } catch (error) {
        log.error({ err: error }, 'store: looking at the database file failed')
      }
      await clock.sleep(options.everyMs ?? STORAGE_CHECK_MS, controller.signal)
    }
  })()

  return {
    problem() {
      const fault = health.check()
      return fault ? { kind: fault.kind, message: fault.message, since } : null
    },
    async stop() {
      controller.abort()
      unsubscribe()
      await loop
    },
  }
}

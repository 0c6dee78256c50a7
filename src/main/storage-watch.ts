/**
 * The core's watch over the store's file (docs/adr/0045-storage-faults.md, docs/adr/0046-the-file-the-app-opened.md):
 * it looks at the file every few seconds even when nothing writes — a database deleted or replaced under the
 * running app is noticed within that, not at the next write — and says every change loudly: an error line when
 * writes cannot be stored and why, a line when they are taken again. The Overview and the tray read
 * `problem()`.
 */
import type { Clock } from './clock'
import type { Log } from './log'
import { dirname } from 'node:path'
import { RESTORE_ADVICE, type StorageFault, type StorageFaultKind, type StorageHealth } from './store/storage'

/** How often the file is looked at when nothing writes. */
export const STORAGE_CHECK_MS = 5_000

export interface StorageProblem extends Pick<StorageFault, 'kind' | 'message'> {
  /** When the app first saw it (wall clock). */
  since: number
  /** The one thing that fixes it, for the owner. */
  action: string
}

/** The one thing that fixes a fault, in the owner's words. Pure. */
export function actionFor(kind: StorageFaultKind, file: string): string {
  const resumes = 'writes resume by themselves'
  const actions: Record<StorageFaultKind, string> = {
    full: `free space on the disk that holds ${dirname(file)}; ${resumes}`,
    'read-only': `make ${file} writable (chmod u+w, chattr -i, or mount the disk read-write); ${resumes}`,
    io: `check the disk that holds ${file}; ${resumes} once it answers`,
    damaged: RESTORE_ADVICE,
    deleted: RESTORE_ADVICE,
    moved: `put the file back at ${file}; ${resumes}`,
    replaced: `restart the app to open the file now at ${file}, or put back the one it opened; ${resumes} then`,
  }
  return actions[kind]
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
      // One line an episode, with no stack: the writes it refuses are not logged one by one.
      since = clock.now()
      log.error(
        { file: health.file, kind: fault.kind, code: fault.code },
        `store: ${fault.message}; no write is acknowledged until then: ${actionFor(fault.kind, health.file)}`,
      )
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
      return fault ? { kind: fault.kind, message: fault.message, since, action: actionFor(fault.kind, health.file) } : null
    },
    async stop() {
      controller.abort()
      unsubscribe()
      await loop
    },
  }
}

/**
 * Settings → Backups → Restore (docs/adr/0089-restore-in-place.md): the backups with their verdict, and a
 * restore while the app runs. The backup is verified (`integrity_check`, in a worker thread, so the Lanes and
 * the endpoint never wait for it); the Lanes and any backup in progress are stopped; the store's connection is
 * closed, the backup's copy renamed over the database (the replaced file and its journal kept aside), and the
 * same store opens the restored file — the process never exits, and the Lanes start again.
 */
import type { Clock } from './clock'
import type { Log } from './log'
import { backupHoldsLibrary, listBackups, type BackupView } from './store/backups'
import type { Store } from './store/database'
import { startIntegrityCheck } from './store/integrity'
import { damagedBackup, restoreFile, type BackupVerdict, type CheckedBackup, type RestoreReport } from './store/restore'
import { AppError } from '../shared/errors'
import { vetRestoredCopy, type OnPin } from './store/restore-vet'

export interface Restorer {
  /** The backups, newest first, each with its verdict (each file checked once). */
  list(): Promise<CheckedBackup[]>
  /** Restores one of the listed backups over the running store. */
  restore(file: string): Promise<RestoreReport>
}

export interface RestorerDeps {
  store: Store
  backupDir: string
  clock: Clock
  log: Log
  nativeBinding?: string
  /** Stops whatever writes on its own (the Lanes, the backup in progress); resolves with what starts it again. */
  quiet(): Promise<() => Promise<void>>
  /** Whether a stored URL is on its Site's pin: the restored copy is vetted with it (store/restore-vet.ts). */
  onPin: OnPin
  /** Told once the restored file is in place. */
  restored(report: RestoreReport): void
}

export function createRestorer(deps: RestorerDeps): Restorer {
  const verdicts = new Map<string, Promise<BackupVerdict>>()
  let restoring: Promise<RestoreReport> | null = null

  const verdictOf = (b: BackupView): Promise<BackupVerdict> => {
    const key = `${b.file}\n${b.bytes}`
    let found = verdicts.get(key)
    if (!found) {
      const check = startIntegrityCheck(b.file, {
        pragma: 'integrity_check',
        nativeBinding: deps.nativeBinding,
      })
      // A check that could not run is no verdict of "ok".
      found = check.verdict.then((v) => {
        const ok = v.ok && v.problems.length === 0
        // An empty backup is marked in the list (a library deleted, or not yet filled): restoring it empties the app.
        const empty = ok && backupHoldsLibrary(b.file, deps.nativeBinding ? { nativeBinding: deps.nativeBinding } : {}) === false
        return { ok, problems: v.problems, empty }
      })
      verdicts.set(key, found)
    }
    return found
  }

  const list = async (): Promise<CheckedBackup[]> => {
    const checked: CheckedBackup[] = []
    for (const b of listBackups(deps.backupDir)) checked.push({ ...b, verdict: await verdictOf(b) })
    return checked
  }

  async function restore(file: string): Promise<RestoreReport> {
    const backup = listBackups(deps.backupDir).find((b) => b.file === file)
    if (!backup) throw new AppError('not-found', `no backup ${file} in ${deps.backupDir}`)
    const verdict = await verdictOf(backup)
    if (!verdict.ok) throw damagedBackup(file, verdict)
    const resume = await deps.quiet()
    try {
      let report: RestoreReport | undefined
      await deps.store.replaceFile(() => {
        report = restoreFile(file, deps.store.file, deps.clock.now(), {
          verified: true,
          vet: (copy) => vetRestoredCopy(copy, deps.onPin, deps.nativeBinding ? { nativeBinding: deps.nativeBinding } : {}),
        })
      }, deps.clock.now())
      deps.log.warn(
        { from: file, aside: report!.aside, changed: report!.changed },
        `store: restored ${file}; the file it replaced is kept at ${report!.aside.join(', ') || '(none)'}${
          report!.changed.length ? `; vetting the copy ${report!.changed.join('; ')}` : ''
        }`,
      )
      deps.restored(report!)
      return report!
    } finally {
      await resume()
    }
  }

  return {
    list,
    restore(file) {
      if (restoring) throw new AppError('conflict', 'a restore is in progress')
      restoring = restore(file).finally(() => (restoring = null))
      return restoring
    },
  }
}
